// Palais Royal: the court (its tiles in a 3×3 grid, the servants on each), the garden of
// nobles, and each player's gold, seals, nobles and cards.
"use strict";
(() => {
  const {h, val, chips, seats, stat} = CH;

  function court(view, ctx, n) {
    const layout = Array.isArray(view.court_layout) ? view.court_layout : [];
    const players = Array.isArray(view.players) ? view.players : [];
    return h("div", {class: "grid court", style: "grid-template-columns: repeat(3, 1fr)"},
      layout.map((tile) => h("div", {class: "cell", "data-tile": tile},
        h("b", {}, String(tile).replace(/_/g, " ")), h("br"),
        players.map((p, i) => p && p.court && p.court[tile] ? h("span", {},
          h("span", {class: `pawn s${i}`}), "×", val(ctx, `players.${i}.court.${tile}`, {tag: "span"}), " ") : null))));
  }

  function garden(view, ctx) {
    const g = view.garden || {};
    const keys = Object.keys(g);
    let rows = 0, cols = 0;
    for (const k of keys) {
      const m = /^r(\d+)c(\d+)$/.exec(k);
      if (m) { rows = Math.max(rows, +m[1] + 1); cols = Math.max(cols, +m[2] + 1); }
    }
    if (!rows) return CH.generic(g, ctx, "garden");
    const servants = view.garden_servants || {};
    const cells = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const k = `r${r}c${c}`;
      cells.push(h("div", {class: ctx.cls("cell", `garden.${k}`), "data-space": k},
        val(ctx, `garden.${k}`, {tag: "span"}),
        servants[k] !== undefined ? h("div", {}, h("span", {class: `pawn s${servants[k]}`, title: "servant"})) : null));
    }
    return h("div", {class: "grid garden", style: `grid-template-columns: repeat(${cols}, 1fr)`}, cells);
  }

  CH.registerBoard("palais_royal", (view, ctx) => {
    if (!view.court_layout && !view.garden) return null;
    const n = Array.isArray(view.players) ? view.players.length : ctx.players.length;
    return h("div", {class: "palais"},
      h("div", {class: "stats"}, stat("phase", val(ctx, "phase")), stat("round", val(ctx, "round")),
        stat("turns", val(ctx, "turns_played")), stat("nobles left", val(ctx, "nobles_left")),
        stat("deck", val(ctx, "deck_count")), stat("discard", val(ctx, "discard_count"))),
      seats(ctx, n, (i) => {
        const p = (view.players || [])[i] || {};
        return [
          h("div", {}, "gold ", val(ctx, `players.${i}.gold`), " · servants ", val(ctx, `players.${i}.supply`),
            " + ", val(ctx, `players.${i}.general_supply`), " in reserve"),
          Array.isArray(view.public_scores) ? h("div", {}, "public score ", val(ctx, `public_scores.${i}`)) : null,
          h("div", {}, "nobles: ", chips(ctx, `players.${i}.nobles_face_up`),
            " + ", val(ctx, `players.${i}.nobles_face_down_count`, {tag: "span"}), " face down"),
          h("div", {}, "cards in hand ", val(ctx, `players.${i}.hand_count`)),
          p.hand && typeof p.hand === "object" ? h("div", {class: "hand"}, "hand: ",
            Object.entries(p.hand).map(([c, k]) => h("span", {class: "chip"}, `${c.replace(/_/g, " ")} ×${k}`))) : null,
          Array.isArray(p.played_cards) && p.played_cards.length ? h("div", {}, "played: ", chips(ctx, `players.${i}.played_cards`)) : null,
        ];
      }),
      h("h3", {}, "Court"), court(view, ctx, n),
      h("h3", {}, "Garden"), garden(view, ctx),
      view.my_score !== undefined ? h("p", {}, "your score (with hidden nobles) ", val(ctx, "my_score")) : null);
  });
})();
