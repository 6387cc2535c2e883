// chronicle web: shared helpers (fetch with token, DOM builder, board registry, generic view).
"use strict";
// The pages' words: t(key, {player}) is the catalog's text of a key in the
// page's language (window.CHRONICLE_I18N, from the same .po as the server's; English keys are
// their own text), tn(one, many, n, args) by count. pybabel extracts both (babel.cfg).
const LANG = window.CHRONICLE_LANG || "en";
const I18N = window.CHRONICLE_I18N || {};
function fillIn(text, args) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (args && args[k] !== undefined ? String(args[k]) : m));
}
function t(key, args) {
  const found = I18N[key];
  return fillIn(Array.isArray(found) ? found[0] : (found || key), args);
}
function tn(one, many, n, args) {
  const found = I18N[one];
  const text = found ? (Array.isArray(found) ? found[0] : found) : (n === 1 ? one : many);
  return fillIn(text, Object.assign({count: n}, args || {}));
}
window.t = t; window.tn = tn;

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

  // No answer from the server, as opposed to its refusal: the connection dropped, the
  // request hung past its deadline, the answer broke off, or a proxy in front answered
  // 502/503/504 for a server it could not reach. Nothing of it says the move was refused,
  // so a caller keeps the move (and retries with its Idempotency-Key).
  class Unreached extends Error {
    constructor(message, status) {
      super(message);
      this.unreached = true; this.status = status || 0;
    }
  }
  const unreached = (err) => Boolean(err && err.unreached);
  // how long a request may take before it counts as not reached (a hang on bad Wi-Fi
  // otherwise holds the page for the browser's 30 s and more); a write gets longer, and a
  // write that did arrive is found by its Idempotency-Key when it is sent again
  const DEADLINE_MS = {read: 5000, write: 8000};
  const PROXY_STATUS = new Set([502, 503, 504]);

  // One request with a deadline: headers and body must both arrive within it.
  async function api(path, opts = {}) {
    const headers = Object.assign({Accept: "application/json"}, opts.headers || {});
    if (token && !opts.anonymous) headers.Authorization = "Bearer " + token;
    let body = opts.body;
    if (body !== undefined && typeof body !== "string") {
      body = JSON.stringify(body); headers["Content-Type"] = "application/json";
    }
    const ms = opts.timeout || ((opts.method || "GET") === "GET" ? DEADLINE_MS.read : DEADLINE_MS.write);
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), ms);
    const lost = () => (stop.signal.aborted
      ? new Unreached(t("no answer from the server within {seconds} s", {seconds: Math.round(ms / 1000)}))
      : new Unreached(t("the connection dropped")));
    let res, text;
    try {
      res = await fetch(path, {method: opts.method || "GET", headers, body, signal: stop.signal});
      text = await res.text();  // an answer that breaks off is no answer
    } catch (e) {
      throw lost();
    } finally {
      clearTimeout(timer);
    }
    if (PROXY_STATUS.has(res.status)) {
      throw new Unreached(t("the server could not be reached (HTTP {status} from the way to it)", {status: res.status}), res.status);
    }
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
    if (!res.ok) throw new ApiError(res.status, data);
    // a 2xx that is not the server's JSON (a captive portal, a proxy's page): not reached
    if (data === null && text) throw new Unreached(t("the answer was not the server's"));
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
  // what a person reads for an id: its label; failing that, a compound id ("elector:mainz")
  // part by part, and a field-like name as words ("back_door" -> "back door"), never raw
  function readable(slug, cards, id) {
    const named = cardName(slug, cards, id);
    if (named !== String(id) || typeof id !== "string") return named;
    if (id.includes(":")) return id.split(":").map((part) => readable(slug, cards, part)).join(", ");
    return /_/.test(id) ? words(id) : id;
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
      label: (id) => readable(doc.game, cards, id),
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
    // hold the board's height while it is redrawn, so the page below it never jumps and the
    // window keeps its place (a step must not move what the reader is looking at)
    const held = container.offsetHeight;
    if (held) container.style.minHeight = `${held}px`;
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
    container.style.minHeight = "";
    return ctx;
  }

  // A board wider than its box is shrunk to fit (down to `least`), so the page never
  // scrolls sideways; a board that still does not fit scrolls inside its own box.
  function fitBoard(container, on = true, least = 0.55) {
    const el = container.lastElementChild;
    if (!el) return 1;
    el.style.zoom = "";
    if (!on) return 1;
    // never below 12 px on screen: the smallest text inside sets how far the board may shrink
    let smallest = Infinity;
    for (const t of el.querySelectorAll("*")) {
      if (t.firstChild && t.firstChild.nodeType === 3) smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize));
    }
    if (Number.isFinite(smallest)) least = Math.max(least, Math.min(1, 12 / smallest));
    if (least >= 1) return 1;
    const pad = 2 * parseFloat(getComputedStyle(container).paddingLeft || 0);
    const room = container.clientWidth - pad;
    const need = Math.max(el.scrollWidth, container.scrollWidth - pad);
    if (room <= 0 || need <= room + 1) return 1;
    let z = Math.max(least, Math.floor((room / need) * 100) / 100);
    el.style.zoom = String(z);
    if (container.scrollWidth > container.clientWidth + 1 && z > least) {  // text reflowed: once more
      z = Math.max(least, Math.floor(z * (container.clientWidth / container.scrollWidth) * 100) / 100);
      el.style.zoom = String(z);
    }
    return z;
  }

  // any JSON value, readably: objects as two-column tables, lists of scalars inline
  function generic(value, ctx, path = "") {
    const changed = ctx && path && ctx.changed(path) ? " changed" : "";
    if (value === null || value === undefined) {
      return h("span", {class: "nil" + changed, "data-path": path || null, "data-scalar": path ? true : null}, "—");
    }
    if (typeof value !== "object") {
      // what a person reads (a label for an id, yes/no); data-value keeps the raw value
      const shown = typeof value === "string" && ctx ? ctx.label(value)
        : typeof value === "boolean" ? (value ? t("yes") : t("no")) : String(value);
      return h("span", {class: "val" + changed, "data-path": path, "data-scalar": true,
        "data-value": shown !== String(value) ? String(value) : null}, shown);
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return h("span", {class: "nil" + changed, "data-path": path}, t("none"));
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
        h("th", {}, words(k)), h("td", {}, generic(v, ctx, path ? `${path}.${k}` : k)))));
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
    h("h3", {}, h("span", {class: `pawn s${i}`}), " ", actorName(i, ctx.players)), fn(i))));
  }

  function stat(label, node) { return h("span", {class: "stat"}, label, " ", node); }

  // -- words ----------------------------------------------------------------------------
  // grammar by count: plural(1, "card") -> "1 card", plural(2, "card") -> "2 cards"
  // (English only: a page's own words by count are tn(...), which every language reads)
  function plural(n, word, many) {
    return `${n} ${n === 1 ? word : (many || (/(s|x|ch|sh)$/.test(word) ? word + "es" : word + "s"))}`;
  }
  // ["Anna", "Bo", "Cleo"] -> "Anna, Bo and Cleo" / "Anna、Bo和Cleo"
  function wordsList(items, last = "and") {
    const xs = items.map(String);
    if (xs.length < 2) return xs.join("");
    if (LANG === "zh_Hans") return `${xs.slice(0, -1).join("、")}${last === "or" ? "或" : "和"}${xs[xs.length - 1]}`;
    return `${xs.slice(0, -1).join(", ")} ${last} ${xs[xs.length - 1]}`;
  }
  function capitalise(s) { s = String(s); return s.charAt(0).toUpperCase() + s.slice(1); }
  // a field name as words, only where nothing better is known: "country_cards" -> "country cards"
  function words(name) { return String(name).replace(/[_-]+/g, " ").trim(); }
  function ordinal(n) {
    const s = ["th", "st", "nd", "rd"], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  function actorName(actor, players) {
    if (typeof actor === "number") return players[actor] !== undefined ? players[actor] : t("seat {seat}", {seat: actor});
    if (actor === "table") return t("the table");
    if (actor === "server") return t("the server");
    if (actor === null || actor === undefined) return t("someone");
    return String(actor);
  }

  const quote = (s) => `“${String(s).replace(/[.。\s]+$/, "")}”`;
  const sentence = (s) => capitalise(String(s).trim());

  // What happened at one step, as a sentence with names. A game's own actions carry the
  // rules' description (GameRules.describe, a whole sentence naming the actor), shown
  // verbatim; the log's own events are worded here. `history` ({events, notes}, optional)
  // lets an undo or a redo name the move it took back.
  function describe(env, note, players, history) {
    const who = actorName(env.actor, players);
    // a correction's too: the server says it in the page's language ("… corrected event 3:
    // now “…”"), so no English of it is parsed here
    if (note && note.description) return sentence(note.description);
    const d = env.data || {};
    const target = (seq) => {
      const n = history && history.notes ? history.notes[seq] : null;
      return n && n.description ? quote(sentence(n.description)) : t("the move at step {seq}", {seq});
    };
    switch (env.type) {
      case "game_created": {
        const names = d.players || players;
        return d.mode === "digital" ? t("The game was created for {players}, played on their devices.", {players: wordsList(names)})
          : t("The game was created for {players}, recorded at the table.", {players: wordsList(names)});
      }
      case "undo": return sentence(t("{player} undid {move}", {player: who, move: target(d.target_seq)}));
      case "redo": return sentence(t("{player} redid {move}", {player: who, move: target(d.target_seq)}));
      case "seed_revealed": return sentence(t("{player} revealed the seed of the deals, so anyone can check them", {player: who}));
      case "note": return sentence(d.text ? t("{player} wrote a note: {text}", {player: who, text: quote(d.text)})
        : t("{player} wrote an empty note", {player: who}));
      case "correction": return sentence(t("{player} corrected step {seq}", {player: who, seq: d.target_seq ?? "?"}));
      case "claim_result": {
        const none = t("no score");
        const scores = (d.scores || []).map((s, i) => `${actorName(i, players)} ${s ?? none}`);
        const won = (d.winners || []).map((i) => actorName(i, players));
        const claim = t("{player} wrote down the result: {scores}", {player: who, scores: wordsList(scores)});
        return sentence(!won.length ? claim : won.length === 1 ? t("{claim}; {players} won", {claim, players: wordsList(won)})
          : t("{claim}; {players} won together", {claim, players: wordsList(won)}));
      }
      default: return sentence(t("{player} made the move {move}", {player: who, move: quote(words(env.type))}));
    }
  }

  // a nested value of a breakdown, in a line: {east: 6, north: 2} -> "east 6, north 2"
  function inline(v, name = words) {
    if (v === null || v === undefined) return "—";
    if (Array.isArray(v)) return v.length ? v.map((x) => inline(x, name)).join(", ") : t("none");
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${name(k)} ${inline(x, name)}`).join(", ");
    if (typeof v === "boolean") return v ? t("yes") : t("no");
    if (typeof v === "string") return name(v);
    return String(v);
  }

  // a breakdown ({per_seat: [...]}, [...per seat], or {category: value}) as one table;
  // `slug` names the categories that are components ("mainz": the Archdiocese of Mainz)
  function breakdownTable(result, players, slug) {
    const name = (k) => { const l = slug ? cardName(slug, null, k) : k; return l !== k ? l : readable(slug, null, k); };
    const bd = result && result.breakdown;
    const scores = (result && result.scores) || [];
    const perSeat = Array.isArray(bd) ? bd : (bd && Array.isArray(bd.per_seat) ? bd.per_seat : null);
    const winners = (result && result.winners) || [];
    const head = h("tr", {}, h("th", {}, ""), players.map((p, i) =>
      h("th", {class: winners.includes(i) ? "winner" : null}, p, winners.includes(i) ? h("span", {title: "winner"}, " ★") : null)));
    const rows = [];
    if (perSeat) {
      const cats = [...new Set(perSeat.flatMap((s) => (s && typeof s === "object") ? Object.keys(s) : []))];
      for (const c of cats) {
        rows.push(h("tr", {"data-category": c}, h("th", {}, name(c)), perSeat.map((s) =>
          h("td", {}, inline(s ? s[c] : null, name)))));
      }
    } else if (bd && typeof bd === "object") {
      for (const [c, v] of Object.entries(bd)) {
        rows.push(h("tr", {"data-category": c}, h("th", {}, name(c)),
          h("td", {colspan: Math.max(1, players.length)}, inline(v, name))));
      }
    }
    rows.push(h("tr", {class: "total"}, h("th", {}, t("score")),
      players.map((_, i) => h("td", {"data-final-score": i}, String(scores[i] ?? "—")))));
    // on a phone the same numbers one player at a time (a table of 5 players does not fit)
    const cats = perSeat ? [...new Set(perSeat.flatMap((s) => (s && typeof s === "object") ? Object.keys(s) : []))] : [];
    const list = h("ul", {class: "breakdown-list"}, players.map((p, i) => h("li", {},
      h("b", {}, p, winners.includes(i) ? " ★" : "", `: ${scores[i] ?? "—"}`),
      cats.length ? h("span", {class: "note"}, " — " + cats.map((c) => `${name(c)} ${inline(perSeat[i] ? perSeat[i][c] : null, name)}`).join(", ")) : null)));
    return h("div", {class: "breakdown-box"}, h("div", {class: "table-wrap"}, h("table", {class: "breakdown"}, head, rows)), list);
  }

  // the words for a result's reason, from any game's labels the catalog has served
  function labelOf(key) {
    for (const labels of Object.values(labelsBySlug || {})) if (labels[key] !== undefined) return labels[key];
    return null;
  }

  // "Anna won with 18" / "Anna and Bo shared the win with 20"
  function resultSentence(result, players) {
    if (!result) return "";
    const won = (result.winners || []).map((i) => actorName(i, players));
    const best = (result.winners || []).map((i) => (result.scores || [])[i]).filter((s) => s !== undefined);
    const reason = result.reason ? (labelOf(result.reason) || words(result.reason)) : "";
    const why = reason ? t(" The game ended: {reason}.", {reason}) : "";
    if (!won.length) return t("Nobody won.") + why;
    const who = wordsList(won);
    if (best.length) {
      return (won.length === 1 ? t("{players} won with {score}.", {players: who, score: best[0]})
        : t("{players} shared the win with {score}.", {players: who, score: best[0]})) + why;
    }
    return (won.length === 1 ? t("{players} won.", {players: who})
      : t("{players} shared the win.", {players: who})) + why;
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

  return {h, api, ApiError, Unreached, unreached, DEADLINE_MS, allEvents, catalog, registerBoard, loadBoard, renderBoard,
    generic, fitBoard, describe, registerLabels, cardName, readable, actorName, val, chips, seats, stat, breakdownTable,
    resultSentence, withToken, follow, token, params, getPath, plural, wordsList, capitalise, words, ordinal, t, tn, LANG};
})();
window.CH = CH;
