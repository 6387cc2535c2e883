// In the Shadow of the Emperor: the Empire's seven electorates (elector, aristocrat spaces,
// castle, cities, influence) in the players' colours, the Emperor on the throne, what the game
// waits for as a sentence, each player's supply and cards, and the card display.
// Every value shown from the view is marked (CH.val / data-list) so the board tests can check
// it against the state; names come from ctx.seatName, words from ctx.label (GameRules.labels).
"use strict";
(() => {
  const {h, val} = CH;
  const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"];
  const arr = (v) => (Array.isArray(v) ? v : []);
  const isSeat = (s) => Number.isInteger(s);
  const cap = (text) => CH.capitalise(text);
  const possessive = (name) => (/s$/.test(name) ? t("{name}'", {name}) : t("{name}'s", {name}));
  // the phase as the round track prints it: Roman in English, a digit in Chinese (第4阶段)
  const numeral = (p) => (CH.LANG === "en" ? ROMAN[p] : String(p));

  // the same phrases (and catalog keys) as projections/in_the_shadow_of_the_emperor/words.py
  function wordsFor(ctx) {
    const who = (s) => ctx.seatName(s);
    const whose = (s) => possessive(who(s));
    const label = (id) => String(ctx.label(id));
    const place = (id) => { const n = label(id); return / of /.test(n) && !/^the /i.test(n) ? t("the {name}", {name: n}) : n; };
    const kind = (side, age) => (side === "single" ? t("single aged {age}", {age})
      : side === "couple" ? t("couple aged {age}", {age}) : t("{side} aged {age}", {side: label(side).toLowerCase(), age}));
    const tileA = (side, age) => (side === "single" ? t("a single aged {age}", {age})
      : side === "couple" ? t("a couple aged {age}", {age}) : t("a {kind}", {kind: kind(side, age)}));
    const spot = (at) => (at === "throne" ? t("on the throne")
      : String(at).startsWith("elector:") ? t("on the elector space of {place}", {place: place(String(at).slice(8))})
        : t("in {place}", {place: place(at)}));
    const ref = (r, actor) => (!r ? t("a single aged 45 from supply")
      : t("{tile} {spot}", {tile: r.owner === actor ? t("their own {kind}", {kind: kind(r.side, r.age)})
        : t("{whose} {kind}", {whose: whose(r.owner), kind: kind(r.side, r.age)}), spot: spot(r.at)}));
    const list = (xs) => CH.wordsList(xs);
    const seats = (ss) => list(arr(ss).map(who));
    return {who, whose, label, place, kind, tileA, ref, list, seats};
  }

  const DECISIONS = {
    start_empire_city: () => t("places the first empire city on a city space"),
    start_elector: () => t("places a single aged 45 on an empty elector space"),
    start_knight: () => t("places a knight on an empty aristocrat or castle space"),
    fill_throne: () => t("refills the empty throne with a tile from an aristocrat space"),
    son: () => t("may place a son (a single aged 15) on an aristocrat space"),
    daughter: () => t("proposes a marriage for a daughter or sends her to the convent"),
    turn: () => t("takes a phase IV turn: buy a card, use a privilege, place or move a knight, or pass"),
    ci_target: () => t("names an archdiocese for Church Influence"),
    ex_target: () => t("names a secular electorate to excommunicate"),
    seat_emperor: () => t("seats a tile on the throne as the new Emperor"),
    place_former_emperor: () => t("places the former Emperor's tile on an aristocrat space or returns it to supply"),
    emperor_city: () => t("may place or move an empire city, or leave them where they are"),
  };

  function electionSentence(view, w) {
    const p = view.pending || {};
    const voters = p.kind === "vote" ? arr(p.seats) : [];
    const ballots = view.ballots && typeof view.ballots === "object" ? view.ballots : {};
    const head = t("Election: {rival} (Rival) challenges {emperor} (Emperor)", {rival: w.who(view.rival), emperor: w.who(view.emperor)});
    if (!voters.length) return t("{text}.", {text: head});
    const voted = voters.filter((s) => String(s) in ballots);
    const waiting = voters.filter((s) => !(String(s) in ballots));
    let text = tn("{text}; {players} votes in secret", "{text}; {players} vote in secret", voters.length,
      {text: head, players: w.seats(voters)});
    if (voted.length) text = tn("{text}; {players} has voted", "{text}; {players} have voted", voted.length, {text, players: w.seats(voted)});
    if (voted.length && waiting.length) text = t("{text}, {players} not yet", {text, players: w.seats(waiting)});
    return t("{text}.", {text});
  }

  function specialDecision(p, w) {
    const where = w.place(p.electorate);
    const special = {
      start_aristocrat: () => t("places {tile} on an aristocrat space", {tile: w.tileA(p.side, p.age)}),
      answer_proposal: () => t("answers {whose} marriage proposal to {tile}", {whose: w.whose(p.proposer), tile: w.ref(p.target, p.actor)}),
      break_tie: () => t("breaks the tie in {place} between {players}", {place: where, players: w.seats(p.seats)}),
      appoint_elector: () => t("appoints the new elector of {place} from own tiles there", {place: where}),
      place_former_elector: () => t("returns the former elector of {place} to its full aristocrat spaces by pushing a knight, or to supply",
        {place: where}),
    };
    return special[p.kind] ? special[p.kind]() : null;
  }

  function decisionSentence(view, w) {
    if (view.status === "awaiting_setup") return t("The table sets up the game and names the first Emperor.");
    if (view.status === "over") return t("The game is over.");
    const p = view.pending;
    if (!p || typeof p !== "object") return "";
    if (p.kind === "vote") return electionSentence(view, w);
    const what = specialDecision(p, w) || (DECISIONS[p.kind] ? DECISIONS[p.kind]() : w.label(p.kind).toLowerCase());
    return cap(t("{player} {does}.", {player: w.who(p.actor), does: what}));
  }

  function lastElectionSentence(view, w) {
    const last = view.last_election || {};
    const totals = last.totals;
    if (!Array.isArray(totals) || totals.length !== 2) return "";
    const sides = {};
    for (const [seat, choice] of Object.entries(last.ballots || {}).sort()) (sides[choice] ||= []).push(w.who(Number(seat)));
    const said = Object.entries(sides).map(([c, people]) => t("{players} for the {side}", {players: w.list(people), side: w.label(c)}));
    const [emp, riv] = totals;
    const outcome = riv > emp ? t("the Rival won {rival} votes to {emperor}", {rival: riv, emperor: emp})
      : t("the Emperor kept the throne {emperor} votes to {rival}", {emperor: emp, rival: riv});
    const ballots = said.join(CH.LANG === "zh_Hans" ? "\uff1b" : "; ");
    return cap(said.length ? t("last election: {outcome} ({ballots}).", {outcome, ballots}) : t("last election: {outcome}.", {outcome}));
  }

  // -- pieces -------------------------------------------------------------------------
  function tile(tl, w, opts = {}) {
    if (!tl || typeof tl !== "object") return h("span", {class: "emp-slot", title: t("empty")});
    const owner = isSeat(tl.owner) ? tl.owner : 9;
    return h("span", {class: `emp-tile t${owner} ${tl.side === "couple" ? "couple" : "single"}${opts.big ? " big" : ""}`,
      title: t("{whose} {kind}", {whose: w.whose(tl.owner), kind: w.kind(tl.side, tl.age)}),
      "data-item": opts.item ? JSON.stringify(tl) : null},
    opts.big ? h("span", {class: "emp-owner"}, w.who(tl.owner)) : null,
    h("span", {class: "emp-side"}, CH.LANG === "en" ? w.label(tl.side).toLowerCase() : w.label(tl.side)), " ", h("b", {}, tl.age));
  }

  function knight(seat, w) {
    return h("span", {class: `emp-knight t${isSeat(seat) ? seat : 9}`, title: t("{whose} knight", {whose: w.whose(seat)}),
      "data-item": JSON.stringify(seat)}, "♞");
  }

  function city(owner, w) {
    const empire = owner === "empire";
    return h("span", {class: `emp-city ${empire ? "empire" : `t${isSeat(owner) ? owner : 9}`}`,
      title: empire ? t("empire city") : t("{whose} city", {whose: w.whose(owner)}), "data-item": JSON.stringify(owner)},
    empire ? "♛" : "⌂");
  }

  function empties(count) {
    return Array.from({length: Math.max(0, count)}, () => h("span", {class: "emp-slot", title: t("empty space")}));
  }

  // a row of spaces: the pieces of one or two view lists, then the empty spaces
  function spaces(ctx, name, total, lists) {
    const used = lists.reduce((n, l) => n + arr(l.items).length, 0);
    const marked = lists.map((l) => h("span", {class: ctx.cls("emp-pieces", l.path), "data-path": l.path, "data-list": true},
      arr(l.items).map(l.draw)));
    return h("div", {class: "emp-row"}, h("span", {class: "emp-what"}, name,
      Number.isInteger(total) ? h("small", {}, ` ${used}/${total}`) : null),
    h("span", {class: "emp-spaces"}, marked, Number.isInteger(total) ? empties(total - used) : null));
  }

  function electorateHeader(e, w) {
    return h("header", {}, h("h4", {}, w.label(e.id)),
      h("span", {class: "emp-kind"}, e.kind === "spiritual" ? t("archdiocese") : e.kind === "secular" ? t("secular") : ""),
      e.privilege_used ? h("span", {class: "tag"}, t("privilege used")) : null);
  }

  function electorate(e, k, ctx, w) {
    const base = `electorates.${k}`;
    const influence = arr(e.influence).map((v, s) => (v ? h("span", {class: "emp-inf"},
      h("span", {class: `pawn s${s}`}), val(ctx, `${base}.influence.${s}`, {tag: "span"})) : null));
    const elector = e.elector && typeof e.elector === "object";
    return h("article", {class: "emp-e" + (ctx.changed(base) ? " touched" : "") + (e.kind === "spiritual" ? " spiritual" : ""),
      "data-electorate": e.id},
    electorateHeader(e, w),
    h("div", {class: ctx.cls("emp-elector", `${base}.elector`)}, h("span", {class: "emp-what"}, t("Elector")),
      elector ? tile(e.elector, w, {big: true}) : h("span", {class: "nil"}, t("empty seat"))),
    spaces(ctx, t("Aristocrats"), e.aristocrat_spaces, [
      {path: `${base}.court`, items: e.court, draw: (tl) => tile(tl, w, {item: true})},
      {path: `${base}.court_knights`, items: e.court_knights, draw: (s) => knight(s, w)}]),
    e.castle_spaces === 0 ? null : spaces(ctx, t("Castle"), e.castle_spaces, [
      {path: `${base}.castle_knights`, items: e.castle_knights, draw: (s) => knight(s, w)}]),
    spaces(ctx, t("Cities"), e.city_spaces, [{path: `${base}.cities`, items: e.cities, draw: (c) => city(c, w)}]),
    h("div", {class: "emp-row"}, h("span", {class: "emp-what"}, t("Influence")),
      h("span", {class: "emp-infs"}, influence.some(Boolean) ? influence : h("span", {class: "nil"}, t("nobody yet")))));
  }

  function head(view, ctx, w) {
    const phase = Number.isInteger(view.phase) ? view.phase : 0;
    const strip = h("ol", {class: "emp-phases", "aria-label": t("phases of the round")},
      ROMAN.slice(1).map((r, i) => h("li", {class: i + 1 === phase ? "now" : ""}, numeral(i + 1))));
    const setup = view.status === "awaiting_setup";
    return h("div", {class: "emp-head"},
      h("div", {class: "emp-round"}, t("Round "), val(ctx, "round"), " · ",
        val(ctx, "phase", {show: (p) => (ROMAN[p] ? t("Phase {numeral}", {numeral: numeral(p)}) : t("Setup"))}),
        view.phase_name && phase ? ` · ${w.label(view.phase_name)}` : null, strip),
      setup ? null : h("div", {class: ctx.cls("emp-emperor", "emperor")}, h("span", {class: "emp-crown", "aria-hidden": "true"}, "♔"),
        t(" Emperor "), val(ctx, "emperor", {show: (s) => w.who(s)}), h("span", {class: ctx.cls("emp-throne", "throne")},
          t(" on the throne: "), view.throne ? tile(view.throne, w) : h("span", {class: "nil"}, t("empty")))),
      Number.isInteger(view.empire_city_reserve) ? h("div", {class: "emp-reserve"},
        h("span", {class: "emp-city empire", "aria-hidden": "true"}, "♛"), t(" empire cities in reserve: "),
        val(ctx, "empire_city_reserve")) : null);
  }

  function now(view, ctx, w) {
    const lines = [];
    const decision = view.result ? "" : decisionSentence(view, w);
    if (decision) lines.push(h("p", {class: "emp-now"}, decision));
    if (view.rival !== null && view.rival !== undefined && !(view.pending && view.pending.kind === "vote")) {
      lines.push(h("p", {class: "emp-election"}, electionSentence(view, w)));
    }
    const last = lastElectionSentence(view, w);
    if (last) lines.push(h("p", {class: "note"}, last));
    const result = view.result;
    if (result && Array.isArray(result.winners)) {
      const best = Math.max(...arr(result.scores));
      const points = tn("{count} victory point", "{count} victory points", best);
      lines.unshift(h("p", {class: "emp-now over"}, result.winners.length === 1
        ? t("Game over: {players} wins with {points}.", {players: w.seats(result.winners), points})
        : t("Game over: {players} share the win with {points}.", {players: w.seats(result.winners), points})));
    }
    return lines;
  }

  function tags(view, w, i, p) {
    return h("div", {class: "emp-tags"}, view.emperor === i && view.status !== "awaiting_setup"
      ? h("span", {class: "tag emperor"}, t("♔ Emperor")) : null,
    view.rival === i ? h("span", {class: "tag"}, w.label("rival")) : null,
    view.gray_eminence_holder === i ? h("span", {class: "tag"}, w.label("gray_eminence")) : null,
    p.passed ? h("span", {class: "tag"}, t("passed")) : null);
  }

  function players(view, ctx, w, n) {
    return CH.seats(ctx, n, (i) => {
      const p = (view.players || [])[i] || {};
      const path = `players.${i}`;
      return [
        tags(view, w, i, p),
        h("div", {class: "emp-score"}, val(ctx, `${path}.vp`), t(" VP · "), val(ctx, `${path}.thalers`),
          tn(" thaler", " thalers", p.thalers)),
        h("div", {class: "emp-supply"}, t("In supply: "),
          h("span", {class: `emp-tile t${i} single mini`, "aria-hidden": "true"}), " ",
          val(ctx, `${path}.supply_tiles`, {tag: "span"}), tn(" aristocrat", " aristocrats", p.supply_tiles), " · ",
          h("span", {class: `emp-knight t${i}`, "aria-hidden": "true"}, "♞"),
          val(ctx, `${path}.supply_knights`, {tag: "span"}), tn(" knight", " knights", p.supply_knights), " · ",
          h("span", {class: `emp-city t${i}`, "aria-hidden": "true"}, "⌂"),
          val(ctx, `${path}.supply_cities`, {tag: "span"}), tn(" city", " cities", p.supply_cities)),
        h("div", {class: "emp-area"}, t("Play area: "), CH.chips(ctx, `${path}.play_area`, {empty: t("no cards")})),
      ];
    });
  }

  function display(view, ctx, w) {
    const counts = view.display && typeof view.display === "object" ? view.display : {};
    const cards = Object.entries(counts).filter(([id, k]) => k && id !== "knight");
    return h("div", {class: "emp-display"}, h("h3", {}, t("Action cards in the display")),
      h("div", {class: "emp-cards"}, cards.length ? cards.map(([id]) => {
        const info = ctx.cards[id] || {};
        return h("span", {class: `emp-card ${info.color || ""}`}, w.label(id), " ",
          val(ctx, `display.${id}`, {tag: "span", class: "emp-count", show: (k) => `×${k}`}));
      }) : h("span", {class: "nil"}, t("none"))));
  }

  CH.registerBoard("in_the_shadow_of_the_emperor", (view, ctx) => {
    if (!Array.isArray(view.electorates)) return null;
    const w = wordsFor(ctx);
    const n = Array.isArray(view.players) ? view.players.length : ctx.players.length;
    return h("div", {class: "emp"},
      head(view, ctx, w),
      now(view, ctx, w),
      h("h3", {}, t("The Empire")),
      h("div", {class: "emp-map"}, view.electorates.map((e, k) => electorate(e || {}, k, ctx, w))),
      h("p", {class: "emp-legend note"}, t("♞ knight · ⌂ city · ♛ empire city · dashed: an empty space")),
      h("h3", {}, t("Players")),
      players(view, ctx, w, n),
      display(view, ctx, w));
  });
})();
