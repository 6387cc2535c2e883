// In the Shadow of the Emperor: the electors board (seven electorates with their elector,
// court, knights, cities and influence), the throne and each player's supply and VP.
"use strict";
(() => {
  const {h, val, seats, stat} = CH;

  function tile(t, ctx) {
    if (!t || typeof t !== "object") return h("span", {class: "nil"}, "—");
    return h("span", {class: "chip", title: `${ctx.players[t.owner] ?? t.owner}`},
      h("span", {class: `pawn s${t.owner}`}), ` ${t.side || ""} ${t.age ?? ""}`);
  }

  function pawns(list) {
    return Array.isArray(list) ? list.map((s) => typeof s === "number"
      ? h("span", {class: `pawn s${s}`}) : h("span", {class: "chip"}, String(s))) : null;
  }

  CH.registerBoard("in_the_shadow_of_the_emperor", (view, ctx) => {
    if (!Array.isArray(view.electorates)) return null;
    const n = Array.isArray(view.players) ? view.players.length : ctx.players.length;
    return h("div", {class: "emperor"},
      h("div", {class: "stats"}, stat("round", val(ctx, "round")), stat("phase", val(ctx, "phase")),
        stat("emperor", val(ctx, "emperor")), h("span", {}, "throne ", tile(view.throne, ctx)),
        view.pending ? stat("waiting for", val(ctx, "pending.kind")) : null),
      seats(ctx, n, (i) => [
        h("div", {}, "VP ", val(ctx, `players.${i}.vp`), " · thalers ", val(ctx, `players.${i}.thalers`)),
        h("div", {}, "supply: tiles ", val(ctx, `players.${i}.supply_tiles`), " · knights ",
          val(ctx, `players.${i}.supply_knights`), " · cities ", val(ctx, `players.${i}.supply_cities`)),
        h("div", {}, "cards: ", CH.chips(ctx, `players.${i}.play_area`)),
        view.players && view.players[i] && view.players[i].passed ? h("div", {class: "tag"}, "passed") : null,
      ]),
      h("h3", {}, "Electorates"),
      h("div", {class: "map"}, view.electorates.map((e, k) => h("div", {class: ctx.cls("city", `electorates.${k}`), "data-electorate": e.id},
        h("h4", {}, ctx.label(e.id)),
        h("div", {}, "elector: ", tile(e.elector, ctx)),
        h("div", {}, "court: ", (e.court || []).map((t) => tile(t, ctx))),
        h("div", {}, "knights: court ", pawns(e.court_knights), " castle ", pawns(e.castle_knights)),
        h("div", {}, "cities: ", pawns(e.cities)),
        Array.isArray(e.influence) ? h("div", {}, "influence: ", e.influence.map((v, s) =>
          h("span", {}, h("span", {class: `pawn s${s}`}), val(ctx, `electorates.${k}.influence.${s}`, {tag: "span"}), " "))) : null,
        e.privilege_used ? h("div", {class: "tag"}, "privilege used") : null))),
      view.display ? h("div", {}, h("b", {}, "card display: "), Object.entries(view.display).map(([c, k]) =>
        h("span", {class: "chip"}, `${c.replace(/_/g, " ")} ×${k}`))) : null);
  });
})();
