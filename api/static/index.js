// The games index: every game, filtered by game, player and status (GET /games), a page at
// a time ("show more games" appends the next page).
"use strict";
(() => {
  const {h, api} = CH;
  const form = document.getElementById("filters");
  const body = document.querySelector("#games tbody");
  const more = document.getElementById("more");
  let next = null, shown = 0, titles = {}, loading = 0;

  for (const [k, v] of CH.params) if (form.elements[k]) form.elements[k].value = v;

  // the scores are a spoiler for whoever has yet to replay a game: shown only on request
  const showScores = form.elements.scores;
  showScores.checked = CH.params.get("scores") === "1";
  const scoresShown = () => showScores.checked;
  function markScores() { document.getElementById("games").classList.toggle("no-scores", !scoresShown()); }
  markScores();

  function scores(g) {
    if (!scoresShown()) return "";
    const res = g.result || null;
    if (!res || !res.scores) return "";
    return res.scores.map((s, i) =>
      `${CH.actorName(i, g.players)} ${s}${(res.winners || []).includes(i) ? " ★" : ""}`).join(", ");
  }

  function row(g) {
    const cell = (labelText, ...kids) => h("td", {"data-label": labelText}, ...kids);
    return h("tr", {"data-game-id": g.id, "data-game": g.game},
      cell(t("game"), titles[g.game] || g.game), cell(t("players"), CH.wordsList(g.players)),
      cell(t("mode"), g.mode === "digital" ? t("played on devices") : t("at the table")),
      h("td", {class: "status-" + g.status, "data-label": t("status")}, g.status === "finished" ? t("finished") : t("in progress")),
      h("td", {class: "scores", "data-label": t("scores")}, scores(g)), cell(t("created"), (g.created_at || "").slice(0, 16).replace("T", " ")),
      h("td", {}, h("a", {href: `/games/${encodeURIComponent(g.id)}/replay?at=0`, class: "replay-link"}, t("replay"))));
  }

  async function load(path, append) {
    const mine = ++loading;
    more.disabled = true;
    try {
      const page = await api(path, {anonymous: true});
      if (mine !== loading) return;  // a newer filter won
      if (!append) { body.replaceChildren(); shown = 0; }
      body.append(...page.games.map(row));
      shown += page.games.length;
      next = page.next; more.hidden = !next; more.disabled = false;
      document.getElementById("count").textContent = page.total === shown || !page.total
        ? tn("{count} game", "{count} games", page.total || 0)
        : tn("{shown} of {count} game", "{shown} of {count} games", page.total, {shown});
      document.getElementById("error").hidden = true;
    } catch (err) {
      const box = document.getElementById("error");
      box.hidden = false; box.textContent = err.message;
      more.disabled = false;
    }
  }

  function query() {
    const q = new URLSearchParams();
    for (const k of ["game", "player", "status"]) {
      const v = form.elements[k].value.trim();
      if (v) q.set(k, v);
    }
    if (/^\d+$/.test(CH.params.get("limit") || "")) q.set("limit", CH.params.get("limit"));  // page size
    return q;
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = query();
    const shown = new URLSearchParams(q);  // the page's own link also keeps the scores choice
    if (scoresShown()) shown.set("scores", "1");
    history.replaceState(null, "", shown.toString() ? `/?${shown}` : "/");
    markScores();
    document.getElementById("stats-link").href = q.toString() ? `/statistics?${q}` : "/statistics";
    load(`/games?${q}`, false);
  });
  for (const el of form.querySelectorAll("select, input[type=checkbox]")) el.addEventListener("change", () => form.requestSubmit());
  more.addEventListener("click", () => { if (next) load(next, true); });
  CH.catalog().then((c) => {
    titles = Object.fromEntries(Object.values(c).map((g) => [g.slug, g.title]));
    for (const tr of body.querySelectorAll("tr[data-game]")) {
      tr.firstElementChild.textContent = titles[tr.dataset.game] || tr.dataset.game;
    }
  }).catch(() => {});
  const q = query();
  document.getElementById("stats-link").href = q.toString() ? `/statistics?${q}` : "/statistics";
  load(`/games?${q}`, false);
})();
