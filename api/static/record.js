// Recording at the table (and playing in digital mode): the board, whose turn it is, and
// the moves, built choice by choice (choices.js). Every write carries If-Match with the ETag it was drawn
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
  let game = null, cat = null, doc = null, prevDoc = null, etag = null;
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

  async function read() {
    if (source === "tablet") return {data: await off.local.state(gameId), tag: null};
    const {data, etag: tag} = await api(`/games/${gameId}/state`, {withEtag: true});
    return {data, tag};
  }

  // What may be chosen next, from wherever the game is read now. The builder asks at every
  // pick; over a link that does not answer, each pick would wait out the deadline. So after
  // one question the server left unanswered, the rest of this move is asked of the
  // tablet's own rules (the same rules, on the copy of the log kept here); Record then
  // goes to the server as usual, and the next move asks the server again.
  let askTabletAt = null;  // the log's last seq while this move's questions go to the tablet
  async function askChoices(query) {
    if (source === "tablet") return off.local.choices(gameId, query);
    if (offlineOK && doc && askTabletAt === doc.last_seq) return askTablet(query, null);
    const q = new URLSearchParams();
    if (query.type) q.set("type", query.type);
    if (query.actor !== undefined) q.set("actor", String(query.actor));
    // picks travel as ASCII JSON (api/schemas.py: the request line's limit bounds them)
    if (query.picks) q.set("picks", JSON.stringify(query.picks).replace(/[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
    try {
      return await api(`/games/${gameId}/choices${q.toString() ? `?${q}` : ""}`);
    } catch (err) {
      if (!offlineOK || !doc || !unreachable(err)) throw err;
      askTabletAt = doc.last_seq;
      return askTablet(query, err);
    }
  }
  async function askTablet(query, unanswered) {
    try {
      await off.local.catchUp(gameId);  // the tablet's rules hold the game as kept here
      return await off.local.choices(gameId, query);
    } catch (err) {
      askTabletAt = null;
      throw unanswered || err;  // the tablet cannot answer: the server's silence stands
    }
  }

  let moves = null;  // the move builder (choices.js), for a declared game
  function movesBuilder() {
    if (!moves) {
      moves = CH.choices.builder($("actions"), {
        ask: askChoices, players: game.players,
        chance: game.mode === "table" ? (cat && cat.chance_fields) || {} : {},
        deal: game.mode === "table" ? (cat && cat.dealable) || [] : [],
        submit: (move) => submit("move", move),
        changed: inputChanged,
        failed: choicesFailed,
        idle: () => {
          if (doc.status === "finished") return t("No more moves.");
          const waiting = (doc.to_act || []).map((a) => CH.actorName(a, game.players));
          return waiting.length ? t("Nothing for you to do now: waiting for {players}.", {players: CH.wordsList(waiting)})
            : t("Nothing for you to do now.");
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
    if (!(err instanceof CH.ApiError) && !err.refused) { showError(t("The moves could not be read: {reason}", {reason: err.message})); return; }
    const before = doc.last_seq;
    await refresh().catch(() => {});
    if (doc.last_seq !== before) {
      showError(t("Not recorded: someone else recorded a move first. The board now shows the game as it stands; check it and enter your move again if it still applies."), "conflict");
    } else {
      showError(t("Refused: {reason}", {reason: err.message}), err.code);
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
    const {data, tag} = await read();
    if (doc && data.seq !== doc.seq) prevDoc = doc;
    doc = data; etag = tag || `"${data.last_seq}"`;
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
      const page0 = await eventPage(env.data.target_seq);
      past = {notes: page0.annotations};
    }
    return CH.describe(env, note, game.players, past);
  }
  async function moveSentence(seq) {  // the move itself, for "Undone: ..." and "Redone: ..."
    const page = await eventPage(seq);
    const env = page.events[0];
    return env ? CH.describe(env, page.annotations[String(seq)] || {}, game.players) : t("the move at step {seq}", {seq});
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
    $("turn").textContent = doc.status === "finished" ? t("The game is over.")
      : toAct.length ? t("To act: {players}", {players: CH.wordsList(toAct)}) : "";
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

  // -- the moves: built choice by choice (choices.js), every game declares its choices --
  function renderActions() {
    const box = $("actions");
    if (!CH.token) { box.replaceChildren(h("p", {class: "note"}, "Watching (no token): open a player's or the recorder's link to act.")); return; }
    movesBuilder().show(doc);
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
        showError(t("Not recorded: someone else recorded a move first ({reason}). The board now shows the game as it stands; check it and enter your move again if it still applies.", {reason: err.message}), "conflict");
        await refresh().catch(() => {});
      } else {
        showError(t("Refused: {reason}", {reason: err.message}), err.code);  // nothing was stored; the choices stay
        for (const b of document.querySelectorAll(".record-action[data-ready]")) b.disabled = false;
      }
    }
    renderSync();
  }
  // what a move recorded on the tablet waits for, in the words of the status line
  const waitingWords = () => (navigator.onLine && source === "tablet" && syncing
    ? t("on this tablet: it is sent after the moves being sent now") : t("on this tablet: it waits to be sent"));

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
      if (done.held) { flash(t("{said} (the server had it before the answer was lost)", {said})); return; }
      flash(t("{said} (on this tablet: {reason}; it waits to be sent)", {said, reason: err.message}));
      sendSoon();
    } catch (e) {
      showError(e.refused ? t("Refused: {reason}", {reason: e.message}) : t("Not recorded: {reason}", {reason: e.message}), e.code);
    }
  }

  // "Recorded: Anna drew 2 cards." / "Undone: Anna drew 2 cards." / "Redone: ..."
  async function whatHappened(done) {
    const env = done && done.event;
    if (!env) return "Done.";
    const target = (env.data || {}).target_seq;
    if (env.type === "undo" && Number.isInteger(target)) return t("Undone: {move}", {move: await moveSentence(target)});
    if (env.type === "redo" && Number.isInteger(target)) return t("Redone: {move}", {move: await moveSentence(target)});
    return t("Recorded: {move}", {move: await sentenceOf(env.seq)});
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
          showError(t("No connection, and this tablet cannot record on its own: {reason}", {reason: err.message}), "offline");
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
      if (out.conflict) flash(t("Not merged: another device recorded this game meanwhile. See below."));
      else if (out.sent) flash(tn("Sent {count} move recorded offline: the log has it.", "Sent {count} moves recorded offline: the log has them.", out.sent));
      await renderConflicts();
    } catch (err) {
      if (!unreachable(err)) showError(t("Sending the waiting moves failed: {reason}", {reason: err.message}));
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
    }}, t("Keep them apart")));
  }

  // -- what the page says about the connection ----------------------------------------------
  function clock(iso) {
    if (!iso) return t("never");
    const when = new Date(iso), now = new Date();
    const locale = CH.LANG === "zh_Hans" ? "zh-Hans" : [];
    const time = when.toLocaleTimeString(locale, {hour: "2-digit", minute: "2-digit", second: "2-digit"});
    return when.toDateString() === now.toDateString() ? t("at {time}", {time})
      : t("on {date} at {time}", {date: when.toLocaleDateString(locale), time});
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
      !has.files && (has.installing ? t("storing the files for offline use") : t("the files for offline use are not stored yet")),
      has.files && !has.page && t("this page is not stored yet"),
      !has.game && t("this game's log is not stored yet"),
      !has.rules && (has.rulesState === "failed" ? t("the rules could not start on this tablet ({reason})", {reason: has.rulesError})
        : has.rulesState === "starting" ? t("the rules are starting on this tablet") : t("the rules have not started")),
    ].filter(Boolean);
    const ready = !missing.length;
    const online = navigator.onLine && source === "server";
    const state = syncing && source === "tablet" ? "sending" : switching ? "starting"
      : source === "tablet" ? "offline" : ready ? "ready" : "online";
    $("sync-state").textContent = {
      sending: tn("Back online: sending {count} move…", "Back online: sending {count} moves…", sendingN || waiting.length),
      starting: t("Offline: starting the rules on this tablet… (a move tapped now waits for them)"),
      offline: t("Offline: recording on this tablet"),
      ready: t("Online · ready to go offline"), online: t("Online")}[state];
    $("sync-ready").textContent = state === "online"
      ? t("not ready to go offline yet: {missing}. If the connection drops now, moves cannot be recorded until it is back",
        {missing: CH.wordsList(missing)})
      : state === "ready" ? t("files stored, rules loaded") : "";
    box.hidden = false;
    box.dataset.state = state;
    box.dataset.ready = ready ? "yes" : "no";
    box.dataset.online = online ? "yes" : "no";
    box.dataset.source = source;
    box.dataset.waiting = String(waiting.length);
    box.dataset.syncedAt = (kept && kept.synced_at) || "";
    box.dataset.busy = switching || syncing ? "yes" : "";
    $("sync-waiting").textContent = waiting.length ? tn("{count} move waiting to be sent", "{count} moves waiting to be sent", waiting.length)
      : t("no moves waiting");
    $("sync-last").textContent = t("last sync {when}", {when: clock(kept && kept.synced_at)});
  }
  const notReadyWhy = () => (missing.length ? ` (${CH.wordsList(missing)})` : "");

  // a conflict kept apart: where the two records first differ, in words, and the tablet's
  // record as the separate game it was kept as
  async function renderConflicts() {
    const found = await off.conflicts(gameId);
    const box = $("conflicts");
    box.hidden = !found.length;
    box.replaceChildren(...found.map((c) => h("div", {class: "conflict", "data-fork": c.fork.id},
      h("h2", {}, t("Not merged: two records of this game")),
      h("p", {}, conflictSentence(c.report)),
      h("p", {}, `This tablet's ${CH.plural(c.waiting, "move")} ${c.at ? `from step ${c.at} on` : "from the start"} ${c.waiting === 1 ? "is" : "are"} kept as a separate game; the log has none of ${c.waiting === 1 ? "it" : "them"}. `,
        h("a", {href: `/games/${c.fork.id}/record?token=${encodeURIComponent(c.fork.token)}`}, t("Open the tablet's record")),
        " · ", h("a", {href: `/games/${c.fork.id}/replay?token=${encodeURIComponent(c.fork.token)}`}, t("replay it"))),
      c.stopped ? h("p", {class: "note"}, `Not copied from “${CH.words(c.stopped.action.type)}” on (${c.stopped.message}); those moves stay saved on this tablet.`) : null,
      h("button", {type: "button", class: "small", onclick: async () => { await off.forget("conflicts", c.id); await renderConflicts(); }},
        "Dismiss (the separate game stays on the server)"))));
  }

  function conflictSentence(report) {
    const a = report.a && report.a.description ? `“${CH.capitalise(report.a.description)}”` : null;
    const b = report.b && report.b.description ? `“${CH.capitalise(report.b.description)}”` : null;
    if (report.agree) return t("Another device recorded the same moves as this tablet, in the same order.");
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
      refresh().catch((e) => (unreachable(e) && offlineOK ? goOffline() : showError(unreachable(e) ? t("No answer from the server: {reason}.", {reason: e.message}) : e.message)));
    };
    $("replay-link").href = CH.withToken(`/games/${gameId}/replay`);
    $("fit").onclick = () => {
      fit = !fit; $("fit").setAttribute("aria-pressed", String(fit));
      $("fit").textContent = fit ? t("fit width") : t("full size");
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
    $("sync-state").textContent = t("Online only");
    $("sync-waiting").textContent = t("recording offline needs the page served over https");
    $("sync-last").textContent = t("see the README, “Recording offline”");
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
    const how = game.mode === "digital" ? t("played on devices") : t("recorded at the table");
    $("who").textContent = `${how} · ` + (!CH.token ? t("watching")
      : seat !== null ? t("playing as {player}", {player: CH.actorName(Number(seat), game.players)}) : t("recorder"));
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
        sentenceOf(seq).catch(() => t("someone moved")).then(async (s) => { await refresh(); flash(t("Updated: {move}", {move: s})); })
          .catch((e) => (unreachable(e) ? goOffline() : showError(e.message)));
      });
    } catch (err) {
      showError(unreachable(err) ? t("No answer from the server: {reason}. Reload the page when the connection is back.", {reason: err.message}) : err.message);
    }
  }
  init();
})();
