// The archive's statistics as charts: per game, the win rate by seat, the final scores and
// the game lengths, for the games the filters select (the same filters as the index).
// Everything is computed here from GET /games (players, results) and each finished game's
// log (its length in effective moves); the charts are inline SVG drawn by this file.
"use strict";
(() => {
  const {h, api} = CH;
  const form = document.getElementById("filters");
  const $ = (id) => document.getElementById(id);
  // the log's own events: not moves of the game (projections/replay.py, META_TYPES)
  const META = new Set(["game_created", "undo", "redo", "seed_revealed", "note", "claim_result", "correction"]);
  const LENGTH_LIMIT = 300;  // logs read for game lengths, newest first
  let titles = {}, drawn = [], ticket = 0;

  for (const [k, v] of CH.params) if (form.elements[k]) form.elements[k].value = v;

  function query() {
    const q = new URLSearchParams();
    for (const k of ["game", "player", "status"]) {
      const v = form.elements[k].value.trim();
      if (v) q.set(k, v);
    }
    return q;
  }

  async function allGames(q) {
    const out = [];
    let path = `/games?${q}${q.toString() ? "&" : ""}limit=500`;
    while (path) {
      const page = await api(path, {anonymous: true});
      out.push(...page.games);
      path = page.next;
    }
    return out;
  }

  // a finished game's length: the moves still in effect (undone ones and log events not counted)
  async function lengthOf(id) {
    const {events, annotations} = await CH.allEvents(id);
    return events.filter((e) => !META.has(e.type) && !(annotations[e.seq] || {}).undone).length;
  }

  async function lengths(games) {
    const want = games.slice(0, LENGTH_LIMIT), out = new Map();
    let i = 0;
    async function worker() {
      while (i < want.length) {
        const g = want[i++];
        try { out.set(g.id, await lengthOf(g.id)); } catch (e) { /* unreadable log: left out */ }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()]);
    return out;
  }

  // -- numbers ---------------------------------------------------------------------------
  function winRates(finished) {
    const seats = Math.max(0, ...finished.map((g) => g.players.length));
    return Array.from({length: seats}, (_, seat) => {
      const sat = finished.filter((g) => g.players.length > seat);
      const won = sat.filter((g) => (g.result.winners || []).includes(seat)).length;
      return {seat, games: sat.length, won, rate: sat.length ? won / sat.length : 0};
    });
  }

  // equal-width bins of whole numbers over [min, max], at most `most` of them
  function histogram(values, most = 8) {
    if (!values.length) return [];
    const lo = Math.min(...values), hi = Math.max(...values);
    const width = Math.max(1, Math.ceil((hi - lo + 1) / most));
    const bins = [];
    for (let from = lo; from <= hi; from += width) bins.push({from, to: from + width - 1, count: 0});
    for (const v of values) bins[Math.min(bins.length - 1, Math.floor((v - lo) / width))].count += 1;
    return bins;
  }

  function median(xs) {
    if (!xs.length) return null;
    const s = [...xs].sort((a, b) => a - b), m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  // -- SVG ---------------------------------------------------------------------------
  const NS = "http://www.w3.org/2000/svg";
  function s(tag, attrs, ...kids) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return el;
  }

  // vertical bars: [{label, sub, value, text}] against 0..max, drawn at the box's own width
  function barChart(bars, {max, width, title, unit}) {
    const height = 190, top = 22, bottom = 44, left = 8, right = 8;
    const inner = height - top - bottom;
    const slot = (width - left - right) / Math.max(1, bars.length);
    const bw = Math.max(6, Math.min(64, slot * 0.7));
    const top1 = max || Math.max(1, ...bars.map((b) => b.value));
    const label = `${title}: ` + bars.map((b) => `${b.label} ${b.text}`).join("; ");
    return s("svg", {viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label},
      s("line", {class: "axis", x1: left, x2: width - right, y1: top + inner + 0.5, y2: top + inner + 0.5}),
      bars.map((b, i) => {
        const x = left + slot * i + (slot - bw) / 2, bh = Math.round((b.value / top1) * inner);
        const cx = left + slot * i + slot / 2;
        return s("g", {"data-bar": b.label, "data-value": b.value},
          s("title", {}, `${b.label}: ${b.text}${unit ? " " + unit : ""}`),
          s("rect", {class: "col", x, y: top + inner - bh, width: bw, height: Math.max(bh, b.value ? 1 : 0)}),
          s("text", {x: cx, y: top + inner - bh - 5, "text-anchor": "middle"}, b.text),
          s("text", {x: cx, y: top + inner + 16, "text-anchor": "middle"}, b.label),
          b.sub ? s("text", {x: cx, y: top + inner + 32, "text-anchor": "middle", class: "muted"}, b.sub) : null);
      }));
  }

  function chart(title, note, draw) {
    const box = h("div", {class: "chart"}, h("h3", {}, title), note ? h("p", {class: "note"}, note) : null);
    const holder = h("div", {class: "plot"});
    box.append(holder);
    drawn.push(() => {
      const width = Math.max(240, Math.floor(holder.clientWidth || 320));
      holder.replaceChildren(draw(width));
    });
    return box;
  }

  // as many bins as leave each label ("162–192") room to be read
  const bins = (width) => Math.max(3, Math.min(8, Math.floor(width / 62)));
  const range = (b) => (b.from === b.to ? String(b.from) : `${b.from}–${b.to}`);

  // "1st seat" / "第1座"
  const seatWord = (seat) => t("{nth} seat", {nth: CH.LANG === "zh_Hans" ? String(seat + 1) : CH.ordinal(seat + 1)});

  function gameSection(slug, games, lengthById) {
    const finished = games.filter((g) => g.status === "finished" && g.result);
    const title = titles[slug] || slug;
    const parts = [h("h2", {}, title),
      h("p", {class: "note"}, tn("{count} game, {finished} finished", "{count} games, {finished} finished", games.length, {finished: finished.length}))];
    if (!finished.length) {
      parts.push(h("p", {}, t("No finished game yet: the charts need final scores.")));
      return h("section", {class: "game-stats", "data-game": slug}, parts);
    }
    const rates = winRates(finished);
    const scores = finished.flatMap((g) => (g.result.scores || []).filter((x) => typeof x === "number"));
    const lens = finished.map((g) => lengthById.get(g.id)).filter((x) => x !== undefined);
    const charts = [
      chart(t("Win rate by seat"), t("Ties count as a win for every winner; a seat counts only the games with that many players."),
        (w) => barChart(rates.map((r) => ({label: seatWord(r.seat), sub: t("{won} of {games}", {won: r.won, games: r.games}),
          value: r.rate, text: `${Math.round(r.rate * 100)}%`})), {max: 1, width: w, title: t("Win rate by seat")})),
      chart(t("Final scores"), scores.length ? t("Every player's final score: lowest {lowest}, median {median}, highest {highest}.",
        {lowest: Math.min(...scores), median: median(scores), highest: Math.max(...scores)}) : "",
        (w) => barChart(histogram(scores, bins(w)).map((b) => ({label: range(b), value: b.count, text: String(b.count)})),
          {width: w, title: t("Final scores"), unit: t("scores")})),
      chart(t("Game lengths"), lens.length ? t("Moves per finished game (undone moves left out): shortest {shortest}, median {median}, longest {longest}.",
        {shortest: Math.min(...lens), median: median(lens), longest: Math.max(...lens)}) +
        (lens.length < finished.length ? t(" {read} of {count} games read.", {read: lens.length, count: finished.length}) : "") : t("No log could be read."),
      (w) => barChart(histogram(lens, bins(w)).map((b) => ({label: range(b), value: b.count, text: String(b.count)})),
        {width: w, title: t("Game lengths"), unit: t("games")})),
    ];
    parts.push(h("div", {class: "charts"}, charts));
    parts.push(h("table", {class: "breakdown win-rates"}, h("tr", {}, h("th", {}, t("seat")), h("th", {}, t("won")), h("th", {}, t("win rate"))),
      rates.map((r) => h("tr", {"data-seat": r.seat}, h("th", {}, seatWord(r.seat)),
        h("td", {}, t("{won} of {games}", {won: r.won, games: r.games})), h("td", {"data-rate": r.rate.toFixed(3)}, `${Math.round(r.rate * 100)}%`)))));
    return h("section", {class: "game-stats", "data-game": slug}, parts);
  }

  async function load() {
    const mine = ++ticket;
    $("error").hidden = true;
    $("summary").textContent = t("reading the archive…");
    try {
      const q = query();
      const games = await allGames(q);
      if (mine !== ticket) return;
      const finished = games.filter((g) => g.status === "finished" && g.result);
      $("summary").textContent = tn("{count} game, {finished} finished; reading the logs for their lengths…",
        "{count} games, {finished} finished; reading the logs for their lengths…", games.length, {finished: finished.length});
      const lengthById = await lengths(finished);
      if (mine !== ticket) return;
      const bySlug = new Map();
      for (const g of games) { if (!bySlug.has(g.game)) bySlug.set(g.game, []); bySlug.get(g.game).push(g); }
      const slugs = [...bySlug.keys()].sort((a, b) => (titles[a] || a).localeCompare(titles[b] || b));
      drawn = [];
      $("charts").replaceChildren(...slugs.map((slug) => gameSection(slug, bySlug.get(slug), lengthById)));
      for (const d of drawn) d();
      $("summary").textContent = games.length
        ? tn("{count} game, {finished} finished.", "{count} games, {finished} finished.", games.length, {finished: finished.length}) +
          (finished.length > LENGTH_LIMIT ? t(" Lengths from the newest {limit}.", {limit: LENGTH_LIMIT}) : "")
        : t("No game matches these filters.");
      $("charts").dataset.ready = "yes";
    } catch (err) {
      $("error").hidden = false; $("error").textContent = err.message;
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = query();
    history.replaceState(null, "", q.toString() ? `/statistics?${q}` : "/statistics");
    delete $("charts").dataset.ready;
    load();
  });
  for (const el of form.querySelectorAll("select")) el.addEventListener("change", () => form.requestSubmit());
  let wide = innerWidth;
  addEventListener("resize", () => { if (innerWidth !== wide) { wide = innerWidth; for (const d of drawn) d(); } });
  CH.catalog().then((c) => { titles = Object.fromEntries(Object.values(c).map((g) => [g.slug, g.title])); })
    .catch(() => {}).finally(load);
})();
