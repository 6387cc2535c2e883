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
  const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);
  const possessive = (name) => (/s$/.test(name) ? `${name}'` : `${name}'s`);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;
  // the word after a number shown by CH.val: " knight" / " knights"
  const noun = (n, one, many) => ` ${n === 1 ? one : (many || one + "s")}`;

  // the same phrases as projections/in_the_shadow_of_the_emperor_words.py
  function wordsFor(ctx) {
    const who = (s) => ctx.seatName(s);
    const whose = (s) => possessive(who(s));
    const label = (id) => String(ctx.label(id));
    const place = (id) => { const t = label(id); return / of /.test(t) && !/^the /i.test(t) ? `the ${t}` : t; };
    const kind = (side, age) => `${label(side).toLowerCase()} aged ${age}`;
    const spot = (at) => (at === "throne" ? "on the throne"
      : String(at).startsWith("elector:") ? `on the elector space of ${place(String(at).slice(8))}` : `in ${place(at)}`);
    const ref = (r, actor) => (!r ? "a single aged 45 from supply"
      : `${r.owner === actor ? "their own" : whose(r.owner)} ${kind(r.side, r.age)} ${spot(r.at)}`);
    const list = (xs) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
    const seats = (ss) => list(arr(ss).map(who));
    return {who, whose, label, place, kind, ref, list, seats};
  }

  const DECISIONS = {
    start_empire_city: "places the first empire city on a city space",
    start_elector: "places a single aged 45 on an empty elector space",
    start_knight: "places a knight on an empty aristocrat or castle space",
    fill_throne: "refills the empty throne with a tile from an aristocrat space",
    son: "may place a son (a single aged 15) on an aristocrat space",
    daughter: "proposes a marriage for a daughter or sends her to the convent",
    turn: "takes a phase IV turn: buy a card, use a privilege, place or move a knight, or pass",
    ci_target: "names an archdiocese for Church Influence",
    ex_target: "names a secular electorate to excommunicate",
    seat_emperor: "seats a tile on the throne as the new Emperor",
    place_former_emperor: "places the former Emperor's tile on an aristocrat space or returns it to supply",
    emperor_city: "may place or move an empire city, or leave them where they are",
  };

  function electionSentence(view, w) {
    const p = view.pending || {};
    const voters = p.kind === "vote" ? arr(p.seats) : [];
    const ballots = view.ballots && typeof view.ballots === "object" ? view.ballots : {};
    const head = `Election: ${w.who(view.rival)} (Rival) challenges ${w.who(view.emperor)} (Emperor)`;
    if (!voters.length) return head + ".";
    const voted = voters.filter((s) => String(s) in ballots);
    const waiting = voters.filter((s) => !(String(s) in ballots));
    let text = `${head}; ${w.seats(voters)} ${voters.length === 1 ? "votes" : "vote"} in secret`;
    if (voted.length) text += `; ${w.seats(voted)} ${voted.length === 1 ? "has" : "have"} voted`;
    if (voted.length && waiting.length) text += `, ${w.seats(waiting)} not yet`;
    return text + ".";
  }

  function decisionSentence(view, w) {
    if (view.status === "awaiting_setup") return "The table sets up the game and names the first Emperor.";
    if (view.status === "over") return "The game is over.";
    const p = view.pending;
    if (!p || typeof p !== "object") return "";
    if (p.kind === "vote") return electionSentence(view, w);
    const where = w.place(p.electorate);
    const special = {
      start_aristocrat: () => `places a ${w.kind(p.side, p.age)} on an aristocrat space`,
      answer_proposal: () => `answers ${w.whose(p.proposer)} marriage proposal to ${w.ref(p.target, p.actor)}`,
      break_tie: () => `breaks the tie in ${where} between ${w.seats(p.seats)}`,
      appoint_elector: () => `appoints the new elector of ${where} from own tiles there`,
      place_former_elector: () => `returns the former elector of ${where} to its full aristocrat spaces by pushing a knight, or to supply`,
    };
    const what = special[p.kind] ? special[p.kind]() : (DECISIONS[p.kind] || w.label(p.kind).toLowerCase());
    return cap(`${w.who(p.actor)} ${what}.`);
  }

  function lastElectionSentence(view, w) {
    const last = view.last_election || {};
    const totals = last.totals;
    if (!Array.isArray(totals) || totals.length !== 2) return "";
    const sides = {};
    for (const [seat, choice] of Object.entries(last.ballots || {}).sort()) (sides[choice] ||= []).push(w.who(Number(seat)));
    const said = Object.entries(sides).map(([c, people]) => `${w.list(people)} for the ${w.label(c)}`);
    const [emp, riv] = totals;
    const outcome = riv > emp ? `the Rival won ${riv} votes to ${emp}` : `the Emperor kept the throne ${emp} votes to ${riv}`;
    return `Last election: ${outcome}${said.length ? ` (${said.join("; ")})` : ""}.`;
  }

  // -- pieces -------------------------------------------------------------------------
  function tile(t, w, opts = {}) {
    if (!t || typeof t !== "object") return h("span", {class: "emp-slot", title: "empty"});
    const owner = isSeat(t.owner) ? t.owner : 9;
    return h("span", {class: `emp-tile t${owner} ${t.side === "couple" ? "couple" : "single"}${opts.big ? " big" : ""}`,
      title: `${w.whose(t.owner)} ${w.kind(t.side, t.age)}`, "data-item": opts.item ? JSON.stringify(t) : null},
    opts.big ? h("span", {class: "emp-owner"}, w.who(t.owner)) : null,
    h("span", {class: "emp-side"}, w.label(t.side).toLowerCase()), " ", h("b", {}, t.age));
  }

  function knight(seat, w) {
    return h("span", {class: `emp-knight t${isSeat(seat) ? seat : 9}`, title: `${w.whose(seat)} knight`,
      "data-item": JSON.stringify(seat)}, "♞");
  }

  function city(owner, w) {
    const empire = owner === "empire";
    return h("span", {class: `emp-city ${empire ? "empire" : `t${isSeat(owner) ? owner : 9}`}`,
      title: empire ? "empire city" : `${w.whose(owner)} city`, "data-item": JSON.stringify(owner)},
    empire ? "♛" : "⌂");
  }

  function empties(count) {
    return Array.from({length: Math.max(0, count)}, () => h("span", {class: "emp-slot", title: "empty space"}));
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

  function electorate(e, k, ctx, w) {
    const base = `electorates.${k}`;
    const influence = arr(e.influence).map((v, s) => (v ? h("span", {class: "emp-inf"},
      h("span", {class: `pawn s${s}`}), val(ctx, `${base}.influence.${s}`, {tag: "span"})) : null));
    const elector = e.elector && typeof e.elector === "object";
    return h("article", {class: "emp-e" + (ctx.changed(base) ? " touched" : "") + (e.kind === "spiritual" ? " spiritual" : ""),
      "data-electorate": e.id},
    h("header", {}, h("h4", {}, w.label(e.id)),
      h("span", {class: "emp-kind"}, e.kind === "spiritual" ? "archdiocese" : e.kind === "secular" ? "secular" : ""),
      e.privilege_used ? h("span", {class: "tag"}, "privilege used") : null),
    h("div", {class: ctx.cls("emp-elector", `${base}.elector`)}, h("span", {class: "emp-what"}, "Elector"),
      elector ? tile(e.elector, w, {big: true}) : h("span", {class: "nil"}, "empty seat")),
    spaces(ctx, "Aristocrats", e.aristocrat_spaces, [
      {path: `${base}.court`, items: e.court, draw: (t) => tile(t, w, {item: true})},
      {path: `${base}.court_knights`, items: e.court_knights, draw: (s) => knight(s, w)}]),
    e.castle_spaces === 0 ? null : spaces(ctx, "Castle", e.castle_spaces, [
      {path: `${base}.castle_knights`, items: e.castle_knights, draw: (s) => knight(s, w)}]),
    spaces(ctx, "Cities", e.city_spaces, [{path: `${base}.cities`, items: e.cities, draw: (c) => city(c, w)}]),
    h("div", {class: "emp-row"}, h("span", {class: "emp-what"}, "Influence"),
      h("span", {class: "emp-infs"}, influence.some(Boolean) ? influence : h("span", {class: "nil"}, "nobody yet"))));
  }

  function head(view, ctx, w) {
    const phase = Number.isInteger(view.phase) ? view.phase : 0;
    const strip = h("ol", {class: "emp-phases", "aria-label": "phases of the round"},
      ROMAN.slice(1).map((r, i) => h("li", {class: i + 1 === phase ? "now" : ""}, r)));
    const setup = view.status === "awaiting_setup";
    return h("div", {class: "emp-head"},
      h("div", {class: "emp-round"}, "Round ", val(ctx, "round"), " · ",
        val(ctx, "phase", {show: (p) => (ROMAN[p] ? `Phase ${ROMAN[p]}` : "Setup")}),
        view.phase_name && phase ? ` · ${w.label(view.phase_name)}` : null, strip),
      setup ? null : h("div", {class: ctx.cls("emp-emperor", "emperor")}, h("span", {class: "emp-crown", "aria-hidden": "true"}, "♔"),
        " Emperor ", val(ctx, "emperor", {show: (s) => w.who(s)}), h("span", {class: ctx.cls("emp-throne", "throne")},
          " on the throne: ", view.throne ? tile(view.throne, w) : h("span", {class: "nil"}, "empty"))),
      Number.isInteger(view.empire_city_reserve) ? h("div", {class: "emp-reserve"},
        h("span", {class: "emp-city empire", "aria-hidden": "true"}, "♛"), " empire cities in reserve: ",
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
      lines.unshift(h("p", {class: "emp-now over"}, `Game over: ${w.seats(result.winners)} `,
        result.winners.length === 1 ? "wins" : "share the win", ` with ${plural(best, "victory point")}.`));
    }
    return lines;
  }

  function players(view, ctx, w, n) {
    return CH.seats(ctx, n, (i) => {
      const p = (view.players || [])[i] || {};
      const path = `players.${i}`;
      return [
        h("div", {class: "emp-tags"}, view.emperor === i && view.status !== "awaiting_setup"
          ? h("span", {class: "tag emperor"}, "♔ Emperor") : null,
          view.rival === i ? h("span", {class: "tag"}, "Rival") : null,
          view.gray_eminence_holder === i ? h("span", {class: "tag"}, w.label("gray_eminence")) : null,
          p.passed ? h("span", {class: "tag"}, "passed") : null),
        h("div", {class: "emp-score"}, val(ctx, `${path}.vp`), " VP · ", val(ctx, `${path}.thalers`),
          noun(p.thalers, "thaler")),
        h("div", {class: "emp-supply"}, "In supply: ",
          h("span", {class: `emp-tile t${i} single mini`, "aria-hidden": "true"}), " ",
          val(ctx, `${path}.supply_tiles`, {tag: "span"}), noun(p.supply_tiles, "aristocrat"), " · ",
          h("span", {class: `emp-knight t${i}`, "aria-hidden": "true"}, "♞"),
          val(ctx, `${path}.supply_knights`, {tag: "span"}), noun(p.supply_knights, "knight"), " · ",
          h("span", {class: `emp-city t${i}`, "aria-hidden": "true"}, "⌂"),
          val(ctx, `${path}.supply_cities`, {tag: "span"}), noun(p.supply_cities, "city", "cities")),
        h("div", {class: "emp-area"}, "Play area: ", CH.chips(ctx, `${path}.play_area`, {empty: "no cards"})),
      ];
    });
  }

  function display(view, ctx, w) {
    const counts = view.display && typeof view.display === "object" ? view.display : {};
    const cards = Object.entries(counts).filter(([id, k]) => k && id !== "knight");
    return h("div", {class: "emp-display"}, h("h3", {}, "Action cards in the display"),
      h("div", {class: "emp-cards"}, cards.length ? cards.map(([id]) => {
        const info = ctx.cards[id] || {};
        return h("span", {class: `emp-card ${info.color || ""}`}, w.label(id), " ",
          val(ctx, `display.${id}`, {tag: "span", class: "emp-count", show: (k) => `×${k}`}));
      }) : h("span", {class: "nil"}, "none")));
  }

  CH.registerBoard("in_the_shadow_of_the_emperor", (view, ctx) => {
    if (!Array.isArray(view.electorates)) return null;
    const w = wordsFor(ctx);
    const n = Array.isArray(view.players) ? view.players.length : ctx.players.length;
    return h("div", {class: "emp"},
      head(view, ctx, w),
      now(view, ctx, w),
      h("h3", {}, "The Empire"),
      h("div", {class: "emp-map"}, view.electorates.map((e, k) => electorate(e || {}, k, ctx, w))),
      h("p", {class: "emp-legend note"}, "♞ knight · ⌂ city · ♛ empire city · dashed: an empty space"),
      h("h3", {}, "Players"),
      players(view, ctx, w, n),
      display(view, ctx, w));
  });
})();
