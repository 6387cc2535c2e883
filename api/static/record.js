// Recording at the table (and playing in digital mode): the board, whose turn it is, and
// the legal actions as buttons. Every write carries If-Match with the ETag it was drawn
// from, so a second device that is behind gets a clear conflict instead of a double entry.
"use strict";
(() => {
  const {h, api} = CH;
  const root = document.getElementById("record");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  let game = null, cat = null, doc = null, prevDoc = null, etag = null, legal = [];
  let busy = false, known = -1;  // known: the last seq we wrote or read

  function showError(message, code) {
    $("error").hidden = false; $("error").textContent = message;
    $("error").dataset.code = code || "";
  }
  function clearError() { $("error").hidden = true; $("error").textContent = ""; }
  function flash(message) {
    $("flash").hidden = !message; $("flash").textContent = message || "";
  }

  async function refresh() {
    const [{data, etag: tag}, acts] = await Promise.all([
      api(`/games/${gameId}/state`, {withEtag: true}), api(`/games/${gameId}/legal-actions`)]);
    if (doc && data.seq !== doc.seq) prevDoc = doc;
    doc = data; etag = tag || `"${data.last_seq}"`; legal = acts.actions || [];
    const slots = acts.chance_slots || {};
    legal.forEach((a, i) => { a.slots = slots[String(i)] || null; });
    render();
  }

  function render() {
    CH.renderBoard($("board"), doc, prevDoc, cat);
    $("board").dataset.loaded = String(doc.seq);
    root.dataset.seq = String(doc.last_seq);
    const toAct = (doc.to_act || []).map((a) => CH.actorName(a, game.players));
    $("turn").textContent = doc.status === "finished" ? "The game is over."
      : toAct.length ? `To act: ${toAct.join(", ")}` : "";
    $("undo").disabled = !CH.token || !doc.can_undo;
    $("redo").disabled = !CH.token || !doc.can_redo;
    renderActions();
    const box = $("result-box");
    box.hidden = !doc.result;
    if (doc.result) $("result").replaceChildren(CH.breakdownTable(doc.result, game.players));
  }

  // -- legal actions as buttons ------------------------------------------------------
  function label(v, ctx) {
    if (Array.isArray(v)) return v.length ? v.map((x) => label(x, ctx)).join(" + ") : "nothing";
    if (typeof v === "string") return ctx.label(v);
    if (v === null) return "none";
    if (v && typeof v === "object") {  // a draw {kind, source, card}: its words, in order
      return Object.entries(v).map(([k, x]) => (k === "source" ? `from ${label(x, ctx)}` : label(x, ctx))).join(" ");
    }
    return String(v);
  }

  function renderActions() {
    const box = $("actions");
    if (!CH.token) { box.replaceChildren(h("p", {class: "note"}, "Watching (no token): open a seat's or the recorder's link to act.")); return; }
    if (!legal.length) {
      box.replaceChildren(h("p", {class: "note"}, doc.status === "finished" ? "No more moves." : "Nothing for you to do now."));
      return;
    }
    const groups = {};
    for (const a of legal) (groups[a.type] ||= []).push(a);
    box.replaceChildren(...Object.entries(groups).map(([type, acts]) => actionGroup(type, acts)));
  }

  function actionGroup(type, acts) {
    const ctx = {label: (id) => CH.cardName(game.game, cat && cat.cards, id)};
    // chance fields a table recorder enters: picked from the rules' slots, else typed
    const chance = game.mode === "table" ? ((cat && cat.chance_fields && cat.chance_fields[type]) || []) : [];
    const keys = [];
    if (new Set(acts.map((a) => JSON.stringify(a.actor))).size > 1) keys.push("actor");
    for (const a of acts) for (const k of Object.keys(a.data || {})) if (!keys.includes(k)) keys.push(k);
    const get = (a, k) => (k === "actor" ? a.actor : (a.data || {})[k]);
    const enc = (v) => JSON.stringify(v === undefined ? null : v);  // an absent field is "none"
    // the coarsest choice first (a target before the cards that pay for it)
    const spread = (k) => new Set(acts.map((a) => enc(get(a, k)))).size;
    keys.sort((x, y) => (x === "actor" ? -1 : y === "actor" ? 1 : spread(x) - spread(y)));
    const sel = {};
    let picks = {}, typed = {}, pickedFor = null;  // chance outcomes, for the action chosen
    const box = h("div", {class: "action-group", "data-type": type});

    const matching = (upto) => acts.filter((a) => keys.slice(0, upto).every(
      (k) => !(k in sel) || enc(get(a, k)) === sel[k]));

    function draw() {
      const parts = [h("h3", {}, type.replace(/_/g, " "))];
      keys.forEach((k, i) => {
        const options = [...new Set(matching(i).map((a) => enc(get(a, k))))];
        if (sel[k] !== undefined && !options.includes(sel[k])) delete sel[k];
        if (options.length === 1) sel[k] = options[0];
        parts.push(h("div", {class: "note"}, k === "actor" ? "who" : k.replace(/_/g, " ")),
          h("div", {class: "choices", "data-key": k}, options.map((o) => h("button", {
            type: "button", class: sel[k] === o ? "on" : "", "data-value": o,
            onclick: () => { sel[k] = o; draw(); }},  // later choices stay while they still fit
          k === "actor" ? CH.actorName(JSON.parse(o), game.players) : label(JSON.parse(o), ctx)))));
      });
      const left = matching(keys.length);
      const chosen = left.length === 1 && keys.every((k) => k in sel) ? left[0] : null;
      if (chosen && enc(chosen) !== pickedFor) {  // another action: its own outcomes
        pickedFor = enc(chosen); typed = {};
        picks = Object.fromEntries((chosen.slots || []).map((sl) => [slotKey(sl), sl.many ? [] : undefined]));
      }
      const slots = chosen ? (chosen.slots || []) : [];
      // a game that offers no slots (null): its outcomes are typed
      const typedFields = chosen && chosen.slots === null ? chance.filter((f) => !(f in (chosen.data || {}))) : [];
      for (const sl of slots) parts.push(...slotPicker(sl, slots, ctx, draw));
      for (const f of typedFields) parts.push(...typedPicker(f, draw));
      const complete = slots.every((sl) => slotComplete(sl));
      const ready = Boolean(chosen) && complete;
      parts.push(h("button", {type: "button", class: "primary record-action", disabled: !chosen || busy,
        "data-ready": ready ? "yes" : null,
        onclick: () => submit(`/games/${gameId}/events`, {type, actor: chosen.actor, data: withOutcomes(chosen, slots, typedFields)})},
      !chosen ? `Choose ${keys.filter((k) => !(k in sel)).join(", ")}` : `Record ${type.replace(/_/g, " ")}`));
      box.replaceChildren(...parts);
    }

    const slotKey = (sl) => [sl.field, ...sl.path].join(".");
    function slotComplete(sl) {
      const v = picks[slotKey(sl)];
      return sl.many ? (sl.count === null || sl.count === undefined || v.length === sl.count) : v !== undefined;
    }

    // the listed action's data with every outcome written where its slot says
    function withOutcomes(chosen, slots, typedFields) {
      const data = JSON.parse(JSON.stringify(chosen.data || {}));
      for (const sl of slots) {
        const v = picks[slotKey(sl)];
        if (v === undefined) continue;  // left out: the rules say what is missing
        let o = data;
        const path = [sl.field, ...sl.path];
        path.slice(0, -1).forEach((k, i) => {
          if (o[k] === undefined || o[k] === null) o[k] = typeof path[i + 1] === "number" ? [] : {};
          o = o[k];
        });
        o[path[path.length - 1]] = sl.many ? [...v] : v;
      }
      for (const f of typedFields) data[f] = typed[f] || [];
      return data;
    }

    // one outcome at a physical table: tap what turned up, from what is still available
    // (options are a multiset: each copy of a card once; a pick in any slot uses it up)
    function slotPicker(sl, slots, ctx, redraw) {
      const key = slotKey(sl);
      const left = new Map();
      for (const o of sl.options) left.set(enc(o), (left.get(enc(o)) || 0) + 1);
      for (const other of slots) {
        const v = picks[slotKey(other)];
        if (other === sl && !sl.many) continue;  // one value: re-choosable
        for (const x of (other.many ? v : v === undefined ? [] : [v])) {
          if (left.has(enc(x))) left.set(enc(x), left.get(enc(x)) - 1);
        }
      }
      const seatish = /player|first|winner|seat/.test(`${sl.field} ${sl.label}`);
      const show = (x) => (typeof x === "number" && seatish ? CH.actorName(x, game.players)
        : typeof x === "string" ? ctx.label(x) : label(x, ctx));
      const mine = picks[key];
      const done = slotComplete(sl);
      const head = h("div", {class: "note"}, `${sl.label}${sl.count !== null && sl.count !== undefined ? ` (${sl.many ? mine.length : mine === undefined ? 0 : 1} of ${sl.count})` : ""}: `,
        h("b", {"data-picked": key}, sl.many ? (mine.length ? mine.map(show).join(", ") : "none yet") : (mine === undefined ? "not chosen" : show(mine))));
      const full = sl.many && sl.count !== null && sl.count !== undefined && mine.length >= sl.count;
      const buttons = full ? [] : [...left.entries()].filter(([v, n]) => n > 0 || (!sl.many && v === enc(mine))).map(([v, n]) => {
        const x = JSON.parse(v);
        return h("button", {type: "button", "data-card": typeof x === "string" ? x : v,
          class: !sl.many && v === enc(mine) ? "on" : "",
          onclick: () => { if (sl.many) mine.push(x); else picks[key] = x; redraw(); }},
        show(x), n > 1 ? h("span", {class: "count"}, ` ×${n}`) : null);
      });
      const parts = [head, h("div", {class: "choices", "data-pick": key, "data-complete": done ? "yes" : null,
        "data-many": sl.many ? "yes" : null}, buttons.length ? buttons : h("span", {class: "nil"}, full ? "all picked" : "nothing left to pick"))];
      if (sl.many) {
        parts.push(h("div", {class: "bar"},
          h("button", {type: "button", "data-pick-undo": key, disabled: !mine.length, onclick: () => { mine.pop(); redraw(); }}, "remove last"),
          h("button", {type: "button", disabled: !mine.length, onclick: () => { mine.length = 0; redraw(); }}, "clear")));
      }
      return parts;
    }

    // a chance field the rules offer no slots for: typed ids, comma separated
    function typedPicker(field) {
      return [h("div", {class: "note"}, `${field.replace(/_/g, " ")} (ids in the order turned up, comma separated)`),
        h("input", {type: "text", placeholder: "ids, comma separated", "data-pick-text": field,
          value: (typed[field] || []).join(", "),
          onchange: (e) => { typed[field] = e.target.value.split(",").map((x) => x.trim()).filter(Boolean); }})];
    }

    draw();
    return box;
  }

  // -- writing ---------------------------------------------------------------------
  async function submit(path, body) {
    if (busy) return;
    busy = true; clearError(); flash("");
    try {
      const done = await api(path, {method: "POST", body, headers: {"If-Match": etag}});
      known = Math.max(known, (done && done.state && done.state.last_seq) || -1);
      busy = false;
      await refresh();
      flash(body && body.type ? `Recorded: ${body.type.replace(/_/g, " ")}` : "Done.");
    } catch (err) {
      busy = false;
      if (err.status === 409) {
        showError(`Not recorded: someone else recorded a move first (${err.message}). The board now shows the game as it stands; check it and enter your move again if it still applies.`, "conflict");
        await refresh().catch(() => {});
      } else {
        showError(`Refused: ${err.message}`, err.code);  // nothing was stored; the choices stay
        for (const b of document.querySelectorAll(".record-action[data-ready]")) b.disabled = false;
      }
    }
  }

  function bind() {
    $("undo").onclick = () => submit(`/games/${gameId}/undo`, undefined);
    $("redo").onclick = () => submit(`/games/${gameId}/redo`, undefined);
    $("reload").onclick = () => { clearError(); refresh().catch((e) => showError(e.message)); };
    $("replay-link").href = CH.withToken(`/games/${gameId}/replay`);
  }

  async function init() {
    try {
      game = await api(`/games/${gameId}`);
      [cat] = await Promise.all([CH.catalog().then((c) => c[game.game]), CH.loadBoard(game.game)]);
      const seat = CH.params.get("seat");
      $("title").textContent = `${(cat && cat.title) || game.game}: ${game.players.join(", ")}`;
      $("who").textContent = `${game.mode} game · ` + (!CH.token ? "watching"
        : seat !== null ? `playing as ${CH.actorName(Number(seat), game.players)}` : "recorder");
      bind();
      await refresh();
      CH.follow(gameId, doc.last_seq, (msg) => {
        const seq = msg && msg.event ? msg.event.seq : -1;
        if (!$("live").checked || busy || seq <= Math.max(doc.last_seq, known)) return;
        refresh().then(() => flash(`Updated: ${CH.describe(msg.event, msg.annotation, game.players)}`))
          .catch((e) => showError(e.message));
      });
    } catch (err) { showError(err.message); }
  }
  init();
})();
