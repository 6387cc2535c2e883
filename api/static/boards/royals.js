// Royals: the map of Europe (portrait spaces with the players' cubes, cathedrals, the
// scoring tokens still on the board), the display and the players' holdings.
"use strict";
(() => {
  const {h, val, chips, seats, stat} = CH;
  const COUNTRIES = ["france", "german_states", "britain", "spain"];

  function cityOf(portrait) {
    const parts = String(portrait).split("_");
    return parts.slice(0, parts.length - 1).join("_");
  }

  function map(view, ctx) {
    const portraits = view.portraits || {};
    const cathedrals = view.cathedrals || {};
    const byCity = {};
    for (const key of Object.keys(portraits)) (byCity[cityOf(key)] ||= []).push(key);
    for (const city of Object.keys(cathedrals)) byCity[city] ||= [];
    const country = (city) => (ctx.cards[city] && ctx.cards[city].country) || "";
    const groups = {};
    for (const city of Object.keys(byCity)) (groups[country(city)] ||= []).push(city);
    const order = [...COUNTRIES.filter((c) => groups[c]), ...Object.keys(groups).filter((c) => !COUNTRIES.includes(c))];
    return order.map((c) => h("div", {class: "country", "data-country": c},
      h("h3", {}, c ? c.replace(/_/g, " ") : "cities"),
      h("div", {class: "map"}, groups[c].map((city) => h("div", {class: "city", "data-city": city},
        h("h4", {}, ctx.label(city)),
        byCity[city].map((p) => h("div", {class: ctx.cls("portrait", `portraits.${p}`)},
          p.slice(city.length + 1).replace(/_/g, " "), ": ",
          typeof portraits[p] === "number" ? h("span", {class: `pawn s${portraits[p]}`, title: ctx.players[portraits[p]]}) : null,
          val(ctx, `portraits.${p}`, {tag: "span"}))),
        Array.isArray(cathedrals[city]) ? h("div", {class: "cathedral"}, "cathedral ",
          cathedrals[city].map((n, s) => n ? h("span", {}, h("span", {class: `pawn s${s}`}), "×",
            val(ctx, `cathedrals.${city}.${s}`, {tag: "span"}), " ") : null)) : null)))));
  }

  function markers(view, ctx) {
    const bm = view.board_markers || {};
    return h("div", {class: "markers"}, ["city", "shield", "noble_house"].filter((k) => Array.isArray(bm[k])).map((k) =>
      h("div", {}, h("b", {}, k.replace(/_/g, " "), " tokens: "),
        bm[k].map((m, i) => h("span", {class: "chip"}, `${m.key} `, val(ctx, `board_markers.${k}.${i}.value`, {tag: "span"}))))));
  }

  CH.registerBoard("royals", (view, ctx) => {
    if (!view.portraits && !view.cathedrals) return null;
    const n = Array.isArray(view.hands) ? view.hands.length : (typeof view.players === "number" ? view.players : ctx.players.length);
    return h("div", {class: "royals"},
      h("div", {class: "stats"},
        stat("phase", val(ctx, "phase")), stat("period", val(ctx, "period")), stat("year", val(ctx, "year")),
        stat("round", val(ctx, "round")), stat("deck", val(ctx, "deck_count")),
        stat("intrigue deck", val(ctx, "intrigue_deck_count")), stat("discard", val(ctx, "discard_count"))),
      h("div", {}, h("b", {}, "display: "), chips(ctx, "display", {empty: "empty"})),
      seats(ctx, n, (i) => [
        h("div", {}, "score ", val(ctx, `scores.${i}`), " · cubes ", val(ctx, `supply.${i}`)),
        h("div", {}, "cards ", val(ctx, `hands.${i}.country_count`), " · intrigue ", val(ctx, `hands.${i}.intrigue_count`)),
        view.hands && view.hands[i] && view.hands[i].country ? h("div", {class: "hand"}, "hand: ",
          Object.entries(view.hands[i].country).map(([c, k]) => h("span", {class: "chip"}, `${c.replace(/_/g, " ")} ×${k}`))) : null,
        view.title_tiles ? h("div", {}, "titles: ", Object.entries(view.title_tiles).filter(([, v]) => v && v[i]).map(([t, v]) =>
          h("span", {class: "chip"}, `${t} ×${v[i]}`))) : null,
        Array.isArray(view.holdings) ? h("div", {}, "tokens won: ", (view.holdings[i] || []).map((m) =>
          h("span", {class: "chip"}, `${m.key} ${m.value}`))) : null,
      ]),
      h("h3", {}, "Map"), map(view, ctx), markers(view, ctx));
  });
})();
