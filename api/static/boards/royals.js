// Royals: the map of Europe as the board shows it (each country a region in its map colour,
// its cities with the city bonus token, the portrait spaces holding the cube of whoever
// claimed them in the colour that player chose at setup, the cathedral), the country tokens
// and title tiles still on the board, the display, and each player's hand and tokens won.
// Every value shown is marked with its path (CH.val / data-list) so the board tests can
// check it against the state; every word comes from the edition's labels.
"use strict";
(() => {
  const {h, val, seats} = CH;
  // the cube colours of the edition (royals.json cubes.per_colour), as drawn here
  const CUBES = {black: "#1f1f1f", white: "#fbfbf6", grey: "#8b8b8b", purple: "#7b2d9e", orange: "#f08a1f"};
  // where each country lies on the map (the board's geography; others follow in the list)
  const REGIONS = ["britain", "german_states", "france", "spain"];

  const isSeat = (v) => typeof v === "number" && Number.isInteger(v) && v >= 0;

  function cube(ctx, seat, colour, extra) {
    return h("span", {class: "cube s" + seat + (extra ? " " + extra : ""), title: ctx.seatName(seat),
      "data-colour": colour || null});
  }

  // the colours recorded at setup, as CSS variables: every cube and pawn of a seat uses them
  function seatColours(view) {
    const colours = Array.isArray(view.colours) ? view.colours : [];
    return colours.map((c, i) => CUBES[c] ? `--seat${i}: ${CUBES[c]};` : "").join(" ");
  }

  function cityOf(portrait, titles) {
    const title = titles.find((t) => portrait.endsWith("_" + t));
    return title ? [portrait.slice(0, -title.length - 1), title] : [portrait, null];
  }

  // a list of cards as faces; the list keeps its path and one data-item per card
  function cardRow(ctx, path, cards, empty) {
    const before = ctx.prev ? CH.getPath(ctx.prev, path) : null;
    const left = Array.isArray(before) ? [...before] : null;
    return h("div", {class: ctx.cls("rl-cards", path), "data-path": path, "data-list": true},
      cards.length ? null : h("span", {class: "nil"}, empty),
      cards.map((c) => {
        const seen = left ? left.indexOf(c) : 0;
        if (left && seen >= 0) left.splice(seen, 1);
        return h("span", {class: "rl-card" + (left && seen < 0 ? " changed" : ""), "data-country": c,
          "data-item": JSON.stringify(c)}, ctx.label(c));
      }));
  }

  function status(view, ctx) {
    const phase = view.phase;
    const who = isSeat(view.current) && phase !== "over" && phase !== "awaiting_setup"
      ? [cube(ctx, view.current), " ", val(ctx, "current", {tag: "b", show: (v) => ctx.seatName(v)}),
        phase === "draw" ? t(" draws") : t(" may claim, usurp or end the turn")] : null;
    return h("div", {class: "rl-status"},
      h("span", {class: "rl-period"}, t("Period "), val(ctx, "period"),
        view.year ? [" · ", val(ctx, "year", {tag: "span"})] : null),
      h("span", {}, t("round "), val(ctx, "round"), t(" · turn "), val(ctx, "turn")),
      phase === "over" ? h("span", {class: "rl-over"}, t("the game is over"))
        : phase === "awaiting_setup" ? h("span", {}, t("waiting for the setup")) : h("span", {}, who),
      view.period_ended_this_turn ? h("span", {class: ctx.cls("rl-alert", "period_ended_this_turn")},
        t("the draw pile ran out: the period is scored at the end of this turn")) : null,
      view.final_round ? h("span", {class: "rl-alert"}, t("period 3 is over: the round is being finished")) : null);
  }

  function piles(view, ctx) {
    const display = Array.isArray(view.display) ? view.display : [];
    const intrigueDiscard = Array.isArray(view.intrigue_discard) ? view.intrigue_discard : [];
    return h("div", {class: "rl-table"},
      h("section", {class: "rl-display"}, h("h3", {}, t("Display")), cardRow(ctx, "display", display, t("empty"))),
      h("section", {class: "rl-piles"},
        h("div", {}, h("span", {class: "rl-pile"}, "▤"), t(" draw pile "), val(ctx, "deck_count"), t(" cards")),
        h("div", {}, t("discards "), val(ctx, "discard_count"), t(" cards")),
        h("div", {}, t("intrigue pile "), val(ctx, "intrigue_deck_count"), t(" · discarded "),
          h("b", {}, String(intrigueDiscard.length)))));
  }

  function portraitSpace(view, ctx, p, title) {
    const holder = (view.portraits || {})[p];
    return h("div", {class: ctx.cls("rl-portrait" + (isSeat(holder) ? " held" : ""), `portraits.${p}`),
      "data-portrait": p},
    h("span", {class: "rl-title"}, title ? ctx.label(title) : ctx.label(p)),
    isSeat(holder) ? cube(ctx, holder) : h("span", {class: "rl-space"}),
    val(ctx, `portraits.${p}`, {tag: "span", class: "rl-holder",
      show: (v) => (isSeat(v) ? ctx.seatName(v) : t("vacant"))}));
  }

  function cathedral(view, ctx, city) {
    const row = (view.cathedrals || {})[city];
    if (!Array.isArray(row)) return null;
    // each cube with its owner's name: a colour alone does not say whose it is
    const cubes = row.map((n, s) => (n ? h("span", {class: "rl-buried"}, cube(ctx, s), h("span", {class: "rl-who"}, ctx.seatName(s)),
      n > 1 ? ["×", val(ctx, `cathedrals.${city}.${s}`, {tag: "span"})]
        : h("span", {hidden: true}, val(ctx, `cathedrals.${city}.${s}`, {tag: "span"}))) : null));
    return h("div", {class: ctx.cls("rl-cathedral", `cathedrals.${city}`), title: t("cathedral")},
      h("span", {class: "rl-church"}, t("cathedral")),
      row.some((n) => n) ? cubes : h("span", {class: "nil"}, t("no cube")));
  }

  function city(view, ctx, name, spaces, bonus) {
    return h("div", {class: "rl-city", "data-city": name},
      h("div", {class: "rl-city-head"}, h("b", {}, ctx.label(name)),
        bonus ? h("span", {class: ctx.cls("rl-hex", `board_markers.city.${bonus.index}.value`),
          title: t("city bonus")}, val(ctx, `board_markers.city.${bonus.index}.value`, {tag: "span"}))
          : h("span", {class: "rl-hex taken", title: "city bonus taken"}, "")),
      spaces.map(([p, title]) => portraitSpace(view, ctx, p, title)),
      cathedral(view, ctx, name));
  }

  function countryTokens(view, ctx, country) {
    const bm = view.board_markers || {};
    const shields = (Array.isArray(bm.shield) ? bm.shield : []).map((m, i) => [m, i])
      .filter(([m]) => m && String(m.key).split(":")[0] === country);
    const periods = (Array.isArray(bm.period) ? bm.period : []).map((m, i) => [m, i])
      .filter(([m]) => m && m.country === country);
    return h("div", {class: "rl-country-tokens"},
      h("span", {class: "rl-label"}, t("shields")),
      shields.length ? shields.map(([, i]) => h("span", {class: "rl-shield", title: t("country shield")},
        val(ctx, `board_markers.shield.${i}.value`, {tag: "span"}))) : h("span", {class: "nil"}, t("taken")),
      h("span", {class: "rl-label"}, t("period tokens")),
      periods.length ? periods.map(([m, i]) => h("span", {class: "rl-period-token", title: `period ${m.period}`},
        h("small", {}, periodName(ctx, m.period)), " ",
        val(ctx, `board_markers.period.${i}.high`, {tag: "span"}), "/",
        val(ctx, `board_markers.period.${i}.low`, {tag: "span"}))) : h("span", {class: "nil"}, t("none left")));
  }

  // "1648": a period as its tokens print it (the label of "period:1")
  function periodName(ctx, period) { return ctx.label(`period:${period}`); }

  function europe(view, ctx) {
    const portraits = view.portraits || {};
    const titles = Object.keys(view.title_tiles || {});
    const cities = {};
    for (const p of Object.keys(portraits)) {
      const [c, title] = cityOf(p, titles);
      (cities[c] ||= []).push([p, title]);
    }
    for (const c of Object.keys(view.cathedrals || {})) cities[c] ||= [];
    const bonus = {};
    ((view.board_markers || {}).city || []).forEach((m, index) => { if (m) bonus[m.key] = {index, value: m.value}; });
    const countryOf = (c) => (ctx.cards[c] && ctx.cards[c].country) || "";
    const groups = {};
    for (const c of Object.keys(cities)) (groups[countryOf(c)] ||= []).push(c);
    const order = [...REGIONS.filter((k) => groups[k]), ...Object.keys(groups).filter((k) => !REGIONS.includes(k))];
    return h("div", {class: "rl-europe"}, order.map((k) => h("section", {
      class: "rl-country", "data-country": k || "other"},
    h("h3", {}, k ? ctx.label(k) : t("Other cities")),
    k ? countryTokens(view, ctx, k) : null,
    h("div", {class: "rl-cities"}, groups[k].map((c) => city(view, ctx, c, cities[c], bonus[c]))))),
    court(view, ctx));
  }

  function court(view, ctx) {
    const tiles = view.title_tiles || {};
    const bm = view.board_markers || {};
    const values = {};
    (Array.isArray(bm.title) ? bm.title : []).forEach((t, i) => { if (t) values[t.title] = i; });
    const discs = Array.isArray(bm.noble_house) ? bm.noble_house : [];
    return h("section", {class: "rl-court"},
      h("h3", {}, t("Title tiles")),
      h("div", {class: "rl-tiles"}, Object.entries(tiles).map(([tl, row]) => h("div", {class: "rl-tile", "data-title": tl},
        h("div", {class: "rl-tile-head"}, h("b", {}, ctx.label(tl)),
          values[tl] !== undefined ? h("span", {class: "rl-worth"}, val(ctx, `board_markers.title.${values[tl]}.full`, {tag: "span"}),
            t(" · half "), val(ctx, `board_markers.title.${values[tl]}.half`, {tag: "span"})) : h("span", {class: "nil"}, t("scored"))),
        h("div", {class: "rl-tile-cubes"}, Array.isArray(row) && row.some((n) => n)
          ? row.map((n, s) => (n ? h("span", {class: ctx.cls("rl-stack", `title_tiles.${tl}.${s}`)},
            cube(ctx, s), h("span", {class: "rl-who"}, ctx.seatName(s)), " ", val(ctx, `title_tiles.${tl}.${s}`, {tag: "span"})) : null))
          : h("span", {class: "nil"}, t("no cube")))))),
      h("div", {class: "rl-discs"}, h("span", {class: "rl-label"}, t("noble house discs not yet won (for a cube on every title tile)")),
        discs.length ? discs.map((m, i) => h("span", {class: "rl-disc", title: t("noble house disc")},
          val(ctx, `board_markers.noble_house.${i}.value`, {tag: "span"}))) : h("span", {class: "nil"}, t("all taken"))));
  }

  // what a player holds, from the view: the hand (its faces only to whoever may see it, as
  // `.hand`: the one hand on a seat's screen) and the counts everybody sees
  function hand(view, ctx, i) {
    const hd = (view.hands || [])[i] || {};
    const country = hd.country && typeof hd.country === "object" ? hd.country : null;
    const intrigue = Array.isArray(hd.intrigue) ? hd.intrigue : [];
    const faces = country ? h("div", {class: "hand"},
      h("div", {class: "rl-cards"}, Object.entries(country).map(([c]) =>
        h("span", {class: ctx.cls("rl-card", `hands.${i}.country.${c}`), "data-country": c}, ctx.label(c),
          h("span", {class: "rl-n"}, "×", val(ctx, `hands.${i}.country.${c}`, {tag: "span"}))))),
      Array.isArray(hd.intrigue) ? h("div", {class: "rl-cards", "data-path": `hands.${i}.intrigue`, "data-list": true},
        intrigue.map((pair) => h("span", {class: "rl-card rl-intrigue", "data-item": JSON.stringify(pair),
          title: t("intrigue card")},
        (Array.isArray(pair) ? pair : [pair]).map((c) => h("span", {"data-country": c}, ctx.label(c)))))) : null)
      : h("div", {class: "rl-cards rl-hidden"},
        hd.country_count || hd.intrigue_count ? h("span", {class: "rl-back"}, t("face down")) : null);
    return h("div", {class: "rl-hand"},
      h("div", {class: "rl-counts"}, val(ctx, `hands.${i}.country_count`), t(" country · "),
        val(ctx, `hands.${i}.intrigue_count`), t(" intrigue")),
      faces);
  }

  // where a token lay, in the edition's words: its city, its country and year, its title
  function tokenText(ctx, m) {
    const key = String(m.key);
    if (m.kind === "city" || m.kind === "title") return ctx.label(key);
    if (m.kind === "title_half") return t("half {tile}", {tile: ctx.label(key)});
    if (m.kind === "shield") return t("{country} shield", {country: ctx.label(key.split(":")[0])});
    if (m.kind === "period") {
      const [period, country] = key.split(":");
      return `${ctx.label(country)} ${periodName(ctx, Number(period))}`;
    }
    if (m.kind === "noble_house") return t("noble house");
    return ctx.label(`${m.kind}:${key}`);
  }

  function tokens(view, ctx, i) {
    const held = Array.isArray(view.holdings) && Array.isArray(view.holdings[i]) ? view.holdings[i] : [];
    const before = ctx.prev && Array.isArray(ctx.prev.holdings) && Array.isArray(ctx.prev.holdings[i])
      ? ctx.prev.holdings[i].length : held.length;
    return h("div", {class: "rl-won"}, h("span", {class: "rl-label"}, t("tokens won")),
      held.length ? held.map((m, j) => m && typeof m === "object" ? h("span", {
        class: `rl-token k-${m.kind}` + (j >= before ? " changed" : ""), title: ctx.label(`${m.kind}:${m.key}`)},
      tokenText(ctx, m), " ", val(ctx, `holdings.${i}.${j}.value`)) : null)
        : h("span", {class: "nil"}, t("none yet")));
  }

  CH.registerBoard("royals", (view, ctx) => {
    if (!view.portraits || typeof view.portraits !== "object" || Array.isArray(view.portraits)) return null;
    const n = Array.isArray(view.hands) ? view.hands.length
      : (typeof view.players === "number" ? view.players : ctx.players.length);
    const winners = new Set(((view.result || {}).winners) || []);
    return h("div", {class: "royals", style: seatColours(view)},
      status(view, ctx),
      piles(view, ctx),
      europe(view, ctx),
      h("h3", {class: "rl-players"}, t("Players")),
      seats(ctx, n, (i) => [
        h("div", {class: "rl-score"}, t("score "), val(ctx, `scores.${i}`), winners.has(i) ? h("span", {class: "rl-win"}, t(" ★ wins")) : null,
          t(" · cubes left "), val(ctx, `supply.${i}`)),
        hand(view, ctx, i),
        tokens(view, ctx, i),
      ]));
  });
})();
