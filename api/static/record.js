// Recording at the table (and playing in digital mode): the board, whose turn it is, and
// the legal actions as buttons. Every write carries If-Match with the ETag it was drawn
// from, so a second device that is behind gets a clear conflict instead of a double entry.
// The board and the actions are two panes that each scroll themselves, so on a tablet the
// actions are on screen with the board and no move needs the window scrolled.
// A table game's recorder also works with no connection (README, "Recording offline"):
// the same reads and writes then go to the rules running on the tablet (offline/offline.js)
// and the moves wait there, queued, until the server takes them back. The server stays the
// authority: online, every read and write is its own, as without the offline part.
"use strict";
(() => {
  const {h, api} = CH;
  const root = document.getElementById("record");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  let game = null, cat = null, doc = null, prevDoc = null, etag = null, legal = [];
  let busy = false, known = -1;  // known: the last seq we wrote or read
  let fit = true;
  // where reads and writes go: "server", or "tablet" while the connection is down;
  // switching: the tablet taking over (its rules may still be starting: a tap waits for it)
  let source = "server", switching = null, syncing = false, sendingN = 0, offlineOK = false;
  const off = CH.offline;

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
  // no answer at all (as opposed to the server's refusal): a timeout, a dropped
  // connection, a proxy's 502/503/504 (CH.api); the move is kept, never called refused
  const unreachable = (err) => CH.unreached(err);

  // a game whose actions are declared builds its moves from their choices (choices.js);
  // the others, until they are declared, from the legal actions (transitional)
  const declared = () => Boolean(cat && cat.choices);

  async function read() {
    const none = Promise.resolve({actions: []});
    if (source === "tablet") {
      const [data, acts] = await Promise.all([off.local.state(gameId), declared() ? none : off.local.legal(gameId)]);
      return {data, tag: null, acts};
    }
    const [{data, etag: tag}, acts] = await Promise.all([
      api(`/games/${gameId}/state`, {withEtag: true}), declared() ? none : api(`/games/${gameId}/legal-actions`)]);
    return {data, tag, acts};
  }

  // what may be chosen next, from wherever the game is read now
  function askChoices(query) {
    if (source === "tablet") return off.local.choices(gameId, query);
    const q = new URLSearchParams();
    if (query.type) q.set("type", query.type);
    if (query.actor !== undefined) q.set("actor", String(query.actor));
    // picks travel as ASCII JSON (api/schemas.py: the request line's limit bounds them)
    if (query.picks) q.set("picks", JSON.stringify(query.picks).replace(/[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
    return api(`/games/${gameId}/choices${q.toString() ? `?${q}` : ""}`);
  }

  let moves = null;  // the move builder (choices.js), for a declared game
  function movesBuilder() {
    if (!moves) {
      moves = CH.choices.builder($("actions"), {
        ask: askChoices, players: game.players,
        chance: game.mode === "table" ? (cat && cat.chance_fields) || {} : {},
        submit: (move) => submit("move", move),
        changed: inputChanged,
        failed: choicesFailed,
        idle: () => {
          if (doc.status === "finished") return "No more moves.";
          const waiting = (doc.to_act || []).map((a) => CH.actorName(a, game.players));
          return waiting.length ? `Nothing for you to do now: waiting for ${CH.wordsList(waiting)}.` : "Nothing for you to do now.";
        },
        preview: previewMove,
      });
    }
    return moves;
  }

  // The rules refused a pick, or could not be asked. A pick refused on a device that is
  // behind (another recorded meanwhile, the live updates off) is no mistake of the person:
  // the page reads the game again and says so, as for a move refused with a conflict.
  async function choicesFailed(err) {
    if (!(err instanceof CH.ApiError) && !err.refused) { showError(`The moves could not be read: ${err.message}`); return; }
    const before = doc.last_seq;
    await refresh().catch(() => {});
    if (doc.last_seq !== before) {
      showError("Not recorded: someone else recorded a move first. The board now shows the game as it stands; check it and enter your move again if it still applies.", "conflict");
    } else {
      showError(`Refused: ${err.message}`, err.code);
    }
  }

  // the board shows the move as made so far, where its renderer can (a board registers
  // CH.registerPreview(slug, fn): Palais Royal's setup lays out the garden as tapped)
  function previewMove(data, action) {
    if (!doc) return;
    let view = null;
    try { view = data ? CH.preview(game.game, doc.view, data, action) : null; } catch (e) { view = null; }
    if (!view && !$("board").dataset.preview) return;
    const pane = $("board").parentElement, keep = pane.scrollTop;
    CH.renderBoard($("board"), view ? {...doc, view} : doc, view ? doc : prevDoc, cat);
    CH.fitBoard($("board"), fit, 0.4);
    pane.scrollTop = keep;
    $("board").dataset.preview = view ? "yes" : "";
  }

  async function refresh() {
    const {data, tag, acts} = await read();
    if (doc && data.seq !== doc.seq) prevDoc = doc;
    doc = data; etag = tag || `"${data.last_seq}"`; legal = acts.actions || [];
    const slots = acts.chance_slots || {};
    legal.forEach((a, i) => { a.slots = slots[String(i)] || null; });
    render();
    if (source === "server" && offlineOK) {  // the tablet's copy follows the log
      off.keep(gameId, {...game, last_seq: data.last_seq, status: data.status, shown_title: cat && cat.title})
        .then(renderSync).catch((e) => console.warn("offline copy not updated", e));
    }
  }

  // a page of one event, from wherever the game is read now
  function eventPage(seq) {
    return source === "tablet" ? off.local.events(gameId, seq - 1, 1)
      : api(`/games/${gameId}/events?after=${seq - 1}&limit=1`);
  }

  // one event's sentence, from the log's own annotation (an undo names what it took back)
  async function sentenceOf(seq) {
    const page = await eventPage(seq);
    const env = page.events[0];
    if (!env) return "";
    const note = page.annotations[String(seq)] || {};
    let past = null;
    if ((env.type === "undo" || env.type === "redo") && Number.isInteger((env.data || {}).target_seq)) {
      const t = await eventPage(env.data.target_seq);
      past = {notes: t.annotations};
    }
    return CH.describe(env, note, game.players, past);
  }
  async function moveSentence(seq) {  // the move itself, for "Undone: ..." and "Redone: ..."
    const page = await eventPage(seq);
    const env = page.events[0];
    return env ? CH.describe(env, page.annotations[String(seq)] || {}, game.players) : `the move at step ${seq}`;
  }

  function render() {
    const pane = $("board").parentElement;
    const keep = pane.scrollTop;
    CH.renderBoard($("board"), doc, prevDoc, cat);
    CH.fitBoard($("board"), fit, 0.4);
    pane.scrollTop = keep;
    $("board").dataset.preview = "";
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
    const where = source !== undefined && source !== null ? label(source, ctx) : "";
    const from = where ? `from ${/^the\s/i.test(where) ? where : `the ${where}`}` : "";  // "the deck" is labelled so
    const more = Object.values(rest).map((x) => label(x, ctx));  // {electorate, slot}: "Mainz, castle"
    return [[what, from].filter(Boolean).join(" "), ...more].filter(Boolean).join(", ");
  }

  function renderActions() {
    const box = $("actions");
    if (!CH.token) { box.replaceChildren(h("p", {class: "note"}, "Watching (no token): open a player's or the recorder's link to act.")); return; }
    if (declared()) { movesBuilder().show(doc); return; }
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
        onclick: () => submit("move", {type, actor: chosen.actor, data: withOutcomes(chosen, slots, typedFields)})},
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
      if (!sl.many) return v !== undefined;
      return hasCount(sl) ? v.length === sl.count : v.length >= (sl.at_least || 0);
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
      const countText = hasCount(sl) ? ` (${sl.many ? mine.length : mine === undefined ? 0 : 1} of ${sl.count})`
        : sl.many && sl.at_least ? ` (${mine.length}, at least ${sl.at_least})` : "";
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
  // kind: "move" (body: the action), "undo" or "redo"
  async function submit(kind, body) {
    if (busy) return;
    busy = true; clearError(); flash("");
    const key = kind === "move" ? off.newKey() : null;
    try {
      if (switching) await switching;  // the tablet is taking over: the tap waits for its rules
      const onTablet = source === "tablet";
      const done = onTablet ? await writeOnTablet(kind, body, key) : await api(
        kind === "move" ? `/games/${gameId}/events` : `/games/${gameId}/${kind}`,
        {method: "POST", body, headers: key ? {"If-Match": etag, "Idempotency-Key": key} : {"If-Match": etag}});
      known = Math.max(known, (done && done.state && done.state.last_seq) || -1);
      if (!onTablet && offlineOK) await off.add(gameId, done).catch((e) => console.warn("offline copy not updated", e));
      busy = false;
      // the words and the board are read together and shown at once; a read with no
      // answer hands over to the tablet, which has the move (off.add) and says it
      let [said] = await Promise.all([whatHappened(done).catch(() => null),
        refresh().catch((err) => (unreachable(err) && offlineOK ? goOffline() : Promise.reject(err)))]);
      if (said === null) said = await whatHappened(done).catch(() => "Recorded.");
      flash(onTablet ? `${said} (${waitingWords()})` : said);
      if (onTablet) sendSoon();
    } catch (err) {
      busy = false;
      if (source === "server" && unreachable(err)) {
        await lostConnection(kind, body, key, err);
      } else if (err.status === 409) {
        showError(`Not recorded: someone else recorded a move first (${err.message}). The board now shows the game as it stands; check it and enter your move again if it still applies.`, "conflict");
        await refresh().catch(() => {});
      } else {
        showError(`Refused: ${err.message}`, err.code);  // nothing was stored; the choices stay
        for (const b of document.querySelectorAll(".record-action[data-ready]")) b.disabled = false;
      }
    }
    renderSync();
  }
  // what a move recorded on the tablet waits for, in the words of the status line
  const waitingWords = () => (navigator.onLine && source === "tablet" && syncing
    ? "on this tablet: it is sent after the moves being sent now" : "on this tablet: it waits to be sent");

  async function writeOnTablet(kind, body, key) {
    return kind === "move" ? off.local.record(gameId, body, key) : off.local.meta(gameId, kind);
  }

  // No answer to a write (the connection dropped, the request hung past its deadline, a
  // proxy answered 502): the tablet takes over at once. A move is queued with the key it
  // was sent with, so if the server did store it the retry finds it there and nothing is
  // recorded twice; an undo or a redo is not repeated on its own.
  async function lostConnection(kind, body, key, err) {
    if (offlineOK) await goOffline();
    if (!offlineOK) {
      showError(`Not recorded: ${err.message}. Nothing was stored; tap ${kind === "move" ? "Record" : CH.capitalise(kind)} again when the connection is back.`, "offline");
      for (const b of document.querySelectorAll(".record-action[data-ready]")) b.disabled = false;
      return;
    }
    if (source !== "tablet") {
      showError(`Not recorded: ${err.message}, and this tablet is not ready to record on its own${notReadyWhy()}. Nothing was kept; tap Record again when the connection is back.`, "offline");
      for (const b of document.querySelectorAll(".record-action[data-ready]")) b.disabled = false;
      return;
    }
    if (kind !== "move") {
      showError(`Not done: ${err.message} before the ${kind} was answered. The tablet records on its own now; tap ${CH.capitalise(kind)} again if you still want it.`, "offline");
      return;
    }
    try {
      const done = await writeOnTablet(kind, body, key);
      known = Math.max(known, done.state.last_seq);
      const said = await whatHappened(done).catch(() => "Recorded.");
      await refresh();
      if (done.held) { flash(`${said} (the server had it before the answer was lost)`); return; }
      flash(`${said} (on this tablet: ${err.message}; it waits to be sent)`);
      sendSoon();
    } catch (e) {
      showError(e.refused ? `Refused: ${e.message}` : `Not recorded: ${e.message}`, e.code);
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

  // -- offline: the tablet takes over, and gives back -----------------------------------
  // One switch at a time (a tap, a failed read and the browser's offline event may all
  // ask at once): each waits for the same promise, the rules' start-up included.
  function goOffline() {
    if (!offlineOK || source === "tablet") return Promise.resolve();
    if (!switching) {
      switching = (async () => {
        renderSync();
        try {
          // the rules still starting are waited for; files or a log never stored are not
          const has = await off.readiness(gameId, root.dataset.offline);
          if (!has.game || (!has.files && !has.rules)) {
            await renderSync();
            throw new Error(`it is not ready yet${notReadyWhy()}`);
          }
          await off.open(gameId);
          source = "tablet";
          await refresh();
        } catch (err) {
          showError(`No connection, and this tablet cannot record on its own: ${err.message}`, "offline");
        } finally {
          switching = null; renderSync();
        }
      })();
    }
    return switching;
  }

  // The connection is back (or seems to be): send what waits, in order; the server checks
  // every move again. Moves tapped meanwhile go to the tablet's queue and are sent in the
  // same run. Then the server is the authority again, once it has answered a read.
  async function backOnline() {
    if (!offlineOK || syncing || switching || !navigator.onLine) return;
    const waiting = await off.queued(gameId);
    if (source === "server" && !waiting.length) return;
    if (source === "server") {  // moves left waiting (another tab, a reload): the tablet shows them
      await goOffline();
      if (source !== "tablet") return;
    }
    syncing = true; sendingN = waiting.length; renderSync();
    let out = null;
    try {
      out = waiting.length ? await off.sync(gameId, (n) => { sendingN = n; renderSync(); }) : {sent: 0};
      if (out.elsewhere || out.offline) return;  // another tab sends; or no answer yet: the tablet goes on
      if (out.refused) {
        showError(`The server refused a move this tablet recorded offline (${out.refused.message}). It and the moves after it still wait here; keep them apart as a separate game to go on.`, out.refused.code);
        offerKeepApart();
        return;
      }
      source = "server";
      try {
        await refresh();
      } catch (err) {
        source = "tablet";
        if (unreachable(err)) { await refresh().catch(() => {}); return; }
        throw err;
      }
      if ($("error").dataset.code === "offline") clearError();
      if (out.conflict) flash("Not merged: another device recorded this game meanwhile. See below.");
      else if (out.sent) flash(`Sent ${CH.plural(out.sent, "move")} recorded offline: the log has ${out.sent === 1 ? "it" : "them"}.`);
      await renderConflicts();
    } catch (err) {
      if (!unreachable(err)) showError(`Sending the waiting moves failed: ${err.message}`);
    } finally {
      syncing = false; renderSync();
    }
    // a move tapped on the tablet as the sending ended: it goes out now, not later
    if (source === "server" && (await off.queued(gameId)).length) sendSoon();
  }
  let sendTimer = null;
  function sendSoon() {
    clearTimeout(sendTimer);
    sendTimer = setTimeout(() => { backOnline(); }, 200);
  }

  function offerKeepApart() {
    $("error").append(" ", h("button", {type: "button", class: "small", "data-keep-apart": "yes", onclick: async () => {
      try {
        const waiting = await off.queued(gameId);
        if (waiting.length) await off.keepApart(gameId, waiting);
        clearError(); source = "server"; await refresh(); await renderConflicts();
      } catch (err) { showError(err.message); }
      renderSync();
    }}, "Keep them apart"));
  }

  // -- what the page says about the connection ----------------------------------------------
  function clock(iso) {
    if (!iso) return "never";
    const t = new Date(iso), now = new Date();
    const time = t.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
    return t.toDateString() === now.toDateString() ? `at ${time}` : `on ${t.toLocaleDateString()} at ${time}`;
  }

  // The status line, in the words of the README ("Recording offline"): where the moves go
  // (online, offline on the tablet, sending), how many wait, the last sync, and whether the
  // tablet is ready to go offline, or else what is still missing and what a cut would cost.
  let missing = [];
  async function renderSync() {
    if (!offlineOK) return;
    const box = $("sync");
    const [waiting, kept, has] = await Promise.all([off.queued(gameId), off.kept(gameId),
      off.readiness(gameId, root.dataset.offline)]);
    missing = [
      !has.files && (has.installing ? "storing the files for offline use" : "the files for offline use are not stored yet"),
      has.files && !has.page && "this page is not stored yet",
      !has.game && "this game's log is not stored yet",
      !has.rules && (has.rulesState === "failed" ? `the rules could not start on this tablet (${has.rulesError})`
        : has.rulesState === "starting" ? "the rules are starting on this tablet" : "the rules have not started"),
    ].filter(Boolean);
    const ready = !missing.length;
    const online = navigator.onLine && source === "server";
    const state = syncing && source === "tablet" ? "sending" : switching ? "starting"
      : source === "tablet" ? "offline" : ready ? "ready" : "online";
    $("sync-state").textContent = {
      sending: `Back online: sending ${CH.plural(sendingN || waiting.length, "move")}…`,
      starting: "Offline: starting the rules on this tablet… (a move tapped now waits for them)",
      offline: "Offline: recording on this tablet",
      ready: "Online · ready to go offline", online: "Online"}[state];
    $("sync-ready").textContent = state === "online"
      ? `not ready to go offline yet: ${CH.wordsList(missing)}. If the connection drops now, moves cannot be recorded until it is back`
      : state === "ready" ? "files stored, rules loaded" : "";
    box.hidden = false;
    box.dataset.state = state;
    box.dataset.ready = ready ? "yes" : "no";
    box.dataset.online = online ? "yes" : "no";
    box.dataset.source = source;
    box.dataset.waiting = String(waiting.length);
    box.dataset.syncedAt = (kept && kept.synced_at) || "";
    box.dataset.busy = switching || syncing ? "yes" : "";
    $("sync-waiting").textContent = waiting.length ? `${CH.plural(waiting.length, "move")} waiting to be sent` : "no moves waiting";
    $("sync-last").textContent = `last sync ${clock(kept && kept.synced_at)}`;
  }
  const notReadyWhy = () => (missing.length ? ` (${CH.wordsList(missing)})` : "");

  // a conflict kept apart: where the two records first differ, in words, and the tablet's
  // record as the separate game it was kept as
  async function renderConflicts() {
    const found = await off.conflicts(gameId);
    const box = $("conflicts");
    box.hidden = !found.length;
    box.replaceChildren(...found.map((c) => h("div", {class: "conflict", "data-fork": c.fork.id},
      h("h2", {}, "Not merged: two records of this game"),
      h("p", {}, conflictSentence(c.report)),
      h("p", {}, `This tablet's ${CH.plural(c.waiting, "move")} ${c.at ? `from step ${c.at} on` : "from the start"} ${c.waiting === 1 ? "is" : "are"} kept as a separate game; the log has none of ${c.waiting === 1 ? "it" : "them"}. `,
        h("a", {href: `/games/${c.fork.id}/record?token=${encodeURIComponent(c.fork.token)}`}, "Open the tablet's record"),
        " · ", h("a", {href: `/games/${c.fork.id}/replay?token=${encodeURIComponent(c.fork.token)}`}, "replay it")),
      c.stopped ? h("p", {class: "note"}, `Not copied from “${CH.words(c.stopped.action.type)}” on (${c.stopped.message}); those moves stay saved on this tablet.`) : null,
      h("button", {type: "button", class: "small", onclick: async () => { await off.forget("conflicts", c.id); await renderConflicts(); }},
        "Dismiss (the separate game stays on the server)"))));
  }

  function conflictSentence(report) {
    const a = report.a && report.a.description ? `“${CH.capitalise(report.a.description)}”` : null;
    const b = report.b && report.b.description ? `“${CH.capitalise(report.b.description)}”` : null;
    if (report.agree) return "Another device recorded the same moves as this tablet, in the same order.";
    const agreed = report.index ? `The records agree on the first ${CH.plural(report.index, "move")}; then` : "From the first move on,";
    if (a && b) return `${agreed} the log has ${a} where this tablet has ${b}.`;
    if (a) return `${agreed} the log goes on with ${a}; this tablet has nothing more.`;
    return `${agreed} this tablet goes on with ${b}; the log has nothing more.`;
  }

  function bind() {
    $("undo").onclick = () => submit("undo", undefined);
    $("redo").onclick = () => submit("redo", undefined);
    $("reload").onclick = () => {
      clearError();
      refresh().catch((e) => (unreachable(e) && offlineOK ? goOffline() : showError(unreachable(e) ? `No answer from the server: ${e.message}.` : e.message)));
    };
    $("replay-link").href = CH.withToken(`/games/${gameId}/replay`);
    $("fit").onclick = () => {
      fit = !fit; $("fit").setAttribute("aria-pressed", String(fit));
      $("fit").textContent = fit ? "fit width" : "full size";
      CH.fitBoard($("board"), fit, 0.4);
    };
    let wide = innerWidth;
    addEventListener("resize", () => { if (innerWidth !== wide) { wide = innerWidth; CH.fitBoard($("board"), fit, 0.4); } });
  }

  // Offline recording is for a table game's recorder (who sees everything and deals
  // nothing), on a page the service worker may keep (https, or this machine).
  const tableRecorder = (g) => Boolean(root.dataset.offline) && g.mode === "table" &&
    Boolean(CH.token) && CH.params.get("seat") === null;
  const offlineFor = (g) => tableRecorder(g) && off.supported();

  // a recorder page served where a browser keeps nothing for offline use (plain http on
  // another machine): it says so, and records online as before
  function onlineOnly() {
    $("sync").hidden = false;
    $("sync").dataset.online = navigator.onLine ? "yes" : "no";
    $("sync-state").textContent = "Online only";
    $("sync-waiting").textContent = "recording offline needs the page served over https";
    $("sync-last").textContent = "see the README, “Recording offline”";
  }

  // The rules start as the page opens, in the background; every few seconds the page tries
  // the server again while the tablet records, sends moves left waiting, and stores what a
  // cut connection interrupted (the files, this page, the rules).
  function bindOffline() {
    const version = root.dataset.offline;
    off.register(version).catch((e) => console.warn("no service worker", e));
    // Rules started before the files were stored fetch them over the connection, and a cut
    // then may leave that start hanging: once the files are stored, the rules start again
    // from them (seconds), unless they are ready already.
    let bootWithFiles = null;
    const startRules = async () => {
      bootWithFiles = (await off.readiness(gameId, version)).files;
      off.boot().catch((e) => console.warn("the rules did not start", e));
    };
    const filesStored = async () => {
      const has = await off.readiness(gameId, version);
      if (has.files && bootWithFiles === false && has.rulesState === "starting") {
        bootWithFiles = true;
        off.restartRules().catch(() => {});
      }
      renderSync();
    };
    startRules();
    off.onRules(() => renderSync());
    navigator.serviceWorker.ready.then(filesStored);
    navigator.serviceWorker.addEventListener("controllerchange", () => renderSync());
    // another tab of this game queued or sent a move: this tab folds it in and says so
    off.onChange((msg, mine) => {
      if (msg.game_id !== gameId) return;
      if (!mine && source === "tablet" && !switching) {
        off.local.catchUp(gameId).then((changed) => (changed ? refresh() : null)).catch((e) => console.warn(e));
      }
      renderSync();
    });
    addEventListener("offline", () => { goOffline(); });
    addEventListener("online", () => { backOnline(); });
    // the online event comes before the server answers again (and a hang or a proxy's 502
    // never fires it): try now and then as well
    setInterval(async () => {
      if (!navigator.onLine) return;
      if (source === "tablet" || (await off.queued(gameId)).length) backOnline();
      const has = await off.readiness(gameId, version);
      if (!has.files && !has.installing || !has.page) off.register(version).catch(() => {});
      if (has.rulesState === "failed") startRules();
      await filesStored();
    }, 3000);
    renderSync(); renderConflicts();
  }

  function header(title, seat) {
    document.title = `${title} · record · chronicle`;
    $("title").textContent = `${title}: ${CH.wordsList(game.players)}`;
    $("who").textContent = `${game.mode === "digital" ? "played on devices" : "recorded at the table"} · ` + (!CH.token ? "watching"
      : seat !== null ? `playing as ${CH.actorName(Number(seat), game.players)}` : "recorder");
  }

  // the page opened with no connection: the game as this tablet kept it
  async function openOffline(err) {
    const kept = off.supported() && root.dataset.offline ? await off.kept(gameId).catch(() => null) : null;
    if (!kept) throw err;
    game = kept.game;
    offlineOK = offlineFor(game);
    if (!offlineOK) throw err;
    [cat] = await Promise.all([CH.catalog().then((c) => c[game.game]).catch(() => null), CH.loadBoard(game.game)]);
    header((cat && cat.title) || game.game, null);
    bind(); bindOffline();
    await goOffline();
    if (source !== "tablet") throw err;
  }

  async function init() {
    try {
      try {
        game = await api(`/games/${gameId}`);
      } catch (err) {
        if (unreachable(err)) { await openOffline(err); return; }
        throw err;
      }
      offlineOK = offlineFor(game);
      [cat] = await Promise.all([CH.catalog().then((c) => c[game.game]), CH.loadBoard(game.game)]);
      const seat = CH.params.get("seat");
      header((cat && cat.title) || game.game, seat);
      bind();
      if (!offlineOK && tableRecorder(game)) onlineOnly();
      if (offlineOK) {
        bindOffline();
        // moves recorded offline before a reload: the tablet shows them, then sends them
        if ((await off.queued(gameId)).length) { await goOffline(); backOnline(); }
      }
      if (source === "server") {
        await refresh().catch(async (err) => {
          if (!offlineOK || !unreachable(err)) throw err;
          await goOffline();
          if (source !== "tablet") throw err;
        });
      }
      CH.follow(gameId, doc.last_seq, (msg) => {
        const seq = msg && msg.event ? msg.event.seq : -1;
        if (source !== "server" || !$("live").checked || busy || seq <= Math.max(doc.last_seq, known)) return;
        // the words first, then the board: both arrive together
        sentenceOf(seq).catch(() => "someone moved").then(async (s) => { await refresh(); flash(`Updated: ${s}`); })
          .catch((e) => (unreachable(e) ? goOffline() : showError(e.message)));
      });
    } catch (err) {
      showError(unreachable(err) ? `No answer from the server: ${err.message}. Reload the page when the connection is back.` : err.message);
    }
  }
  init();
})();
