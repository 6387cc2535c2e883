// The replay viewer: the state at any step, fetched from the API (snapshot-backed), never
// recomputed here. ?at=N is the permalink; ?token=... shows one seat's view.
// Stepping never moves the window: the board stays where the reader put it and the event
// list scrolls itself. The final scores wait for the last step unless the reader asks.
"use strict";
(() => {
  const {h, api} = CH;
  const root = document.getElementById("replay");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  const cache = new Map();  // seq -> state document promise
  let game = null, cat = null, events = [], notes = {}, last = 0, at = 0, ticket = 0;
  let timer = null, finalShown = false;

  function showError(err) {
    $("error").hidden = false;
    $("error").textContent = err.status === 404 ? t("This game is not in the archive (any more).")
      : err.message || String(err);
  }

  function stateAt(n) {
    if (!cache.has(n)) {
      const p = api(`/games/${gameId}/state?at=${n}`);
      p.catch(() => cache.delete(n));
      cache.set(n, p);
    }
    return cache.get(n);
  }

  const past = () => ({events, notes});  // for an undo to name what it took back

  async function go(n, opts = {}) {
    n = Math.max(0, Math.min(last, Number.isFinite(n) ? n : last));
    at = n;
    const mine = ++ticket;
    $("slider").value = n;
    markEvent(n);
    updateUrl(n);
    showFinal();
    try {
      const [doc, prev] = await Promise.all([stateAt(n), n > 0 ? stateAt(n - 1) : null]);
      if (mine !== ticket) return;  // the user moved on meanwhile
      CH.renderBoard($("board"), doc, prev, cat);
      CH.fitBoard($("board"));
      $("stepinfo").textContent = t("step {seq} of {last}", {seq: n, last});
      const env = events[n];
      const toAct = (doc.to_act || []).map((a) => CH.actorName(a, game.players));
      $("current").replaceChildren(
        h("span", {class: "what"}, env ? CH.describe(env, notes[env.seq], game.players, past()) : ""),
        doc.status === "finished" ? h("span", {class: "tag"}, t("game over"))
          : h("span", {class: "to-act"}, toAct.length ? t(" · next: {players}", {players: CH.wordsList(toAct)}) : ""));
      $("board").dataset.loaded = String(n);
      if (!opts.quiet) $("board").dispatchEvent(new CustomEvent("stepped", {detail: n}));
    } catch (err) { if (mine === ticket) showError(err); }
  }

  function updateUrl(n) {
    const params = new URLSearchParams(location.search);
    params.set("at", n);
    const url = `${location.pathname}?${params}`;
    history.replaceState(null, "", url);
    // the shared permalink never carries a token
    const pub = new URLSearchParams(params); pub.delete("token");
    $("permalink").href = `${location.pathname}?${pub}`;
  }

  // the list scrolls itself to the current step; the window never moves
  function markEvent(n) {
    const list = $("events");
    const old = list.querySelector(".current");
    if (old) old.classList.remove("current");
    for (const li of list.children) li.classList.toggle("later", Number(li.dataset.seq) > n);
    const li = list.children[n];
    if (!li) return;
    li.classList.add("current");
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function eventItem(env) {
    const note = notes[env.seq] || {};
    const meta = !note.description || env.type === "correction";
    const cls = ["ev", note.undone ? "undone" : "", meta ? "meta" : ""];
    return h("li", {class: cls.join(" ").trim(), "data-seq": env.seq,
      title: note.undone ? t("undone later") : null, onclick: () => { stop(); go(env.seq); }},
      h("span", {class: "seq"}, env.seq), " ",
      h(note.undone ? "s" : "span", {class: "desc"}, CH.describe(env, note, game.players, past())),
      note.undone ? h("span", {class: "tag"}, t("undone")) : null,
      note.redacted ? h("span", {class: "tag"}, t("hidden")) : null,
      // an exploration: the first move that is its own, not a copy of the origin's
      game.origin && env.seq === (game.origin.copied ?? 0) + 1
        ? h("span", {class: "tag departs"}, t("departs here")) : null);
  }

  function renderEvents() {
    $("events").replaceChildren(...events.map(eventItem));
    $("slider").max = last;
    reserveSentence();
  }

  // The step's sentence is shown whole at every width; so that stepping never moves the
  // board, its box is as tall as the tallest sentence of this game at this width (each
  // sentence with the longest "next: ..." it could carry), measured in a hidden twin.
  function reserveSentence() {
    const box = $("current");
    const twin = box.cloneNode(false);
    twin.removeAttribute("id");
    twin.setAttribute("aria-hidden", "true");
    Object.assign(twin.style, {position: "absolute", visibility: "hidden", left: "0", top: "0",
      width: `${box.clientWidth}px`, minHeight: "0"});
    box.parentElement.append(twin);
    const tail = ` · next: ${CH.wordsList(game.players)}`;
    let tallest = 0;
    for (const env of events) {
      twin.replaceChildren(h("span", {class: "what"}, CH.describe(env, notes[env.seq], game.players, past())),
        h("span", {class: "to-act"}, tail), h("span", {class: "tag"}, "game over"));
      tallest = Math.max(tallest, twin.getBoundingClientRect().height);
    }
    twin.remove();
    if (tallest) box.style.setProperty("--sentence-height", `${Math.ceil(tallest)}px`);
  }

  // -- the final scores: a spoiler until the last step, unless the reader asks ---------
  let summary = null;
  function showFinal() {
    const result = summary && summary.result;
    $("final").hidden = !result;
    if (!result) return;
    const open = finalShown || at === last;
    $("final-hidden").hidden = open;
    $("final-body").hidden = !open;
    if (open && !$("final-body").childElementCount) {
      $("final-body").replaceChildren(
        h("p", {class: "result-line"}, CH.resultSentence(result, game.players)),
        CH.breakdownTable(result, game.players, game.game));
    }
  }

  async function audit() {
    const body = $("audit-body");
    try {
      const [report, info] = await Promise.all([api(`/games/${gameId}/verify`), api(`/games/${gameId}`)]);
      summary = info;
      $("final-body").replaceChildren();
      showFinal();
      const parts = [
        h("p", {class: report.ok ? "ok" : "bad", id: "verify"},
          report.ok ? t("✔ chain intact, every move legal, scores recomputed")
            : t("✘ verification failed at step {seq}", {seq: report.first_bad_seq})),
        h("p", {class: "note"}, tn("{checked} of {count} event re-applied", "{checked} of {count} events re-applied",
          report.events ?? 0, {checked: report.checked ?? "?"})),
      ];
      if (!report.ok) parts.push(h("ul", {}, report.problems.map((p) => h("li", {}, p.message))));
      // issue #30: every change recorded outside card text, each a link to its step
      const rulings = report.rulings || [];
      if (rulings.length) {
        parts.push(h("p", {id: "rulings"}, tn("{count} change was recorded outside card text, as a ruling:",
          "{count} changes were recorded outside card text, as rulings:", rulings.length)),
        h("ul", {class: "rulings"}, rulings.map((r) => h("li", {}, h("a", {href: `?at=${r.seq}`,
          onclick: (e) => { e.preventDefault(); stop(); go(r.seq); }},
          r.message || t("step {seq}: a ruling; its reason is shown once the game is over", {seq: r.seq}))))));
      }
      body.replaceChildren(...parts);
    } catch (err) { body.textContent = t("The audit is unavailable: {reason}", {reason: err.message}); }
  }

  // -- controls --------------------------------------------------------------------
  function stop() {
    if (timer) clearInterval(timer);
    timer = null; $("play").textContent = "▶ " + t("play");
  }
  function play() {
    if (timer) return stop();
    if (at >= last) go(0);
    $("play").textContent = "⏸ " + t("pause");
    timer = setInterval(() => { if (at >= last) stop(); else go(at + 1); }, Number($("speed").value));
  }
  function bind() {
    $("first").onclick = () => { stop(); go(0); };
    $("prev").onclick = () => { stop(); go(at - 1); };
    $("next").onclick = () => { stop(); go(at + 1); };
    $("last").onclick = () => { stop(); go(last); };
    $("play").onclick = play;
    $("show-final").onclick = () => { finalShown = true; showFinal(); };
    $("explore").onclick = explore;
    $("speed").onchange = () => { if (timer) { stop(); play(); } };
    $("slider").addEventListener("input", () => { stop(); go(Number($("slider").value)); });
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input:not([type=range]), select, textarea")) return;
      const keys = {ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1),
        Home: () => go(0), End: () => go(last), " ": play};
      const fn = keys[e.key];
      if (!fn) return;
      e.preventDefault();
      if (e.key !== " ") stop();
      fn();
    });
    let wide = innerWidth;
    addEventListener("resize", () => {
      if (innerWidth !== wide) { wide = innerWidth; reserveSentence(); CH.fitBoard($("board")); }
    });
  }

  // -- "what if?": a fork at the step shown ------------------------------------------
  async function explore() {
    $("error").hidden = true;
    try {
      const made = await api(`/games/${gameId}/fork`, {method: "POST", body: {at}});
      location.href = `/games/${made.id}/record?token=${encodeURIComponent(made.recorder_token)}`;
    } catch (err) {
      $("error").hidden = false;
      $("error").textContent = err.status === 403
        ? t("Only what you may see can be explored: a finished game, or a game recorded at the table opened with its recorder's link.")
        : err.message || String(err);
    }
  }

  function showOrigin() {
    const origin = game.origin;
    if (!origin) return;
    const link = h("a", {href: `/games/${origin.game_id}/replay?at=${origin.seq}`},
      t("step {seq} of the game it explores", {seq: origin.seq}));
    $("origin").replaceChildren(t("An exploration: it starts as "), link,
      tn(" (its first {count} move is copied from there; what follows is new).",
        " (its first {count} moves are copied from there; what follows is new).", origin.copied ?? 0));
    $("origin").hidden = false;
  }

  // -- live follow -------------------------------------------------------------------
  let fetching = false, again = false;
  async function news() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const follow = $("follow").checked && at === last;
      let fresh = await CH.allEvents(gameId, last);
      if (fresh.events.some((e) => e.type === "undo" || e.type === "redo")) {
        fresh = await CH.allEvents(gameId, -1);  // "undone" marks changed: take them all
        events = fresh.events; notes = fresh.annotations;
      } else {
        events = events.concat(fresh.events); Object.assign(notes, fresh.annotations);
      }
      const grown = events.length - 1 !== last;
      last = events.length - 1;
      if (grown) { renderEvents(); audit(); go(follow ? last : at, {quiet: !follow}); }
    } catch (err) { showError(err); } finally {
      fetching = false;
      if (again) { again = false; news(); }
    }
  }

  async function init() {
    try {
      game = await api(`/games/${gameId}`);
      [cat] = await Promise.all([CH.catalog().then((c) => c[game.game]), CH.loadBoard(game.game)]);
      const title = (cat && cat.title) || game.game;
      document.title = `${title} · ${t("replay")} · chronicle`;
      $("title").textContent = `${title}: ${CH.wordsList(game.players)}`;
      const how = game.mode === "digital" ? t("Played on devices") : t("Recorded at the table");
      $("who").textContent = `${how} · ` +
        (CH.token ? t("seen with a token (that player's view)") : t("spectator view")) +
        (game.status === "finished" ? t(" · finished: everything is public") : "");
      showOrigin();
      // a digital game in progress hides its deals from everyone: a fork of it can only be
      // refused (events/forking.py), so it is not offered until the game is over
      $("explore").hidden = game.mode === "digital" && game.status !== "finished";
      const log = await CH.allEvents(gameId);
      events = log.events; notes = log.annotations; last = events.length - 1;
      renderEvents(); bind();
      const wanted = CH.params.get("at");
      await go(wanted === null ? last : parseInt(wanted, 10));
      audit();
      CH.follow(gameId, last, () => news());
    } catch (err) { showError(err); }
  }
  init();
})();
