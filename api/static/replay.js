// The replay viewer: the state at any step, fetched from the API (snapshot-backed), never
// recomputed here. ?at=N is the permalink; ?token=... shows one seat's view.
"use strict";
(() => {
  const {h, api} = CH;
  const root = document.getElementById("replay");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  const cache = new Map();  // seq -> state document promise
  let game = null, cat = null, events = [], notes = {}, last = 0, at = 0, ticket = 0;
  let timer = null;

  function showError(err) {
    $("error").hidden = false;
    $("error").textContent = err.message || String(err);
  }

  function stateAt(n) {
    if (!cache.has(n)) {
      const p = api(`/games/${gameId}/state?at=${n}`);
      p.catch(() => cache.delete(n));
      cache.set(n, p);
    }
    return cache.get(n);
  }

  async function go(n, opts = {}) {
    n = Math.max(0, Math.min(last, Number.isFinite(n) ? n : last));
    at = n;
    const mine = ++ticket;
    $("slider").value = n;
    markEvent(n);
    updateUrl(n);
    try {
      const [doc, prev] = await Promise.all([stateAt(n), n > 0 ? stateAt(n - 1) : null]);
      if (mine !== ticket) return;  // the user moved on meanwhile
      CH.renderBoard($("board"), doc, prev, cat);
      $("stepinfo").textContent = `step ${n} of ${last}`;
      const env = events[n];
      const toAct = (doc.to_act || []).map((a) => CH.actorName(a, game.players)).join(", ");
      $("current").replaceChildren(
        h("span", {class: "what"}, env ? CH.describe(env, notes[env.seq], game.players) : ""),
        doc.status === "finished" ? h("span", {class: "tag"}, "game over")
          : h("span", {class: "to-act"}, toAct ? ` — to act: ${toAct}` : ""));
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

  function markEvent(n) {
    const list = $("events");
    const old = list.querySelector(".current");
    if (old) old.classList.remove("current");
    const li = list.children[n];
    if (li) {
      li.classList.add("current");
      const box = list.getBoundingClientRect(), r = li.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) li.scrollIntoView({block: "nearest"});
    }
  }

  function eventItem(env) {
    const note = notes[env.seq] || {};
    const cls = ["ev", note.undone ? "undone" : "", env.type === "undo" || env.type === "redo" ? "meta" : ""];
    return h("li", {class: cls.join(" ").trim(), "data-seq": env.seq,
      title: note.undone ? "undone later" : null, onclick: () => { stop(); go(env.seq); }},
      h("span", {class: "seq"}, env.seq), " ",
      h(note.undone ? "s" : "span", {class: "desc"}, CH.describe(env, note, game.players)),
      note.redacted ? h("span", {class: "tag"}, "hidden") : null);
  }

  function renderEvents() {
    $("events").replaceChildren(...events.map(eventItem));
    $("slider").max = last;
  }

  async function audit() {
    const body = $("audit-body");
    try {
      const [report, summary] = await Promise.all([api(`/games/${gameId}/verify`), api(`/games/${gameId}`)]);
      const final = {result: summary.result};
      const parts = [
        h("p", {class: report.ok ? "ok" : "bad", id: "verify"},
          report.ok ? "✔ chain intact, every move legal, scores recomputed"
            : `✘ verification failed at step ${report.first_bad_seq}`),
        h("p", {class: "note"}, `${report.checked ?? "?"} of ${report.events ?? "?"} events re-applied`),
      ];
      if (!report.ok) parts.push(h("ul", {}, report.problems.map((p) => h("li", {}, p.message))));
      if (final.result) {
        parts.push(h("h3", {}, "Final scores"),
          h("p", {class: "note"}, final.result.reason ? `ended: ${final.result.reason.replace(/_/g, " ")}` : ""),
          CH.breakdownTable(final.result, game.players));
      }
      body.replaceChildren(...parts);
    } catch (err) { body.textContent = `audit unavailable: ${err.message}`; }
  }

  // -- controls --------------------------------------------------------------------
  function stop() {
    if (timer) clearInterval(timer);
    timer = null; $("play").textContent = "▶ play";
  }
  function play() {
    if (timer) return stop();
    if (at >= last) go(0);
    $("play").textContent = "⏸ pause";
    timer = setInterval(() => { if (at >= last) stop(); else go(at + 1); }, Number($("speed").value));
  }
  function bind() {
    $("first").onclick = () => { stop(); go(0); };
    $("prev").onclick = () => { stop(); go(at - 1); };
    $("next").onclick = () => { stop(); go(at + 1); };
    $("last").onclick = () => { stop(); go(last); };
    $("play").onclick = play;
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
      document.title = `${(cat && cat.title) || game.game} · replay ${gameId}`;
      $("title").textContent = `${(cat && cat.title) || game.game}: ${game.players.join(", ")}`;
      $("who").textContent = `${game.mode} game · ` + (CH.token ? "seen with a token (that seat's view)"
        : "spectator view") + (game.status === "finished" ? " · finished: everything is public" : "");
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
