// Adaman (a Decktet patience): court, capital, resource row, controlled personalities.
// Every card shows its printed name, rank and suits (spec §2.4); statuses and end reasons
// read as words from the catalog's labels, while data-value keeps the raw value.
"use strict";
(() => {
  const {h, val, stat} = CH;
  const SUITS = {moons: "☾", suns: "☀", waves: "≈", leaves: "❦", wyrms: "⟆", knots: "⌘"};
  const ROWS = [[t("Court"), "court"], [t("Capital"), "capital"], [t("Resources"), "resources"],
    [t("Controlled personalities"), "controlled"]];

  function suitWords(c, ctx) {
    return (c.suits || []).map((s) => `${SUITS[s] || ""} ${ctx.label(s)}`.trim()).join(" · ");
  }

  function card(id, ctx, listPath) {
    const c = ctx.cards[id] || {};
    const fresh = listPath && ctx.isNew(listPath, id);
    const name = ctx.label(id);
    const suits = suitWords(c, ctx);
    return h("div", {class: "card" + (c.personality ? " personality" : "") + (fresh ? " changed" : ""),
      "data-card": id, "data-item": JSON.stringify(id),
      title: [name, c.rank !== undefined ? t("rank {rank}", {rank: c.rank}) : null, suits || null,
        c.personality ? t("personality") : null].filter(Boolean).join(", ")},
    c.rank !== undefined ? h("span", {class: "rank"}, c.rank) : null,
    h("span", {class: "name"}, name),
    suits ? h("span", {class: "suits"}, suits) : null);
  }

  function row(label, key, view, ctx) {
    const ids = Array.isArray(view[key]) ? view[key] : [];
    // cards that left this row at this step, shown faintly so the move reads at a glance
    const gone = ctx.prev && Array.isArray(ctx.prev[key]) ? ctx.prev[key].filter((id) => !ids.includes(id)) : [];
    return h("div", {class: "row-wrap"},
      h("div", {class: "row-label"}, `${label} (${ids.length})`),
      h("div", {class: "row", "data-row": key, "data-path": key, "data-list": true},
        ids.length ? ids.map((id) => card(id, ctx, key)) : h("span", {class: "nil"}, t("empty")),
        gone.map((id) => h("div", {class: "card gone", "data-gone": id, title: t("{card} left this row", {card: ctx.label(id)})},
          ctx.label(id)))));
  }

  const word = (ctx) => ({show: (v) => (v === null ? "—" : ctx.label(v))});

  CH.registerBoard("adaman", (view, ctx) => {
    if (!Array.isArray(view.capital)) return null;  // not the shape we know: generic view
    const discard = Array.isArray(view.discard) ? view.discard : [];
    const unseen = Array.isArray(view.unseen) ? view.unseen : null;
    return h("div", {class: "adaman"},
      h("div", {class: "stats"},
        h("span", {class: "stat player"}, h("span", {class: "pawn s0"}), " ", ctx.seatName(0)),
        stat("", val(ctx, "status", word(ctx))),
        view.end_reason ? stat(t("ended:"), val(ctx, "end_reason", word(ctx))) : null,
        stat(t("cards in the deck"), val(ctx, "deck_count")),
        stat(t("controls made"), val(ctx, "plays")),
        view.score !== null && view.score !== undefined ? stat(t("score"), val(ctx, "score")) : null),
      ROWS.map(([label, key]) => row(label, key, view, ctx)),
      h("details", {}, h("summary", {}, t("Discard ({count})", {count: discard.length})),
        h("div", {class: "row", "data-row": "discard", "data-path": "discard", "data-list": true},
          discard.map((id) => card(id, ctx, "discard")))),
      unseen ? h("details", {}, h("summary", {}, t("Still in the deck, in no known order ({count})", {count: unseen.length})),
        CH.chips(ctx, "unseen")) : null);
  });
})();
