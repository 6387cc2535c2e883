// Adaman (a Decktet patience): capital, court, resource row, controlled personalities.
"use strict";
(() => {
  const {h} = CH;
  const SUITS = {moons: "☾", suns: "☀", waves: "≈", leaves: "❦", wyrms: "⟆", knots: "⌘"};

  function card(id, ctx, listPath, extra = {}) {
    const c = ctx.cards[id] || {};
    const fresh = listPath && ctx.isNew(listPath, id);
    return h("div", Object.assign({class: "card" + (c.personality ? " personality" : "") + (fresh ? " changed" : ""),
      "data-card": id, "data-item": JSON.stringify(id), title: id}, extra),
      c.rank !== undefined ? h("span", {class: "rank"}, c.rank) : null,
      h("span", {class: "name"}, c.name || id),
      c.suits ? h("span", {class: "suits"}, c.suits.map((s) => `${SUITS[s] || ""} ${s}`).join(" · ")) : null);
  }

  function row(label, key, view, ctx) {
    const ids = Array.isArray(view[key]) ? view[key] : [];
    // cards that left this row at this step, shown faintly so the move reads at a glance
    const gone = ctx.prev && Array.isArray(ctx.prev[key]) ? ctx.prev[key].filter((id) => !ids.includes(id)) : [];
    return h("div", {class: "row-wrap"},
      h("div", {class: "row-label"}, `${label} (${ids.length})`),
      h("div", {class: "row", "data-row": key, "data-path": key, "data-list": true},
        ids.length ? ids.map((id) => card(id, ctx, key)) : h("span", {class: "nil"}, "empty"),
        gone.map((id) => h("div", {class: "card gone", "data-gone": id, style: "opacity:.35;text-decoration:line-through"},
          (ctx.cards[id] || {}).name || id))));
  }

  CH.registerBoard("adaman", (view, ctx) => {
    if (!Array.isArray(view.capital)) return null;  // not the shape we know: generic view
      return h("div", {class: "adaman"},
      h("div", {class: "stats"},
        h("span", {}, "status ", CH.val(ctx, "status")),
        view.end_reason ? h("span", {}, "reason ", CH.val(ctx, "end_reason")) : null,
        h("span", {}, "deck ", CH.val(ctx, "deck_count")),
        h("span", {}, "plays ", CH.val(ctx, "plays")),
        h("span", {}, "score ", CH.val(ctx, "score"))),
      row("Capital", "capital", view, ctx),
      row("Court", "court", view, ctx),
      row("Resources", "resources", view, ctx),
      row("Controlled personalities", "controlled", view, ctx),
      h("details", {}, h("summary", {}, `Discard (${(view.discard || []).length})`),
        h("div", {class: "row", "data-row": "discard", "data-path": "discard", "data-list": true}, (view.discard || []).map((id) => card(id, ctx, "discard")))));
  });
})();
