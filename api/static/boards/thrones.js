// A Game of Thrones (first edition): the round and phase, the titles with their holders, the
// challenge being fought as a sentence, then each player's area as it lies on the table:
// House card, revealed plot, gold, characters (standing or knelt, power, attachments),
// locations, hand (card faces for its owner, a count for others) and the piles.
// Every id reads through ctx.label (the catalog's labels; instance ids below).
"use strict";
(() => {
  const {h, val, seats, t, tn, wordsList} = CH;
  const isObj = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
  const list = (x) => (Array.isArray(x) ? x : []);
  function words(items, conj = "and") {
    return wordsList(items.filter((x) => x !== null && x !== undefined && x !== ""), conj);
  }
  const cap = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);
  const cardCount = (n) => tn("{count} card", "{count} cards", n);
  // "a military challenge": the type with its article (projections/thrones/words.py)
  const aChallenge = (type) => ({military: t("a military challenge"), intrigue: t("an intrigue challenge"),
    power: t("a power challenge")})[type] || t("a {type} challenge", {type});

  // instance ids name a seat's copy of a card of the edition: "p1-063-2" is core_063's name
  // (the catalog's labels list each seat's first copy; later copies of a custom deck land here)
  CH.registerLabels("thrones", (id, cards) => {
    const m = /^p\d+-(\d{3})(?:-\d+)?$/.exec(id);
    const card = m && cards[`core_${m[1]}`];
    if (!card) return null;
    return (CH.LANG === "zh_Hans" && card.name_zh) || card.name || null;
  });

  // -- the table: round, phase, titles, the challenge -----------------------------
  // the phases of a round read "<label> phase" (projections/thrones/words.py ROUND_PHASES)
  const ROUND_PHASES = ["plot", "draw", "marshalling", "challenges", "dominance"];
  function status(view, ctx) {
    const phase = ROUND_PHASES.includes(view.phase) ? t("{phase} phase", {phase: ctx.label(view.phase)}) : ctx.label(view.phase);
    const plotStep = view.phase === "plot" && view.step ? [" (", val(ctx, "step", {tag: "span", show: (s) => ctx.label(s)}), ")"] : null;
    return h("div", {class: "th-status"},
      view.round ? [h("span", {class: "th-round"}, val(ctx, "round", {tag: "b", show: (r) => t("Round {round}", {round: r})})), " · "] : null,
      val(ctx, "phase", {tag: "span", class: "th-phase", show: () => (view.round ? phase : cap(phase))}), plotStep,
      typeof view.first_player === "number" ? [t(" · first player "),
        val(ctx, "first_player", {tag: "b", show: (s) => ctx.seatName(s)})] : null,
      list(view.tied).length ? [t(" · tied for initiative: "), words(view.tied.map((s) => ctx.seatName(s)))] : null);
  }

  function ending(view, ctx) {
    if (typeof view.winner === "number") {
      const how = {power: t(" won on power."), concession: t(" won as the others conceded.")}[view.end_reason] || t(" won.");
      return h("div", {class: ctx.cls("th-ending", "winner")}, t("Game over: "),
        val(ctx, "winner", {tag: "b", show: (s) => ctx.seatName(s)}), how);
    }
    if (list(view.pending_winner).length) {
      return h("div", {class: "th-ending"}, words(view.pending_winner.map((s) => ctx.seatName(s))),
        t(" reached the power goal together; the first player chooses the winner."));
    }
    return null;
  }

  // every entry of `titles` (a title or null per seat) is shown, as "Anna: The Master of Coin"
  function titles(view, ctx, n) {
    if (!Array.isArray(view.titles) || n < 3) return null;  // a joust has no titles (§2.5)
    if (!view.titles.some((t) => t)) {
      return h("div", {class: "th-titles"}, h("b", {}, t("Titles: ")),
        h("span", {class: ctx.cls("note", "titles")}, t("all in the Small Council Chamber")));
    }
    return h("div", {class: "th-titles"}, h("b", {}, t("Titles: ")),
      h("span", {class: ctx.cls("th-title-list", "titles"), "data-path": "titles", "data-list": true},
        view.titles.map((held, s) => h("span", {
          class: "chip th-title" + (held ? "" : " th-untitled") + (ctx.changed(`titles.${s}`) ? " changed" : ""),
          "data-item": JSON.stringify(held)},
        h("span", {class: `pawn s${s}`}), " ", ctx.seatName(s), t(": "), held ? ctx.label(held) : t("no title")))));
  }

  function challengeSentence(ch, ctx) {
    const att = ctx.seatName(ch.attacker), dfn = ctx.seatName(ch.defender);
    const head = t("{attacker} attacks {defender} with {challenge}", {attacker: att, defender: dfn, challenge: aChallenge(ch.type)});
    if (ch.step === "attackers_declared") return t("{head}; {player} declares defenders.", {head, player: dfn});
    if (ch.step === "defenders_declared") return t("{head}; {player} resolves the challenge.", {head, player: att});
    const str = list(ch.strength);
    const won = typeof ch.winner === "number"
      ? t("{player} won {high} to {low}", {player: ctx.seatName(ch.winner), high: str[0] ?? 0, low: str[1] ?? 0}) : t("nobody won");
    const pending = list(ch.pending)[0];
    if (Array.isArray(pending)) {
      const todo = {claim: t("applies the claim"), deadly: t("applies deadly"),
        targets: t("names further opponents for the claim")}[pending[0]] || t("chooses");
      return t("{head}; {won}, and {player} {todo}.", {head, won, player: ctx.seatName(pending[1]), todo});
    }
    return t("{head}; {won}.", {head, won});
  }

  function challenge(view, ctx, index) {
    const ch = view.challenge;
    if (!isObj(ch)) return null;
    const side = (key, k) => h("div", {class: "th-side"},
      h("div", {class: "th-side-head"}, k === 0 ? t("Attacking") : t("Defending"), " · ",
        val(ctx, `challenge.strength.${k}`, {tag: "b", show: (x) => t("{strength} STR", {strength: x})})),
      h("div", {class: "th-row", "data-path": `challenge.${key}`, "data-list": true},
        list(ch[key]).length ? null : h("span", {class: "note"}, k === 0 ? t("none") : ch.step === "attackers_declared" ? t("nobody yet") : t("nobody")),
        list(ch[key]).map((id) => h("span", {class: "chip th-fighter", "data-item": JSON.stringify(id)},
          ctx.label(id), index[id] && typeof index[id].strength === "number" ? ` (${index[id].strength})` : ""))));
    const stealth = isObj(ch.stealth) ? Object.entries(ch.stealth) : [];
    return h("div", {class: ctx.cls("th-challenge", "challenge"), "data-step": ch.step},
      h("div", {class: "th-sentence"}, challengeSentence(ch, ctx)),
      h("div", {class: "th-sides"}, side("attackers", 0), side("defenders", 1)),
      stealth.length ? h("div", {class: "note"}, t("Stealth: "),
        words(stealth.map(([a, b]) => t("{card} bypasses {target}", {card: ctx.label(a), target: ctx.label(b)})))) : null);
  }

  // -- a player's area ------------------------------------------------------------
  function cardFace(card, k, ctx, attached, fresh) {
    const facts = [];
    if (card.power) facts.push(h("span", {class: "th-power", title: t("power")}, "♛", card.power));
    if (list(card.duplicates).length) facts.push(h("span", {class: "th-dup"}, tn("{count} duplicate", "{count} duplicates", card.duplicates.length)));
    const base = "card th-card" + (card.knelt ? " th-knelt" : "") + (fresh ? " changed" : "");
    return h("div", {class: ctx.cls(base, `in_play.${k}`), "data-card": card.id,
      title: card.knelt ? t("knelt") : t("standing")},
    typeof card.strength === "number" ? h("span", {class: "rank", title: t("strength")}, card.strength) : null,
    h("span", {class: "th-name"}, ctx.label(card.id)),
    h("span", {class: "suits"}, card.knelt ? t("knelt") : t("standing"), facts.length ? " · " : "", facts),
    attached.length ? h("span", {class: "th-attached"}, attached.map((a) =>
      h("span", {class: "chip th-attachment" + (a.knelt ? " th-knelt" : ""), "data-card": a.id},
        ctx.label(a.id), a.knelt ? t(" (knelt)") : "", a.power ? ` ♛${a.power}` : ""))) : null);
  }

  function area(view, ctx, i, index, prevIndex) {
    const p = isObj(view.players[i]) ? view.players[i] : {};
    const cards = list(view.in_play).map((c, k) => [c, k]).filter(([c]) => isObj(c));
    const on = {};
    for (const [c] of cards) if (c.host !== null && c.host !== undefined) (on[c.host] ||= []).push(c);
    const mine = cards.filter(([c]) => c.controller === i && (c.host === null || c.host === undefined));
    const fresh = (c) => ctx.prev !== null && (!prevIndex[c.id] || JSON.stringify(prevIndex[c.id]) !== JSON.stringify(c));
    const faces = (pick) => {
      const chosen = mine.filter(([c]) => pick(c));
      return chosen.length ? chosen.map(([c, k]) => cardFace(c, k, ctx, on[c.id] || [], fresh(c)))
        : h("span", {class: "note"}, t("none"));
    };
    const title = Array.isArray(view.titles) ? view.titles[i] : null;
    const chambers = on[`house:${i}`] || [];
    const handCards = Array.isArray(p.hand) ? p.hand : null;
    return [
      h("div", {class: "th-head"},
        val(ctx, `players.${i}.house`, {tag: "b", class: "th-house", show: (x) => ctx.label(x)}),
        Array.isArray(view.power) ? [" · ", val(ctx, `power.${i}`, {tag: "b"}), t(" power")] : null,
        title ? [" · ", h("span", {class: "th-held"}, ctx.label(title))] : null,
        p.conceded ? h("span", {class: "note"}, t(" · conceded")) : null),
      h("div", {class: "th-table"},
        h("div", {class: "card th-housecard" + (p.house_knelt ? " th-knelt" : "")},
          h("span", {class: "th-label"}, t("House card")),
          h("span", {class: "th-name"}, "♛ ", val(ctx, `players.${i}.house_power`, {tag: "b"}), t(" power")),
          h("span", {class: "suits"}, p.house_knelt ? t("knelt") : t("standing")),
          chambers.length ? h("span", {class: "th-attached"}, chambers.map((a) =>
            h("span", {class: "chip th-attachment", "data-card": a.id}, ctx.label(a.id), a.power ? ` ♛${a.power}` : ""))) : null),
        h("div", {class: "card th-plot" + (p.revealed_plot ? "" : " th-facedown")},
          h("span", {class: "th-label"}, t("Plot")),
          p.revealed_plot ? val(ctx, `players.${i}.revealed_plot`, {tag: "span", class: "th-name", show: (x) => ctx.label(x)})
            : h("span", {class: "th-name note"}, p.chosen_plot ? t("{plot} (face down)", {plot: ctx.label(p.chosen_plot)})
              : p.has_chosen_plot ? t("chosen, face down") : t("none revealed"))),
        h("div", {class: "card th-gold"}, h("span", {class: "th-label"}, t("Gold")),
          h("span", {class: "th-name"}, "● ", val(ctx, `players.${i}.gold`, {tag: "b"})))),
      h("div", {class: "th-zone"}, h("div", {class: "row-label"}, t("Characters")),
        h("div", {class: "th-row"}, faces((c) => typeof c.strength === "number"))),
      h("div", {class: "th-zone"}, h("div", {class: "row-label"}, t("Locations")),
        h("div", {class: "th-row"}, faces((c) => typeof c.strength !== "number"))),
      h("div", {class: "th-zone"}, h("div", {class: "row-label"}, t("Hand"), " · ",
        val(ctx, `players.${i}.hand_count`, {tag: "span", show: (x) => cardCount(x)})),
      // .hand / .chip: the markers the hidden-information tests look for (tests/web)
      handCards ? h("div", {class: ctx.cls("th-row th-hand hand", `players.${i}.hand`), "data-path": `players.${i}.hand`, "data-list": true},
        handCards.map((id) => h("span", {class: "card chip th-handcard" + (ctx.isNew(`players.${i}.hand`, id) ? " changed" : ""),
          "data-item": JSON.stringify(id)}, h("span", {class: "th-name"}, ctx.label(id)))))
        : null),
      p.setup_count ? h("div", {class: "note"}, tn("{count} card face down for setup", "{count} cards face down for setup", p.setup_count)) : null,
      challenged(p, ctx, i),
      h("div", {class: "th-piles"},
        h("div", {}, t("Draw deck "), val(ctx, `players.${i}.deck_count`, {tag: "b"}), t(" · plot deck "),
          val(ctx, `players.${i}.plot_deck_count`, {tag: "b"})),
        pile(ctx, `players.${i}.used_plots`, t("Used plots"), t("none")),
        pile(ctx, `players.${i}.discard`, t("Discard pile"), t("empty")),
        pile(ctx, `players.${i}.dead`, t("Dead pile"), t("empty"))),
    ];
  }

  // the challenges a player has initiated this round (§8.1: each type once, plus extras)
  function challenged(p, ctx, i) {
    const used = isObj(p.challenges_used) ? Object.entries(p.challenges_used).filter(([, k]) => k) : [];
    if (!used.length) return null;
    const parts = used.map(([type], k) => [k ? (k === used.length - 1 ? t(" and ") : t(", ")) : "",
      ctx.label(type), " ", val(ctx, `players.${i}.challenges_used.${type}`,
        {tag: "span", show: (n) => (n === 1 ? t("once") : n === 2 ? t("twice") : t("{count} times", {count: n}))})]);
    return h("div", {class: "th-piles"}, h("span", {class: "th-pile-label"}, t("Challenged this round: ")), parts);
  }

  function pile(ctx, path, label, empty) {
    const items = CH.getPath(ctx.view, path);
    if (!Array.isArray(items)) return null;
    const before = ctx.prev ? CH.getPath(ctx.prev, path) : null;
    return h("div", {class: "th-pile"}, h("span", {class: "th-pile-label"}, label, t(": ")),
      h("span", {class: ctx.cls("list", path), "data-path": path, "data-list": true},
        items.length ? null : h("span", {class: "nil"}, empty),
        items.map((id) => h("span", {class: "chip" + (Array.isArray(before) && !before.includes(id) ? " changed" : ""),
          "data-item": JSON.stringify(id)}, ctx.label(id)))));
  }

  CH.registerBoard("thrones", (view, ctx) => {
    if (!Array.isArray(view.players) || !view.players.every(isObj)) return null;
    const n = view.players.length;
    if (!n && ctx.players.length) {  // before start_game: seated, no house chosen yet
      return h("div", {class: "thrones"}, status(view, ctx),
        seats(ctx, ctx.players.length, () => h("p", {class: "nil"},
          t("waiting for the houses to be chosen"))));
    }
    const index = {}, prevIndex = {};
    for (const c of list(view.in_play)) if (isObj(c)) index[c.id] = c;
    for (const c of list(ctx.prev && ctx.prev.in_play)) if (isObj(c)) prevIndex[c.id] = c;
    return h("div", {class: "thrones"},
      status(view, ctx), ending(view, ctx), titles(view, ctx, n), challenge(view, ctx, index),
      seats(ctx, n, (i) => area(view, ctx, i, index, prevIndex)));
  });
})();
