// chronicle web: shared helpers (fetch with token, DOM builder, board registry, generic view).
"use strict";
const CH = (() => {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");

  // h("div", {class: "x"}, "text", child...) -> Element; text is always escaped
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  class ApiError extends Error {
    constructor(status, body) {
      const err = (body && body.error) || {};
      super(err.message || `HTTP ${status}`);
      this.status = status; this.code = err.code; this.body = body;
    }
  }

  async function api(path, opts = {}) {
    const headers = Object.assign({Accept: "application/json"}, opts.headers || {});
    if (token && !opts.anonymous) headers.Authorization = "Bearer " + token;
    let body = opts.body;
    if (body !== undefined && typeof body !== "string") {
      body = JSON.stringify(body); headers["Content-Type"] = "application/json";
    }
    const res = await fetch(path, {method: opts.method || "GET", headers, body});
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) throw new ApiError(res.status, data);
    if (opts.withEtag) return {data, etag: res.headers.get("ETag")};
    return data;
  }

  // every page of the event log: {events, annotations}
  async function allEvents(gameId, after = -1) {
    let path = `/games/${gameId}/events?after=${after}&limit=5000`;
    const events = [], annotations = {};
    while (path) {
      const page = await api(path);
      events.push(...page.events);
      Object.assign(annotations, page.annotations);
      path = page.next;
    }
    return {events, annotations};
  }

  let catalogPromise = null;
  function catalog() {
    if (!catalogPromise) catalogPromise = api("/games-catalog", {anonymous: true}).then((c) => {
      labelsBySlug = Object.fromEntries(c.games.map((g) => [g.slug, g.labels || {}]));
      return Object.fromEntries(c.games.map((g) => [g.slug, g]));
    });
    return catalogPromise;
  }

  // -- board renderers: one script per game registers itself here -------------------
  const boards = {};
  const loading = {};
  function registerBoard(slug, render) { boards[slug] = render; }
  // a game whose pieces carry instance ids (Thrones' "p1-063-2": seat 1's second copy of card
  // 63) names them through its own labeller; every other id is looked up as it stands
  const labellers = {};
  function registerLabels(slug, fn) { labellers[slug] = fn; }
  // the edition's labels (GameRules.labels, served by the catalog) name every component
  let labelsBySlug = {};
  function cardName(slug, cards, id) {
    const labels = labelsBySlug[slug];
    if (labels && labels[id] !== undefined) return labels[id];
    if (cards && cards[id] && cards[id].name) return cards[id].name;
    const named = labellers[slug] ? labellers[slug](String(id), cards || {}) : null;
    return named || String(id);
  }
  function loadBoard(slug) {
    if (!loading[slug]) {
      loading[slug] = new Promise((resolve) => {
        const s = document.createElement("script");
        s.src = `/static/web/boards/${encodeURIComponent(slug)}.js`;
        // a board's own stylesheet, when it has one (boards/<slug>.css)
        const css = document.createElement("link");
        css.rel = "stylesheet";
        css.href = `/static/web/boards/${encodeURIComponent(slug)}.css`;
        document.head.append(css);
        s.onload = () => resolve(true);
        s.onerror = () => resolve(false);  // no renderer: the generic view serves
        document.head.append(s);
      });
    }
    return loading[slug];
  }

  // paths ("a.b.0") whose value differs between two JSON values
  function diffPaths(prev, cur, path = "", out = new Set()) {
    if (prev === undefined) return out;
    if (JSON.stringify(prev) === JSON.stringify(cur)) return out;
    out.add(path);
    if (prev && cur && typeof prev === "object" && typeof cur === "object") {
      const keys = new Set([...Object.keys(prev), ...Object.keys(cur)]);
      for (const k of keys) diffPaths(prev[k], cur[k], path ? `${path}.${k}` : String(k), out);
    }
    return out;
  }

  function makeCtx(doc, prevDoc, cat) {
    const changedSet = prevDoc ? diffPaths(prevDoc.view, doc.view) : new Set();
    const cards = (cat && cat.cards) || {};
    const players = doc.players || [];
    return {
      doc, view: doc.view, prev: prevDoc ? prevDoc.view : null, players, cards,
      changed: (path) => changedSet.has(path),
      cls: (base, path) => base + (changedSet.has(path) ? " changed" : ""),
      label: (id) => cardName(doc.game, cards, id),
      seatName: (s) => actorName(s, players),
      isNew: (listPath, id) => {  // an item that was not in the same list one step before
        if (!prevDoc) return false;
        const before = getPath(prevDoc.view, listPath);
        return Array.isArray(before) ? !before.includes(id) : false;
      },
    };
  }

  function getPath(obj, path) {
    return path.split(".").reduce((o, k) => (o === null || o === undefined ? o : o[k]), obj);
  }

  function renderBoard(container, doc, prevDoc, cat) {
    container.replaceChildren();
    container.dataset.seq = doc.seq;
    container.dataset.game = doc.game;
    const ctx = makeCtx(doc, prevDoc, cat);
    const render = boards[doc.game];
    let el = null;
    if (render) {
      try { el = render(doc.view || {}, ctx); } catch (e) {
        console.warn("board renderer failed; generic view", e);
        container.append(h("p", {class: "note"}, "(this board could not be drawn; showing every field)"));
      }
    }
    container.dataset.renderer = el ? doc.game : "generic";
    container.append(el || generic(doc.view || {}, ctx));
    return ctx;
  }

  // any JSON value, readably: objects as two-column tables, lists of scalars inline
  function generic(value, ctx, path = "") {
    const changed = ctx && path && ctx.changed(path) ? " changed" : "";
    if (value === null || value === undefined) {
      return h("span", {class: "nil" + changed, "data-path": path || null, "data-scalar": path ? true : null}, "—");
    }
    if (typeof value !== "object") {
      return h("span", {class: "val" + changed, "data-path": path, "data-scalar": true}, String(value));
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return h("span", {class: "nil" + changed, "data-path": path}, "none");
      if (value.every((v) => v === null || typeof v !== "object")) {
        return h("span", {class: "list" + changed, "data-path": path, "data-list": true},
          value.map((v, i) => h("span", {class: "chip" + (ctx && ctx.changed(`${path}.${i}`) ? " changed" : ""),
            "data-item": JSON.stringify(v)},
            ctx ? ctx.label(v) : String(v))));
      }
      return h("ol", {class: "glist" + changed, start: 0, "data-path": path},
        value.map((v, i) => h("li", {}, generic(v, ctx, path ? `${path}.${i}` : String(i)))));
    }
    return h("table", {class: "gtable" + changed, "data-path": path},
      Object.entries(value).map(([k, v]) => h("tr", {},
        h("th", {}, k.replace(/_/g, " ")), h("td", {}, generic(v, ctx, path ? `${path}.${k}` : k)))));
  }

  // a scalar of the view, marked with its path so tests (and curious users) can check it
  // opts.show(v) -> what a person reads (a label, a player's name); data-value keeps the raw
  // value so tests can still check the board against the state
  function val(ctx, path, opts = {}) {
    const v = getPath(ctx.view, path);
    if (v === undefined) return h(opts.tag || "b", {class: "nil"}, "—");  // not in this view
    const raw = v === null ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v);
    const text = opts.show ? opts.show(v) : raw;
    return h(opts.tag || "b", {class: ctx.cls(opts.class || "val", path), "data-path": path,
      "data-value": opts.show ? raw : null,
      "data-scalar": typeof v === "object" && v !== null ? null : true}, text);
  }

  // a list of the view as chips (ids labelled from the catalog), marked with its path
  function chips(ctx, path, opts = {}) {
    const v = getPath(ctx.view, path);
    if (!Array.isArray(v)) return h("span", {class: "nil"}, v === undefined ? "" : "hidden");
    const before = ctx.prev ? getPath(ctx.prev, path) : null;
    return h("span", {class: ctx.cls("list", path), "data-path": path, "data-list": true},
      v.length ? null : h("span", {class: "nil"}, opts.empty || "none"),
      v.map((x) => h("span", {class: "chip" + (Array.isArray(before) && !before.some((b) => JSON.stringify(b) === JSON.stringify(x)) ? " changed" : ""),
        "data-item": JSON.stringify(x), title: typeof x === "string" ? x : null},
      typeof x === "object" && x !== null ? JSON.stringify(x) : ctx.label(x))));
  }

  // per-seat panels: fn(seat) -> content; the seats to act are outlined
  function seats(ctx, n, fn) {
    const acting = new Set(ctx.doc.to_act || []);
    return h("div", {class: "seats"}, Array.from({length: n}, (_, i) => h("div", {
      class: "seat" + (acting.has(i) ? " acting" : ""), "data-seat": i},
    h("h3", {}, h("span", {class: `pawn s${i}`}), " ", ctx.players[i] ?? `seat ${i}`), fn(i))));
  }

  function stat(label, node) { return h("span", {class: "stat"}, label, " ", node); }

  function actorName(actor, players) {
    if (typeof actor === "number") return players[actor] !== undefined ? players[actor] : `seat ${actor}`;
    if (actor === "table") return "the table";
    if (actor === "server") return "the server";
    return String(actor);
  }

  function describe(env, note, players) {
    const who = actorName(env.actor, players);
    if (note && note.description) return `${who}: ${note.description}`;
    const d = env.data || {};
    switch (env.type) {
      case "game_created": return `game created: ${(d.players || players).join(", ")} (${d.mode || "table"})`;
      case "undo": return `${who}: undo (step ${d.target_seq ?? "?"})`;
      case "redo": return `${who}: redo (step ${d.target_seq ?? "?"})`;
      case "seed_revealed": return "server: revealed the deal seed";
      case "note": return `${who}: note${d.text ? " — " + d.text : ""}`;
      default: return `${who}: ${env.type.replace(/_/g, " ")}`;
    }
  }

  // a breakdown ({per_seat: [...]}, [...per seat], or {category: value}) as one table
  function breakdownTable(result, players) {
    const bd = result && result.breakdown;
    const scores = (result && result.scores) || [];
    const perSeat = Array.isArray(bd) ? bd : (bd && Array.isArray(bd.per_seat) ? bd.per_seat : null);
    const head = h("tr", {}, h("th", {}, ""), players.map((p, i) =>
      h("th", {}, p, (result.winners || []).includes(i) ? " ★" : "")));
    const rows = [];
    if (perSeat) {
      const cats = [...new Set(perSeat.flatMap((s) => (s && typeof s === "object") ? Object.keys(s) : []))];
      for (const c of cats) {
        rows.push(h("tr", {"data-category": c}, h("th", {}, c.replace(/_/g, " ")), perSeat.map((s) => {
          const v = s ? s[c] : null;
          return h("td", {}, v !== null && typeof v === "object" ? generic(v) : String(v ?? "—"));
        })));
      }
    } else if (bd && typeof bd === "object") {
      for (const [c, v] of Object.entries(bd)) {
        rows.push(h("tr", {"data-category": c}, h("th", {}, c.replace(/_/g, " ")),
          h("td", {colspan: Math.max(1, players.length)}, typeof v === "object" ? generic(v) : String(v))));
      }
    }
    rows.push(h("tr", {class: "total"}, h("th", {}, "score"),
      players.map((_, i) => h("td", {"data-final-score": i}, String(scores[i] ?? "—")))));
    return h("table", {class: "breakdown"}, head, rows);
  }

  function withToken(path) {
    return token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;
  }

  // live follow: EventSource (anonymous: it only says "something new"; the data is then
  // fetched with the token, so a seat never reads more than its view through it)
  function follow(gameId, after, onNews) {
    if (!window.EventSource) return null;
    const es = new EventSource(`/games/${gameId}/events/stream?after=${after}`);
    es.addEventListener("chronicle", (e) => {
      try { onNews(JSON.parse(e.data)); } catch (err) { console.warn(err); }
    });
    return es;
  }

  return {h, api, ApiError, allEvents, catalog, registerBoard, loadBoard, renderBoard,
    generic, describe, registerLabels, cardName, actorName, val, chips, seats, stat, breakdownTable, withToken, follow, token, params, getPath};
})();
window.CH = CH;
