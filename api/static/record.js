// Recording at the table (and playing in digital mode): the board, whose turn it is, and
// the legal actions as buttons. Every write carries If-Match with the ETag it was drawn
// from, so a second device that is behind gets a clear conflict instead of a double entry.
// The board and the actions are two panes that each scroll themselves, so on a tablet the
// actions are on screen with the board and no move needs the window scrolled.
"use strict";
(() => {
  const {h, api} = CH;
  const root = document.getElementById("record");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  let game = null, cat = null, doc = null, prevDoc = null, etag = null, legal = [];
  let busy = false, known = -1;  // known: the last seq we wrote or read
  let fit = true;

  function showError(message, code) {
    $("error").hidden = false; $("error").textContent = message;
    $("error").dataset.code = code || "";
  }
  function clearError() { $("error").hidden = true; $("error").textContent = ""; $("error").dataset.code = ""; }
  function flash(message) {
    $("flash").hidden = !message; $("flash").textContent = message || "";
  }
  // the recorder changed something: a refusal of the earlier input no longer applies
  function inputChanged() { if (!$("error").hidden) clearError(); }

  async function refresh() {
    const [{data, etag: tag}, acts] = await Promise.all([
      api(`/games/${gameId}/state`, {withEtag: true}), api(`/games/${gameId}/legal-actions`)]);
    if (doc && data.seq !== doc.seq) prevDoc = doc;
    doc = data; etag = tag || `"${data.last_seq}"`; legal = acts.actions || [];
    const slots = acts.chance_slots || {};
    legal.forEach((a, i) => { a.slots = slots[String(i)] || null; });
    render();
  }

  // one event's sentence, from the log's own annotation (an undo names what it took back)
  async function sentenceOf(seq) {
    const page = await api(`/games/${gameId}/events?after=${seq - 1}&limit=1`);
    const env = page.events[0];
    if (!env) return "";
    const note = page.annotations[String(seq)] || {};
    let past = null;
    if ((env.type === "undo" || env.type === "redo") && Number.isInteger((env.data || {}).target_seq)) {
      const t = await api(`/games/${gameId}/events?after=${env.data.target_seq - 1}&limit=1`);
      past = {notes: t.annotations};
    }
    return CH.describe(env, note, game.players, past);
  }
  async function moveSentence(seq) {  // the move itself, for "Undone: ..." and "Redone: ..."
    const page = await api(`/games/${gameId}/events?after=${seq - 1}&limit=1`);
    const env = page.events[0];
    return env ? CH.describe(env, page.annotations[String(seq)] || {}, game.players) : `the move at step ${seq}`;
  }

  function render() {
    const pane = $("board").parentElement;
    const keep = pane.scrollTop;
    CH.renderBoard($("board"), doc, prevDoc, cat);
    CH.fitBoard($("board"), fit, 0.4);
    pane.scrollTop = keep;
    $("board").dataset.loaded = String(doc.seq);
    root.dataset.seq = String(doc.last_seq);
    const toAct = (doc.to_act || []).map((a) => CH.actorName(a, game.players));
    $("turn").textContent = doc.status === "finished" ? "The game is over."
      : toAct.length ? `To act: ${CH.wordsList(toAct)}` : "";
    $("undo").disabled = !CH.token || !doc.can_undo;
    $("redo").disabled = !CH.token || !doc.can_redo;
    renderActions();
    const box = $("result-box");
    box.hidden = !doc.result;
    if (doc.result) {
      $("result").replaceChildren(h("p", {class: "result-line"}, CH.resultSentence(doc.result, game.players)),
        CH.breakdownTable(doc.result, game.players, game.game));
    }
  }

  // -- legal actions as buttons ------------------------------------------------------
  function label(v, ctx) {
    if (Array.isArray(v)) return v.length ? v.map((x) => label(x, ctx)).join(" + ") : "nothing";
    if (typeof v === "string") return ctx.label(v);
    if (v === null || v === undefined) return "none";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "object") return objectLabel(v, ctx);
    return String(v);
  }

  // an object choice in words: a draw {kind, source, card} reads "Britain (country card)
  // from the display" or "a country card from the deck"; any other key as "key value"
  function objectLabel(v, ctx) {
    const {kind, source, card, ...rest} = v;
    const what = card !== undefined && card !== null
      ? `${label(card, ctx)}${kind ? ` (${CH.words(kind)} card)` : ""}`
      : kind ? `${/^[aeiou]/i.test(CH.words(kind)) ? "an" : "a"} ${CH.words(kind)} card` : "";
    const from = source !== undefined && source !== null ? `from the ${label(source, ctx)}` : "";
    const more = Object.values(rest).map((x) => label(x, ctx));  // {electorate, slot}: "Mainz, castle"
    return [[what, from].filter(Boolean).join(" "), ...more].filter(Boolean).join(", ");
  }

  function renderActions() {
    const box = $("actions");
    if (!CH.token) { box.replaceChildren(h("p", {class: "note"}, "Watching (no token): open a player's or the recorder's link to act.")); return; }
    if (!legal.length) {
      box.replaceChildren(h("p", {class: "note"}, doc.status === "finished" ? "No more moves." : "Nothing for you to do now."));
      return;
    }
    const groups = {};
    for (const a of legal) (groups[a.type] ||= []).push(a);
    box.replaceChildren(...Object.entries(groups).map(([type, acts]) => actionGroup(type, acts)));
  }

  function actionGroup(type, listed) {
    // an action listed twice is one choice (a game may list the same move by two routes)
    const seen = new Set();
    const acts = listed.filter((a) => { const k = JSON.stringify([a.actor, a.data]); return !seen.has(k) && seen.add(k); });
    const ctx = {label: (id) => CH.readable(game.game, cat && cat.cards, id)};
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
    const keyWords = (k) => (k === "actor" ? "who" : CH.words(k));
    // a seat chosen (an actor, a "target_seat", a "player") reads as the player's name
    const seatKey = (k) => k === "actor" || /seat|player|opponent|winner|first/.test(k);
    const showChoice = (k, v) => (seatKey(k) && Number.isInteger(v) && v >= 0 && v < game.players.length
      ? CH.actorName(v, game.players) : k === "actor" ? CH.actorName(v, game.players) : label(v, ctx));
    const sel = {};
    let picks = {}, typed = {}, pickedFor = null, active = null;  // chance outcomes, for the action chosen
    const box = h("div", {class: "action-group", "data-type": type});

    const matching = (upto) => acts.filter((a) => keys.slice(0, upto).every(
      (k) => !(k in sel) || enc(get(a, k)) === sel[k]));

    function draw() {
      const parts = [h("h3", {}, CH.capitalise(CH.words(type)))];
      keys.forEach((k, i) => {
        const options = [...new Set(matching(i).map((a) => enc(get(a, k))))];
        if (sel[k] !== undefined && !options.includes(sel[k])) delete sel[k];
        if (options.length === 1) sel[k] = options[0];
        if (options.length === 1 && acts.length === 1) return;  // nothing to choose: not asked
        parts.push(h("div", {class: "prompt"}, CH.capitalise(keyWords(k))),
          h("div", {class: "choices", "data-key": k}, options.map((o) => h("button", {
            type: "button", class: sel[k] === o ? "on" : "", "data-value": o,
            onclick: () => { sel[k] = o; inputChanged(); draw(); }},  // later choices stay while they still fit
          showChoice(k, JSON.parse(o))))));
      });
      const left = matching(keys.length);
      const chosen = left.length === 1 && keys.every((k) => k in sel) ? left[0] : null;
      if (chosen && enc(chosen) !== pickedFor) {  // another action: its own outcomes
        pickedFor = enc(chosen); typed = {}; active = null;
        picks = Object.fromEntries((chosen.slots || []).map((sl) => [slotKey(sl), sl.many ? [] : undefined]));
      }
      const slots = chosen ? (chosen.slots || []) : [];
      // a game that offers no slots (null): its outcomes are typed
      const typedFields = chosen && chosen.slots === null ? chance.filter((f) => !(f in (chosen.data || {}))) : [];
      if (slots.length) parts.push(...slotsPicker(slots, ctx, draw));
      for (const f of typedFields) parts.push(...typedPicker(f));
      const missingChoices = keys.filter((k) => !(k in sel)).map(keyWords);
      const missingSlots = slots.filter((sl) => !slotComplete(sl)).map((sl) => sl.label || CH.words(sl.field));
      const ready = Boolean(chosen) && !missingSlots.length;
      parts.push(h("button", {type: "button", class: "primary record-action", disabled: !ready || busy,
        "data-ready": ready ? "yes" : null,
        onclick: () => submit(`/games/${gameId}/events`, {type, actor: chosen.actor, data: withOutcomes(chosen, slots, typedFields)})},
      ready ? `Record: ${CH.words(type)}`
        : !chosen ? `Still to choose: ${CH.wordsList(missingChoices.length ? missingChoices : ["one of the moves"])}`
          : `Still to tap: ${CH.wordsList(missingSlots.slice(0, 3))}${missingSlots.length > 3 ? ` and ${missingSlots.length - 3} more` : ""}`));
      box.replaceChildren(...parts);
      // the action as it would be recorded, and whether a list of outcomes is open-ended
      // (how many cards a deal turns up is the rules' to check): for tests and the curious
      box.dataset.action = chosen ? JSON.stringify({type, actor: chosen.actor, data: withOutcomes(chosen, slots, typedFields)}) : "";
      box.dataset.openEnded = slots.some((sl) => sl.many && !hasCount(sl)) ? "yes" : "";
    }

    const slotKey = (sl) => [sl.field, ...sl.path].join(".");
    const hasCount = (sl) => sl.count !== null && sl.count !== undefined;
    function slotComplete(sl) {
      const v = picks[slotKey(sl)];
      return sl.many ? (!hasCount(sl) || v.length === sl.count) : v !== undefined;
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

    // what a slot's value reads as: a seat's player, a component's label
    function shower(sl) {
      const seatish = /player|first|winner|seat|emperor/i.test(`${sl.field} ${sl.label}`);
      return (x) => (typeof x === "number" && seatish ? CH.actorName(x, game.players)
        : typeof x === "string" ? ctx.label(x) : label(x, ctx));
    }

    // the outcomes still possible in `sl`: each distinct value once, with the copies left
    // (options are a multiset; a pick in any slot of the action uses one copy up)
    function left(sl, slots) {
      const out = new Map();
      for (const o of sl.options) out.set(enc(o), (out.get(enc(o)) || 0) + 1);
      for (const other of slots) {
        const v = picks[slotKey(other)];
        if (other === sl && !sl.many) continue;  // one value: re-choosable
        for (const x of (other.many ? v : v === undefined ? [] : [v])) {
          if (out.has(enc(x))) out.set(enc(x), out.get(enc(x)) - 1);
        }
      }
      return out;
    }

    // Every slot as a small button saying what it holds; one slot is open at a time (the
    // one tapped, else the first still empty), with its options to tap. A pick moves on to
    // the next empty slot, so a layout is one tap per space, and a fix two.
    function slotsPicker(slots, ctx, redraw) {
      // a list of unknown length (the rules check it) stays open until another is tapped
      const open = slots.find((sl) => slotKey(sl) === active) || slots.find((sl) => !slotComplete(sl)) ||
        slots.find((sl) => sl.many && !hasCount(sl)) || null;
      const parts = [];
      if (slots.length > 1) {
        parts.push(h("div", {class: "slots"}, slots.map((sl) => {
          const key = slotKey(sl), v = picks[key], show = shower(sl);
          const text = sl.many ? (v.length ? v.map(show).join(", ") : "—") : (v === undefined ? "—" : show(v));
          return h("button", {type: "button", "data-slot": key,
            class: `slot${open === sl ? " active" : ""}${slotComplete(sl) && (!sl.many || v.length) ? " filled" : ""}`,
            onclick: () => { active = key; redraw(); }},
          h("span", {class: "what"}, CH.capitalise(sl.label || CH.words(sl.field))), text);
        })));
      }
      if (open) parts.push(...slotOptions(open, slots, redraw));
      return parts;
    }

    function slotOptions(sl, slots, redraw) {
      const key = slotKey(sl), show = shower(sl), mine = picks[key];
      const done = slotComplete(sl);
      const countText = hasCount(sl) ? ` (${sl.many ? mine.length : mine === undefined ? 0 : 1} of ${sl.count})` : "";
      const head = h("div", {class: "prompt"}, `${CH.capitalise(sl.label || CH.words(sl.field))}${countText}: `,
        h("b", {"data-picked": key}, sl.many ? (mine.length ? mine.map(show).join(", ") : "none yet")
          : (mine === undefined ? "not chosen yet" : show(mine))));
      const full = sl.many && hasCount(sl) && mine.length >= sl.count;
      const next = () => {  // after a pick: the next slot still empty, in order
        const i = slots.indexOf(sl);
        const after = [...slots.slice(i + 1), ...slots.slice(0, i)].find((o) => !slotComplete(o));
        const more = sl.many && !hasCount(sl);  // how many is the rules' to say: keep picking here
        active = more || !slotComplete(sl) ? key : after ? slotKey(after) : null;
      };
      const buttons = full ? [] : [...left(sl, slots).entries()].filter(([v, n]) => n > 0 || (!sl.many && v === enc(mine))).map(([v, n]) => {
        const x = JSON.parse(v);
        return h("button", {type: "button", "data-card": typeof x === "string" ? x : v,
          class: !sl.many && v === enc(mine) ? "on" : "", title: n > 1 ? `${CH.plural(n, "copy", "copies")} left` : null,
          onclick: () => { if (sl.many) mine.push(x); else picks[key] = x; inputChanged(); next(); redraw(); }},
        show(x), n > 1 ? h("span", {class: "count"}, `×${n}`) : null);
      });
      const parts = [head, h("div", {class: "choices", "data-pick": key, "data-complete": done ? "yes" : null,
        "data-many": sl.many ? "yes" : null}, buttons.length ? buttons : h("span", {class: "nil"}, full ? "all picked" : "nothing left to pick"))];
      if (sl.many) {
        parts.push(h("div", {class: "bar"},
          h("button", {type: "button", class: "small", "data-pick-undo": key, disabled: !mine.length,
            onclick: () => { mine.pop(); active = key; inputChanged(); redraw(); }}, "remove the last"),
          h("button", {type: "button", class: "small", disabled: !mine.length,
            onclick: () => { mine.length = 0; active = key; inputChanged(); redraw(); }}, "clear")));
      }
      return parts;
    }

    // a chance field the rules offer no slots for: typed ids, comma separated
    function typedPicker(field) {
      return [h("div", {class: "prompt"}, `${CH.capitalise(CH.words(field))} (in the order turned up, separated by commas)`),
        h("input", {type: "text", placeholder: "separated by commas", "data-pick-text": field,
          value: (typed[field] || []).join(", "),
          onchange: (e) => { typed[field] = e.target.value.split(",").map((x) => x.trim()).filter(Boolean); inputChanged(); }})];
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
      // the words first, then the board, so both show at once
      const said = await whatHappened(done).catch(() => "Recorded.");
      await refresh();
      flash(said);
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

  // "Recorded: Anna drew 2 cards." / "Undone: Anna drew 2 cards." / "Redone: ..."
  async function whatHappened(done) {
    const env = done && done.event;
    if (!env) return "Done.";
    const target = (env.data || {}).target_seq;
    if (env.type === "undo" && Number.isInteger(target)) return `Undone: ${await moveSentence(target)}`;
    if (env.type === "redo" && Number.isInteger(target)) return `Redone: ${await moveSentence(target)}`;
    return `Recorded: ${await sentenceOf(env.seq)}`;
  }

  function bind() {
    $("undo").onclick = () => submit(`/games/${gameId}/undo`, undefined);
    $("redo").onclick = () => submit(`/games/${gameId}/redo`, undefined);
    $("reload").onclick = () => { clearError(); refresh().catch((e) => showError(e.message)); };
    $("replay-link").href = CH.withToken(`/games/${gameId}/replay`);
    $("fit").onclick = () => {
      fit = !fit; $("fit").setAttribute("aria-pressed", String(fit));
      $("fit").textContent = fit ? "fit width" : "full size";
      CH.fitBoard($("board"), fit, 0.4);
    };
    let wide = innerWidth;
    addEventListener("resize", () => { if (innerWidth !== wide) { wide = innerWidth; CH.fitBoard($("board"), fit, 0.4); } });
  }

  async function init() {
    try {
      game = await api(`/games/${gameId}`);
      [cat] = await Promise.all([CH.catalog().then((c) => c[game.game]), CH.loadBoard(game.game)]);
      const seat = CH.params.get("seat");
      const title = (cat && cat.title) || game.game;
      document.title = `${title} · record · chronicle`;
      $("title").textContent = `${title}: ${CH.wordsList(game.players)}`;
      $("who").textContent = `${game.mode === "digital" ? "played on devices" : "recorded at the table"} · ` + (!CH.token ? "watching"
        : seat !== null ? `playing as ${CH.actorName(Number(seat), game.players)}` : "recorder");
      bind();
      await refresh();
      CH.follow(gameId, doc.last_seq, (msg) => {
        const seq = msg && msg.event ? msg.event.seq : -1;
        if (!$("live").checked || busy || seq <= Math.max(doc.last_seq, known)) return;
        // the words first, then the board: both arrive together
        sentenceOf(seq).catch(() => "someone moved").then(async (s) => { await refresh(); flash(`Updated: ${s}`); })
          .catch((e) => showError(e.message));
      });
    } catch (err) { showError(err.message); }
  }
  init();
})();
