// Palais Royal: the garden as its grid of noble tiles (crown points, privilege icon, cost in
// gold, purple and blue seals) with the servants on its edges, the court's 3×3 tiles with
// each player's servants, and each player's gold, servants, nobles and privilege cards.
// Every id is shown by its label (the catalog's, from GameRules.labels); the raw value stays
// in data-value, so tests can check the board against the state.
"use strict";
(() => {
  const {h, val, seats} = CH;
  // the shape GameRules.labels gives a designed noble (projections/palais_royal/words.py:
  // "{points}-point noble with {privilege} ({cost})", "2 gold, 1 purple"), in English and as
  // the zh-Hans catalog renders it ("{points}分贵族，{privilege}（{cost}）", "2金币、1紫色印章")
  const SHAPES = [
    {noble: /^(\d+)-point noble(?: with (.+?))? \((.+)\)$/, free: "free", sep: ", ",
      cost: /^(\d+) (gold|purple|blue)$/, colours: {gold: "gold", purple: "purple", blue: "blue"}},
    {noble: /^(\d+)分贵族(?:，(.+?))?（(.+)）$/, free: "免费", sep: "、",
      cost: /^(\d+)(金币|紫色印章|蓝色印章)$/, colours: {"金币": "gold", "紫色印章": "purple", "蓝色印章": "blue"}},
  ];
  const COLOURS = ["gold", "purple", "blue"];
  const PHASES = {awaiting_setup: t("Waiting for the setup"), initial_placement: t("Initial placements"),
    play: t("Play"), over: t("Game over")};

  function nobleParts(label) {
    for (const shape of SHAPES) {
      const m = shape.noble.exec(label || "");
      if (!m) continue;
      const costs = {};
      if (m[3] !== shape.free) {
        for (const part of m[3].split(shape.sep)) {
          const c = shape.cost.exec(part);
          if (!c) return null;
          costs[shape.colours[c[2]]] = Number(c[1]);
        }
      }
      return {points: Number(m[1]), privilege: m[2] || null, costs};
    }
    return null;
  }

  // a translated template with nodes in its placeholders (a template of t() with a node for
  // its {count}), so each language puts the value where its words want it
  function fill(template, nodes) {
    return String(template).split(/(\{\w+\})/).map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      return m && nodes[m[1]] !== undefined ? nodes[m[1]] : part;
    }).filter((part) => part !== "");
  }

  // what a cost cell's tooltip says: "2 gold", "1 purple seal"
  const costWords = (n, c) => (c === "gold" ? t("{count} gold", {count: n})
    : c === "purple" ? tn("{count} purple seal", "{count} purple seals", n)
      : tn("{count} blue seal", "{count} blue seals", n));
  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

  // one scalar of the view drawn as `el`, marked like CH.val (data-value keeps the raw value)
  function mark(ctx, path, el) {
    const v = CH.getPath(ctx.view, path);
    el.dataset.path = path;
    el.dataset.scalar = "";
    el.dataset.value = v === null || v === undefined ? "—" : String(v);
    if (ctx.changed(path)) el.classList.add("changed");
    return el;
  }

  // a noble tile as it lies on the table: points, privilege icon, cost column
  function nobleTile(ctx, id, opts = {}) {
    const label = ctx.label(id);
    const parts = nobleParts(label);
    if (!parts) return h("span", {class: "pr-noble named", title: label}, label);
    return h("span", {class: "pr-noble" + (parts.privilege ? " up" : "") + (opts.small ? " small" : ""),
      title: label, role: "group", "aria-label": label},
    h("span", {class: "pr-points"}, String(parts.points), h("small", {}, tn(" pt", " pts", parts.points))),
    parts.privilege ? h("span", {class: "pr-priv"}, parts.privilege) : null,
    h("span", {class: "pr-costs"}, COLOURS.filter((c) => parts.costs[c]).map((c) =>
      h("span", {class: `pr-cost ${c}`, title: costWords(parts.costs[c], c)}, String(parts.costs[c]))),
    Object.keys(parts.costs).length ? null : h("span", {class: "pr-free"}, t("free"))));
  }

  function pawn(ctx, seat, extra = "") {
    return h("span", {class: `pawn s${seat} ${extra}`.trim(), title: ctx.seatName(seat),
      role: "img", "aria-label": ctx.seatName(seat)});
  }

  // -- status line -----------------------------------------------------------------
  function stepWords(turn) {
    if (!isObj(turn)) return "";
    const out = [turn.open_step === "done" ? t("all steps done") : t("step {step} open", {step: turn.open_step})];
    if (turn.cardinal_active) out.push(t("Cardinal card in play"));
    if (turn.gate_unlimited) out.push(t("no Gate limit"));
    if (turn.gate_bonus) out.push(tn("+{count} Gate servant", "+{count} Gate servants", turn.gate_bonus));
    if (turn.move_bonus) out.push(tn("+{count} move", "+{count} moves", turn.move_bonus));
    const seals = isObj(turn.bonus_seals) ? turn.bonus_seals : {};
    if (seals.blue) out.push(tn("{count} bonus blue seal", "{count} bonus blue seals", seals.blue));
    if (seals.purple) out.push(tn("{count} bonus purple seal", "{count} bonus purple seals", seals.purple));
    if (turn.pending_drawn_count) {
      out.push(tn("{count} drawn card to keep", "{count} drawn cards to keep", turn.pending_drawn_count));
    }
    return out.join(" · ");
  }

  function status(view, ctx) {
    const parts = [val(ctx, "phase", {show: (p) => PHASES[p] || String(p).replace(/_/g, " "), class: "pr-phase"})];
    if (view.phase === "play") {
      parts.push(h("span", {}, fill(t("round {round}"), {round: val(ctx, "round")})));
      if (view.final_round) parts.push(h("span", {class: "pr-last"}, t("the last round")));
      if (typeof view.active === "number") {
        parts.push(h("span", {}, pawn(ctx, view.active), " ", fill(t("{player} to play"), {player:
          val(ctx, "active", {show: (s) => ctx.seatName(s), class: `pr-name c${view.active}`})})));
        parts.push(h("span", {class: "note"}, stepWords(view.turn)));
      }
    } else if (view.phase === "initial_placement") {
      for (const s of (view.to_act || []).filter((a) => typeof a === "number")) {
        parts.push(h("span", {}, pawn(ctx, s), " ", t("{player} places 5 servants", {player: ctx.seatName(s)})));
      }
    }
    if (view.phase === "awaiting_setup") {
      parts.push(h("span", {class: "note"}, t("the table lays out the court and the garden and names the start player")));
    } else {
      parts.push(h("span", {}, fill(t("{count} nobles in the garden"), {count: val(ctx, "nobles_left")})));
      parts.push(h("span", {}, fill(t("draw pile {deck} · discard pile {discard}"),
        {deck: val(ctx, "deck_count"), discard: val(ctx, "discard_count")})));
    }
    return h("div", {class: "pr-status"}, parts);
  }

  // -- garden ----------------------------------------------------------------------
  function garden(view, ctx) {
    const g = isObj(view.garden) ? view.garden : {};
    let rows = 0, cols = 0;
    for (const k of Object.keys(g)) {
      const m = /^r(\d+)c(\d+)$/.exec(k);
      if (m) { rows = Math.max(rows, +m[1] + 1); cols = Math.max(cols, +m[2] + 1); }
    }
    if (!rows) return null;
    const servants = isObj(view.garden_servants) ? view.garden_servants : {};
    const cells = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const k = `r${r}c${c}`;
      const edge = r === 0 || c === 0 || r === rows - 1 || c === cols - 1;
      const noble = g[k];
      const cell = h("div", {class: "pr-space" + (edge ? " edge" : "") + (noble ? "" : " empty"),
        "data-space": k, title: ctx.label(k)},
      noble ? nobleTile(ctx, noble) : h("span", {class: "pr-gone"}, ""),
      servants[k] !== undefined && servants[k] !== null ? mark(ctx, `garden_servants.${k}`,
        h("span", {class: "pr-garden-servant"}, pawn(ctx, servants[k]))) : null);
      cells.push(mark(ctx, `garden.${k}`, cell));
    }
    return h("section", {class: "pr-garden-wrap"},
      h("h3", {}, t("Garden")),
      h("div", {class: "pr-garden", style: `grid-template-columns: repeat(${cols}, minmax(min-content, 1fr))`}, cells),
      h("p", {class: "note pr-key"}, h("span", {class: "pr-cost gold"}, "1"), t(" gold "),
        h("span", {class: "pr-cost purple"}, "1"), t(" purple seal "),
        h("span", {class: "pr-cost blue"}, "1"), t(" blue seal · rows from the north, columns from the west")));
  }

  // -- court -----------------------------------------------------------------------
  function court(view, ctx, n) {
    const layout = Array.isArray(view.court_layout) ? view.court_layout : [];
    if (!layout.length) return null;
    const players = Array.isArray(view.players) ? view.players : [];
    return h("section", {class: "pr-court-wrap"},
      h("h3", {}, t("Court")),
      h("div", {class: "pr-court"}, layout.map((tile) => h("div", {class: "pr-tile", "data-tile": tile},
        h("b", {}, ctx.label(tile)),
        h("div", {class: "pr-tile-servants"}, players.map((p, i) => isObj(p) && isObj(p.court) && p.court[tile]
          ? h("span", {class: "pr-count"}, pawn(ctx, i),
            val(ctx, `players.${i}.court.${tile}`, {tag: "span"})) : null))))));
  }

  // -- players ---------------------------------------------------------------------
  function nobleList(ctx, path, empty) {
    const v = CH.getPath(ctx.view, path);
    if (!Array.isArray(v)) return null;
    const before = ctx.prev ? CH.getPath(ctx.prev, path) : null;
    // only the new tiles are marked: an inline list's outline would frame every line
    return h("span", {class: "pr-nobles", "data-path": path, "data-list": true},
      v.length ? null : h("span", {class: "nil"}, empty),
      v.map((id) => h("span", {"data-item": JSON.stringify(id),
        class: Array.isArray(before) && !before.includes(id) ? "changed" : ""}, nobleTile(ctx, id, {small: true}))));
  }

  function cardList(ctx, path) {
    const v = CH.getPath(ctx.view, path);
    if (!Array.isArray(v) || !v.length) return null;
    const before = ctx.prev ? CH.getPath(ctx.prev, path) : null;
    return h("span", {class: "list", "data-path": path, "data-list": true},
      v.map((c, i) => h("span", {class: "chip pr-card" + (Array.isArray(before) && i >= before.length ? " changed" : ""),
        "data-item": JSON.stringify(c)}, ctx.label(c))));
  }

  function hand(ctx, i, p) {
    if (!isObj(p.hand)) return null;
    const cards = Object.entries(p.hand);
    return h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, t("hand")),
      cards.length ? cards.map(([c, k]) => h("span", {class: ctx.cls("chip pr-card", `players.${i}.hand.${c}`)}, ctx.label(c),
        k > 1 ? h("span", {}, " ×", val(ctx, `players.${i}.hand.${c}`, {tag: "span"})) : null))
        : h("span", {class: "nil"}, t("empty")));
  }

  function playerPanel(view, ctx, i) {
    const p = (Array.isArray(view.players) ? view.players[i] : null) || {};
    const final = Array.isArray(view.scores);
    const down = Array.isArray(p.nobles_face_down);
    return [
      h("div", {class: "pr-score"}, final
        ? h("span", {}, view.phase === "over" ? t("final score ") : t("score so far "),
          val(ctx, `scores.${i}`, {class: "pr-big"}))
        : Array.isArray(view.public_scores) ? h("span", {}, fill(t("{points} points showing"),
          {points: val(ctx, `public_scores.${i}`, {class: "pr-big"})})) : null),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, t("gold")), val(ctx, `players.${i}.gold`)),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, t("servants")), fill(t("{supply} in the supply · {reserve} in reserve"),
        {supply: val(ctx, `players.${i}.supply`), reserve: val(ctx, `players.${i}.general_supply`)})),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, t("face up")), nobleList(ctx, `players.${i}.nobles_face_up`, t("none"))),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, t("face down")), down
        ? nobleList(ctx, `players.${i}.nobles_face_down`, t("none"))
        : h("span", {}, fill(t("{count} nobles"), {count: val(ctx, `players.${i}.nobles_face_down_count`)}))),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, t("cards")), fill(t("{count} in hand"), {count: val(ctx, `players.${i}.hand_count`)}),
        Array.isArray(p.played_cards) && p.played_cards.length ? h("span", {}, t(" · played "),
          cardList(ctx, `players.${i}.played_cards`)) : null),
      hand(ctx, i, p),
    ];
  }

  // The recorder's preview of the setup as tapped so far (choices.js): the court and the
  // garden laid out with the tiles chosen, the spaces still to fill empty. The garden is
  // the edition's 6 x 6 grid (edition "garden": rows 6, cols 6).
  if (CH.registerPreview) CH.registerPreview("palais_royal", (view, data, action) => {
    if (!action || action.type !== "setup") return null;
    const chosen = isObj(data.garden) ? data.garden : {};
    const laid = isObj(view.garden) ? view.garden : {};
    const g = {};
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) {
      const k = `r${r}c${c}`;
      g[k] = chosen[k] || laid[k] || null;
    }
    return {...view, garden: g,
      court_layout: Array.isArray(data.court_layout) ? data.court_layout : view.court_layout};
  });

  CH.registerBoard("palais_royal", (view, ctx) => {
    if (!Array.isArray(view.court_layout) && !isObj(view.garden)) return null;
    const n = Array.isArray(view.players) ? view.players.length : ctx.players.length;
    // before the setup the view has no player areas yet; the players are seated all the same
    const seated = n || ctx.players.length;
    return h("div", {class: "palais"},
      status(view, ctx),
      h("div", {class: "pr-main"}, garden(view, ctx), court(view, ctx, n)),
      seated ? h("h3", {}, t("Players")) : null,
      n ? seats(ctx, n, (i) => playerPanel(view, ctx, i))
        : seats(ctx, seated, () => h("p", {class: "nil"}, t("waiting for the setup"))),
      typeof view.my_score === "number" ? h("p", {class: "pr-mine"}, t("Your score, with your face-down nobles: "),
        val(ctx, "my_score")) : null);
  });
})();
