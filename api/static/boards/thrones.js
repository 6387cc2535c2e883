// A Game of Thrones (first edition): each player's area (house card, gold, power, plot,
// cards in play), the current challenge and the titles.
"use strict";
(() => {
  const {h, val, chips, seats, stat} = CH;

  function inPlay(view, ctx, seat) {
    const cards = Array.isArray(view.in_play) ? view.in_play : [];
    return cards.map((c, k) => c && c.controller === seat ? h("div", {
      class: ctx.cls("card" + (c.knelt ? " knelt" : ""), `in_play.${k}`), "data-card": c.id,
      style: c.knelt ? "transform: rotate(4deg); opacity: .75" : null},
    c.strength !== undefined && c.strength !== null ? h("span", {class: "rank"}, "⚔", c.strength) : null,
    h("span", {class: "name"}, c.name || ctx.label(c.id)),
    h("span", {class: "suits"}, c.knelt ? "knelt" : "standing", c.power ? ` · power ${c.power}` : "")) : null);
  }

  // instance ids name a seat's copy of a card of the edition: "p1-063-2" is core_063's name
  CH.registerLabels("thrones", (id, cards) => {
    const m = /^p\d+-(\d{3})(?:-\d+)?$/.exec(id);
    const card = m && cards[`core_${m[1]}`];
    return card && card.name ? card.name : null;
  });

  CH.registerBoard("thrones", (view, ctx) => {
    if (!Array.isArray(view.players)) return null;
    const n = view.players.length;
    return h("div", {class: "thrones"},
      h("div", {class: "stats"}, stat("round", val(ctx, "round")), stat("phase", val(ctx, "phase")),
        stat("step", val(ctx, "step")), stat("first player", val(ctx, "first_player")),
        view.winner !== null && view.winner !== undefined ? stat("winner", val(ctx, "winner")) : null),
      view.challenge ? h("div", {class: ctx.cls("flash", "challenge")}, h("b", {}, "challenge: "),
        CH.generic(view.challenge, ctx, "challenge")) : null,
      seats(ctx, n, (i) => [
        h("div", {}, val(ctx, `players.${i}.house`), view.players[i].house_knelt ? " (knelt)" : ""),
        h("div", {}, "power ", val(ctx, `players.${i}.house_power`),
          Array.isArray(view.power) ? [" · total ", val(ctx, `power.${i}`)] : null,
          " · gold ", val(ctx, `players.${i}.gold`)),
        h("div", {}, "plot ", val(ctx, `players.${i}.revealed_plot`, {tag: "span"})),
        h("div", {}, "hand ", val(ctx, `players.${i}.hand_count`), " · deck ", val(ctx, `players.${i}.deck_count`),
          " · plots ", val(ctx, `players.${i}.plot_deck_count`)),
        Array.isArray(view.players[i].hand) ? h("div", {class: "hand"}, "hand: ", chips(ctx, `players.${i}.hand`)) : null,
        h("div", {class: "row"}, inPlay(view, ctx, i)),
        h("div", {class: "note"}, "discard ", chips(ctx, `players.${i}.discard`), " dead ", chips(ctx, `players.${i}.dead`)),
      ]),
      Array.isArray(view.titles) ? h("div", {}, h("b", {}, "titles: "), chips(ctx, "titles")) : null);
  });
})();
