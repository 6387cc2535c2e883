// Palais Royal: the garden as its grid of noble tiles (crown points, privilege icon, cost in
// gold, purple and blue seals) with the servants on its edges, the court's 3×3 tiles with
// each player's servants, and each player's gold, servants, nobles and privilege cards.
// Every id is shown by its label (the catalog's, from GameRules.labels); the raw value stays
// in data-value, so tests can check the board against the state.
"use strict";
(() => {
  const {h, val, seats} = CH;
  // the shape GameRules.labels gives a designed noble (projections/palais_royal_words.py)
  const NOBLE = /^(\d+)-point noble(?: with (.+?))? \((.+)\)$/;
  const COLOURS = ["gold", "purple", "blue"];
  const PHASES = {awaiting_setup: "Waiting for the setup", initial_placement: "Initial placements",
    play: "Play", over: "Game over"};

  function nobleParts(label) {
    const m = NOBLE.exec(label || "");
    if (!m) return null;
    const costs = {};
    if (m[3] !== "free") {
      for (const part of m[3].split(", ")) {
        const [n, colour] = part.split(" ");
        if (!COLOURS.includes(colour) || !/^\d+$/.test(n)) return null;
        costs[colour] = Number(n);
      }
    }
    return {points: Number(m[1]), privilege: m[2] || null, costs};
  }

  const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;
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
    h("span", {class: "pr-points"}, String(parts.points), h("small", {}, parts.points === 1 ? " pt" : " pts")),
    parts.privilege ? h("span", {class: "pr-priv"}, parts.privilege) : null,
    h("span", {class: "pr-costs"}, COLOURS.filter((c) => parts.costs[c]).map((c) =>
      h("span", {class: `pr-cost ${c}`, title: plural(parts.costs[c], c === "gold" ? "gold" : `${c} seal`,
        c === "gold" ? "gold" : null)}, String(parts.costs[c]))),
    Object.keys(parts.costs).length ? null : h("span", {class: "pr-free"}, "free")));
  }

  function pawn(ctx, seat, extra = "") {
    return h("span", {class: `pawn s${seat} ${extra}`.trim(), title: ctx.seatName(seat),
      role: "img", "aria-label": ctx.seatName(seat)});
  }

  // -- status line -----------------------------------------------------------------
  function stepWords(turn) {
    if (!isObj(turn)) return "";
    const out = [turn.open_step === "done" ? "all steps done" : `step ${turn.open_step} open`];
    if (turn.cardinal_active) out.push("Cardinal card in play");
    if (turn.gate_unlimited) out.push("no Gate limit");
    if (turn.gate_bonus) out.push(`+${plural(turn.gate_bonus, "Gate servant")}`);
    if (turn.move_bonus) out.push(`+${plural(turn.move_bonus, "move")}`);
    const seals = isObj(turn.bonus_seals) ? turn.bonus_seals : {};
    for (const c of ["blue", "purple"]) if (seals[c]) out.push(plural(seals[c], `bonus ${c} seal`));
    if (turn.pending_drawn_count) out.push(`${plural(turn.pending_drawn_count, "drawn card")} to keep`);
    return out.join(" · ");
  }

  function status(view, ctx) {
    const parts = [val(ctx, "phase", {show: (p) => PHASES[p] || String(p).replace(/_/g, " "), class: "pr-phase"})];
    if (view.phase === "play") {
      parts.push(h("span", {}, "round ", val(ctx, "round")));
      if (view.final_round) parts.push(h("span", {class: "pr-last"}, "the last round"));
      if (typeof view.active === "number") {
        parts.push(h("span", {}, pawn(ctx, view.active), " ",
          val(ctx, "active", {show: (s) => ctx.seatName(s), class: `pr-name c${view.active}`}), " to play"));
        parts.push(h("span", {class: "note"}, stepWords(view.turn)));
      }
    } else if (view.phase === "initial_placement") {
      for (const s of (view.to_act || []).filter((a) => typeof a === "number")) {
        parts.push(h("span", {}, pawn(ctx, s), ` ${ctx.seatName(s)} places 5 servants`));
      }
    }
    if (view.phase === "awaiting_setup") {
      parts.push(h("span", {class: "note"}, "the table lays out the court and the garden and names the start player"));
    } else {
      parts.push(h("span", {}, val(ctx, "nobles_left"), " nobles in the garden"));
      parts.push(h("span", {}, "draw pile ", val(ctx, "deck_count"), " · discard pile ", val(ctx, "discard_count")));
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
      h("h3", {}, "Garden"),
      h("div", {class: "pr-garden", style: `grid-template-columns: repeat(${cols}, minmax(min-content, 1fr))`}, cells),
      h("p", {class: "note pr-key"}, h("span", {class: "pr-cost gold"}, "1"), " gold ",
        h("span", {class: "pr-cost purple"}, "1"), " purple seal ",
        h("span", {class: "pr-cost blue"}, "1"), " blue seal · rows from the north, columns from the west"));
  }

  // -- court -----------------------------------------------------------------------
  function court(view, ctx, n) {
    const layout = Array.isArray(view.court_layout) ? view.court_layout : [];
    if (!layout.length) return null;
    const players = Array.isArray(view.players) ? view.players : [];
    return h("section", {class: "pr-court-wrap"},
      h("h3", {}, "Court"),
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
    return h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, "hand"),
      cards.length ? cards.map(([c, k]) => h("span", {class: ctx.cls("chip pr-card", `players.${i}.hand.${c}`)}, ctx.label(c),
        k > 1 ? h("span", {}, " ×", val(ctx, `players.${i}.hand.${c}`, {tag: "span"})) : null))
        : h("span", {class: "nil"}, "empty"));
  }

  function playerPanel(view, ctx, i) {
    const p = (Array.isArray(view.players) ? view.players[i] : null) || {};
    const final = Array.isArray(view.scores);
    const down = Array.isArray(p.nobles_face_down);
    return [
      h("div", {class: "pr-score"}, final
        ? h("span", {}, view.phase === "over" ? "final score " : "score so far ",
          val(ctx, `scores.${i}`, {class: "pr-big"}))
        : Array.isArray(view.public_scores) ? h("span", {}, val(ctx, `public_scores.${i}`, {class: "pr-big"}),
          " points showing") : null),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, "gold"), val(ctx, `players.${i}.gold`)),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, "servants"), val(ctx, `players.${i}.supply`),
        " in the supply · ", val(ctx, `players.${i}.general_supply`), " in reserve"),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, "face up"), nobleList(ctx, `players.${i}.nobles_face_up`, "none")),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, "face down"), down
        ? nobleList(ctx, `players.${i}.nobles_face_down`, "none")
        : h("span", {}, val(ctx, `players.${i}.nobles_face_down_count`), " nobles")),
      h("div", {class: "pr-row"}, h("span", {class: "pr-k"}, "cards"), val(ctx, `players.${i}.hand_count`),
        " in hand", Array.isArray(p.played_cards) && p.played_cards.length ? h("span", {}, " · played ",
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
      seated ? h("h3", {}, "Players") : null,
      n ? seats(ctx, n, (i) => playerPanel(view, ctx, i))
        : seats(ctx, seated, () => h("p", {class: "nil"}, "waiting for the setup")),
      typeof view.my_score === "number" ? h("p", {class: "pr-mine"}, "Your score, with your face-down nobles: ",
        val(ctx, "my_score")) : null);
  });
})();
