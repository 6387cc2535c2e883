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
    if (v && typeof v === "object") return JSON.stringify(v);
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
    const chance = game.mode === "table" ? ((cat && cat.chance_fields && cat.chance_fields[type]) || []) : [];
    const keys = [];
    if (new Set(acts.map((a) => JSON.stringify(a.actor))).size > 1) keys.push("actor");
    for (const a of acts) for (const k of Object.keys(a.data || {})) if (!keys.includes(k) && !chance.includes(k)) keys.push(k);
    const get = (a, k) => (k === "actor" ? a.actor : (a.data || {})[k]);
    const enc = (v) => JSON.stringify(v === undefined ? null : v);  // an absent field is "none"
    // the coarsest choice first (a target before the cards that pay for it)
    const spread = (k) => new Set(acts.map((a) => enc(get(a, k)))).size;
    keys.sort((x, y) => (x === "actor" ? -1 : y === "actor" ? 1 : spread(x) - spread(y)));
    const sel = {};
    const picked = Object.fromEntries(chance.map((f) => [f, []]));
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
      for (const f of chance) parts.push(...chancePicker(f, picked, ctx, draw));
      const left = matching(keys.length);
      const ready = left.length === 1 && keys.every((k) => k in sel);
      parts.push(h("button", {type: "button", class: "primary record-action", disabled: !ready || busy,
        "data-ready": ready ? "yes" : null,
        onclick: () => { const data = Object.assign({}, left[0].data, picked);
          submit(`/games/${gameId}/events`, {type, actor: left[0].actor, data}); }},
      ready ? `Record ${type.replace(/_/g, " ")}` : `Choose ${keys.filter((k) => !(k in sel)).join(", ")}`));
      box.replaceChildren(...parts);
    }
    draw();
    return box;
  }

  // chance outcomes at a physical table: pick the cards seen, in order, from those unseen
  function chancePicker(field, picked, ctx, redraw) {
    const pool = Array.isArray(doc.view.unseen) ? doc.view.unseen : null;
    const taken = new Set(Object.values(picked).flat());
    const list = picked[field];
    const head = h("div", {class: "note"}, `${field.replace(/_/g, " ")} (in the order turned up): `,
      h("b", {"data-picked": field}, list.length ? list.map((c) => ctx.label(c)).join(", ") : "none yet"));
    const tools = h("div", {class: "bar"},
      h("button", {type: "button", "data-pick-undo": field, disabled: !list.length, onclick: () => { list.pop(); redraw(); }}, "remove last"),
      h("button", {type: "button", disabled: !list.length, onclick: () => { list.length = 0; redraw(); }}, "clear"));
    if (!pool) {
      return [head, h("input", {type: "text", placeholder: "ids, comma separated", "data-pick-text": field,
        onchange: (e) => { list.length = 0; list.push(...e.target.value.split(",").map((s) => s.trim()).filter(Boolean)); }}), tools];
    }
    return [head, h("div", {class: "choices", "data-pick": field}, pool.filter((c) => !taken.has(c)).map((c) =>
      h("button", {type: "button", "data-card": c, onclick: () => { list.push(c); redraw(); }}, ctx.label(c)))), tools];
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
