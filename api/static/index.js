// The games index: every game, filtered by game, player and status (GET /games).
"use strict";
(() => {
  const {h, api} = CH;
  const form = document.getElementById("filters");
  const body = document.querySelector("#games tbody");
  const more = document.getElementById("more");
  let next = null;

  for (const [k, v] of CH.params) if (form.elements[k]) form.elements[k].value = v;

  function row(g) {
    const res = g.result || null;
    const scores = res && res.scores ? res.scores.map((s, i) =>
      `${g.players[i] ?? i}: ${s}${(res.winners || []).includes(i) ? " ★" : ""}`).join(", ") : "";
    return h("tr", {"data-game-id": g.id, "data-game": g.game},
      h("td", {}, g.game), h("td", {}, g.players.join(", ")), h("td", {}, g.mode || ""),
      h("td", {class: "status-" + g.status}, (g.status || "").replace("_", " ")),
      h("td", {}, scores), h("td", {}, (g.created_at || "").slice(0, 16).replace("T", " ")),
      h("td", {}, h("a", {href: `/games/${g.id}/replay`, class: "replay-link"}, "replay")));
  }

  async function load(path, append) {
    try {
      const page = await api(path, {anonymous: true});
      if (!append) body.replaceChildren();
      body.append(...page.games.map(row));
      next = page.next; more.hidden = !next;
      document.getElementById("count").textContent = `${page.total} game(s)`;
    } catch (err) {
      const box = document.getElementById("error");
      box.hidden = false; box.textContent = err.message;
    }
  }

  function query() {
    const q = new URLSearchParams();
    for (const k of ["game", "player", "status"]) {
      const v = form.elements[k].value.trim();
      if (v) q.set(k, v);
    }
    return q;
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = query();
    history.replaceState(null, "", q.toString() ? `/?${q}` : "/");
    load(`/games?${q}`, false);
  });
  for (const el of form.querySelectorAll("select")) el.addEventListener("change", () => form.requestSubmit());
  more.addEventListener("click", () => next && load(next, true));
  load(`/games?${query()}`, false);
})();
