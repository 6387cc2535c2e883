// A move built from its choices (issue #29; README, "Choices"): the recorder and the seat
// pages ask the rules what may be chosen next (GET /games/<id>/choices, or the same rules
// on the tablet offline) and show it as labelled buttons: first the action types open now
// (the menu), then each choice's options under their group headings, a list picked one at
// a time with "done" where it may end, an undo of the last pick, and the sentence the move
// will be recorded as before Record. No rule is here: what is offered, the words on every
// button and the move posted are the rules' own, so this file cannot offer an illegal move
// or miss a legal one. The transport (server or tablet) is the caller's.
"use strict";
(() => {
  const {h} = CH;

  // Make one builder in `box`. opts:
  //   ask(query) -> Promise of the choices document (query: {type, actor, picks} or {})
  //   submit(move) -> record the move (the caller posts it and refreshes)
  //   players: the names by seat; chance: {type: [fields]} the table taps as outcomes
  //   changed(): the person changed the move (a refusal shown no longer applies)
  //   failed(err): a read of the choices failed
  //   preview(move or null, picks): the move as made so far, for the board to show
  //   deal: the action types whose outcomes, a layout not laid yet, this tablet may deal
  function builder(box, opts) {
    let menu = null, firsts = [], sel = null, picks = [], said = [], answer = null, seq = null;
    let asking = 0, busy = false;
    const who = (actor) => CH.actorName(actor, opts.players);

    // the game moved on (a move recorded here or elsewhere): the move starts again
    async function show(doc) {
      if (doc.last_seq !== seq) {
        seq = doc.last_seq; sel = null; picks = []; said = []; answer = null; menu = null;
      }
      if (!menu) {
        const n = ++asking;
        box.dataset.loading = "yes";
        const got = await opts.ask({}).catch((err) => { opts.failed(err); return {actions: []}; });
        if (n !== asking) return;
        menu = got.actions || [];
        // one thing to do: no tap to choose it (a setup, a deal, a forced move)
        if (menu.length === 1 && !sel) sel = menu[0];
        // several: each one's first choice, so its options can be tapped from the menu
        // (a piece, then its squares: one tap fewer per move)
        firsts = menu.length > 1 ? await Promise.all(menu.map((item) =>
          opts.ask({type: item.type, actor: item.actor, picks: []}).catch(() => null))) : [];
        if (n !== asking) return;
      }
      if (sel && !answer) { await walk(); return; }
      draw();
    }

    // where the picks stand now, from the rules
    async function walk() {
      const n = ++asking;
      box.dataset.loading = "yes";
      try {
        const got = await opts.ask({type: sel.type, actor: sel.actor, picks});
        if (n !== asking) return;
        answer = got;
      } catch (err) {
        if (n !== asking) return;
        // a pick the rules no longer offer (the game moved on): take it back, say why
        if (picks.length) { picks.pop(); said.pop(); }
        opts.failed(err);
        if (picks.length || sel) {
          try { answer = await opts.ask({type: sel.type, actor: sel.actor, picks}); } catch (e) { sel = null; answer = null; }
        }
      }
      draw();
    }

    function choose(item) { sel = item; picks = []; said = []; answer = null; opts.changed(); walk(); }
    // an option of an action's first choice, tapped in the menu: the action and the pick
    function chooseWith(item, choice, option) {
      sel = item; picks = [{choice: choice.id, value: option.value}]; said = [{choice, label: option.label}];
      answer = null; opts.changed(); walk();
    }
    function back() { sel = null; picks = []; said = []; answer = null; opts.changed(); draw(); }
    function pick(choice, option) {
      picks.push({choice: choice.id, value: option.value});
      said.push({choice, label: option.label}); opts.changed(); walk();
    }
    function end(choice) {
      picks.push({choice: choice.id, end: true}); said.push({choice, label: null}); opts.changed(); walk();
    }
    function unpick() {
      picks.pop(); said.pop(); opts.changed(); walk();
    }

    // "Deal the rest here": a layout the table has not laid yet (Palais Royal's court and
    // garden) dealt by this tablet, each remaining space an even draw among the pieces the
    // rules still offer, for the table to lay out as the board then shows. Every pick is
    // still the rules' answer, so the deal is one the rules accept; Undo last pick and the
    // options stay to correct a piece laid otherwise. 1 tap instead of one per space.
    const fair = (n) => {  // an even draw in [0, n), with no modulo bias
      const cut = Math.floor(0x100000000 / n) * n, x = new Uint32Array(1);
      do crypto.getRandomValues(x); while (x[0] >= cut);
      return x[0] % n;
    };
    async function dealRest() {
      if (busy) return;
      busy = true; opts.changed();
      const n = ++asking;
      box.dataset.loading = "yes";
      try {
        let choice = answer && answer.choice;
        while (choice && choice.kind === "one" && choice.options.length && isOutcome(sel.type, choice)) {
          const option = choice.options[fair(choice.options.length)];
          picks.push({choice: choice.id, value: option.value}); said.push({choice, label: option.label});
          answer = await opts.ask({type: sel.type, actor: sel.actor, picks});
          if (n !== asking) return;
          choice = answer.choice;
        }
      } catch (err) {
        if (picks.length) { picks.pop(); said.pop(); }
        opts.failed(err);
        answer = null; busy = false; walk(); return;
      } finally { busy = false; }
      draw();
    }

    // the data chosen so far, assembled from the picks as the rules' walk assembles it
    // (projections/choices.Made): a "one" sets its place, a list appends; for the board's
    // preview only, never posted (the rules' `move` is what is posted)
    function made() {
      const data = {};
      for (const {choice, value} of said.map((s, i) => ({choice: s.choice, value: picks[i]}))) {
        const path = String(choice.id).split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
        let o = data;
        path.slice(0, -1).forEach((k, i) => {
          if (o[k] === undefined || o[k] === null) o[k] = typeof path[i + 1] === "number" ? [] : {};
          o = o[k];
        });
        const last = path[path.length - 1];
        if (choice.kind === "one") o[last] = value.value;
        else if (choice.kind === "tally") {  // a mapping of counts: one more of the value
          o[last] = {...(o[last] && typeof o[last] === "object" ? o[last] : {})};
          if (!value.end) o[last][value.value] = (o[last][value.value] || 0) + 1;
        }
        else if (!value.end) o[last] = [...(Array.isArray(o[last]) ? o[last] : []), value.value];
        else if (!Array.isArray(o[last])) o[last] = [];
      }
      return data;
    }

    const isOutcome = (type, choice) => ((opts.chance || {})[type] || []).includes(String(choice.id).split(".")[0]);

    function draw() {
      delete box.dataset.loading;
      if (!sel) { drawMenu(); opts.preview(null, null); return; }
      const choice = answer && answer.choice;
      const move = answer && answer.move;
      const outcome = choice ? isOutcome(sel.type, choice) : false;
      const parts = [h("div", {class: "builder-head"},
        h("h3", {}, actorHead(sel), sel.label),
        menu && menu.length > 1 ? h("button", {type: "button", class: "back", "data-back": "yes", onclick: back}, t("Other move")) : null)];
      // what is chosen so far, a list's picks on one line under the words it was last
      // asked in (a prompt may count what is picked); the list being picked now shows
      // its picks in its own panel
      const rows = [];
      for (const s of said) {
        const last = rows[rows.length - 1];
        if (last && last.choice.id === s.choice.id) { last.labels.push(s.label); last.choice = s.choice; }
        else rows.push({choice: s.choice, labels: [s.label]});
      }
      const open = choice && rows.length && rows[rows.length - 1].choice.id === choice.id ? rows.pop() : null;
      const list = h("ul", {class: "made"}, rows.map((r) => h("li", {},
        h("span", {class: "what"}, `${r.choice.prompt}: `),
        r.labels.filter((l) => l !== null).join(", ") || t("none"))));
      // a long move (a whole layout): what is chosen folds away, the last choice shown,
      // so the options stay in view (the board shows the layout so far)
      if (rows.length > 4) {
        const last = rows[rows.length - 1];
        parts.push(h("details", {class: "made-all"}, h("summary", {},
          t("{count} choices made; the last: {prompt}: {picked}", {count: rows.length, prompt: last.choice.prompt,
            picked: last.labels.filter((l) => l !== null).join(", ") || t("none")})), list));
      } else {
        parts.push(list);
      }
      if (choice) parts.push(choicePanel(choice, outcome, move, open ? open.labels.filter((l) => l !== null) : []));
      // always in view at the foot of the pane: the sentence, undo, Record
      const ready = Boolean(move) && !busy;
      parts.push(h("div", {class: "builder-foot"},
        h("p", {class: "move-sentence", "data-sentence": move && answer.sentence ? "yes" : null},
          move && answer.sentence ? CH.capitalise(answer.sentence) : choice ? t("Still to choose: {prompt}", {prompt: choice.prompt}) : ""),
        h("div", {class: "foot-buttons"},
          h("button", {type: "button", class: "undo-pick", "data-undo-pick": "yes", disabled: !picks.length, onclick: unpick}, "↶ " + t("Undo last pick")),
          h("button", {type: "button", class: "primary record-action", disabled: !ready,
            "data-ready": move ? "yes" : null, onclick: () => record(move)}, t("Record")))));
      box.replaceChildren(h("div", {class: "move-builder action-group", "data-type": sel.type, "data-actor": JSON.stringify(sel.actor),
        "data-picks": JSON.stringify(picks), "data-move": move ? JSON.stringify(move) : ""}, parts));
      opts.preview(move ? move.data : picks.length ? made() : null, sel);
    }

    function actorHead(item) {
      return item.actor === "table" ? null : h("span", {class: "who"}, `${who(item.actor)}: `);
    }

    function drawMenu() {
      if (!menu || !menu.length) {
        box.replaceChildren(h("p", {class: "note"}, opts.idle()));
        return;
      }
      // by actor, in the order the rules list them (the table recorder acts for every seat)
      const actors = [];
      for (const item of menu) if (!actors.some((a) => JSON.stringify(a) === JSON.stringify(item.actor))) actors.push(item.actor);
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      box.replaceChildren(h("div", {class: "move-menu action-group"}, actors.map((actor) => h("section", {class: "menu-actor"},
        actors.length > 1 || actor !== "table" ? h("h3", {}, CH.capitalise(who(actor))) : null,
        menu.map((item, i) => [item, i]).filter(([item]) => same(item.actor, actor)).map(([item, i]) => menuItem(item, firsts[i]))))));
    }

    // An action type of the menu: its button, and under it, when its first choice is of
    // one option among a few, those options to tap at once, under their group headings
    function menuItem(item, first) {
      const choice = first && first.choice;
      const inline = choice && choice.kind === "one" && choice.options.length <= 12 &&
        !isOutcome(item.type, choice) ? choice : null;
      const button = (o) => h("button", {type: "button", class: "option", "data-action-option": item.type,
        "data-actor": JSON.stringify(item.actor), "data-choice": inline.id, "data-value": JSON.stringify(o.value),
        onclick: () => chooseWith(item, inline, o)},
      h("span", {class: "label"}, CH.capitalise(o.label)), o.detail ? h("span", {class: "detail"}, o.detail) : null);
      return h("div", {class: "menu-item"},
        h("div", {class: "menu-head"},
          h("button", {type: "button", class: "option action", "data-action": item.type, "data-actor": JSON.stringify(item.actor),
            onclick: () => choose(item)}, item.label),
          inline ? h("span", {class: "note"}, `${inline.prompt}:`) : null),
        inline ? h("div", {class: "inline", "data-first": inline.id}, grouped(inline.options).map((g) =>
          h("div", {class: "group", "data-group": g.name || null}, g.name ? h("h4", {}, g.name) : null,
            h("div", {class: "choices"}, g.options.map(button))))) : null);
    }

    function grouped(options) {
      const groups = [];
      for (const o of options) {
        const g = o.group || "";
        let found = groups.find((x) => x.name === g);
        if (!found) { found = {name: g, options: []}; groups.push(found); }
        found.options.push(o);
      }
      return groups;
    }

    // One choice: its prompt, how many are picked and may be, the options under their
    // group headings (a jump row to the headings when the options are many), "done".
    function choicePanel(choice, outcome, move, picked) {
      const mine = picked.length;
      const list = choice.kind !== "one";
      const count = list ? countText(mine, choice) : "";
      const groups = grouped(choice.options);
      const button = (o) => h("button", {type: "button", class: "option", "data-value": JSON.stringify(o.value),
        onclick: () => pick(choice, o)}, h("span", {class: "label"}, CH.capitalise(o.label)),
      o.detail ? h("span", {class: "detail"}, o.detail) : null);
      const named = groups.filter((g) => g.name);
      const many = choice.options.length > 16 && named.length > 1;
      const ends = list && choice.can_end && !move;
      return h("section", {class: `choice${outcome ? " outcome" : ""}`, "data-choice": choice.id, "data-kind": choice.kind,
        "data-outcome": outcome ? "yes" : null},
      h("div", {class: "prompt"}, outcome ? h("span", {class: "tag"}, t("tap what was seen")) : null, choice.prompt,
        count ? h("span", {class: "count"}, ` ${count}`) : null),
      picked.length ? h("div", {class: "picked"}, t("Picked: "), h("b", {}, counted(picked).join(", "))) : null,
      many ? h("nav", {class: "jump"}, named.map((g) => h("button", {type: "button", class: "small",
        onclick: (e) => { const el = e.target.closest(".choice").querySelector(`[data-group="${CSS.escape(g.name)}"]`); if (el) el.scrollIntoView({block: "start"}); }},
      g.name))) : null,
      groups.map((g) => h("div", {class: "group", "data-group": g.name || null},
        g.name ? h("h4", {}, g.name) : null,
        h("div", {class: "choices"}, g.options.map(button)))),
      choice.options.length ? null : h("p", {class: "note"}, t("nothing more to pick")),
      outcome && (opts.deal || []).includes(sel.type) && choice.kind === "one" && choice.options.length > 1
        ? h("div", {class: "deal"}, h("button", {type: "button", class: "deal-rest", "data-deal": "yes", onclick: dealRest},
          t("Deal the rest here")), h("span", {class: "note"}, t(" then lay the pieces as the board shows")))
        : null,
      ends ? h("button", {type: "button", class: "end", "data-end": "yes", onclick: () => end(choice)}, t("Done: no more")) : null);
    }

    // "Gate ×2, Office" for a tally's picks (the same label tapped more than once)
    function counted(labels) {
      const n = new Map();
      for (const l of labels) n.set(l, (n.get(l) || 0) + 1);
      return [...n.entries()].map(([l, k]) => (k > 1 ? `${l} ×${k}` : l));
    }

    function countText(n, choice) {
      const {fewest, most} = choice;
      if (most !== null && most !== undefined && fewest === most) return t("({count} of {most})", {count: n, most});
      if (most !== null && most !== undefined) {
        return fewest ? t("({count} picked, at most {most}, at least {fewest})", {count: n, most, fewest})
          : t("({count} picked, at most {most})", {count: n, most});
      }
      if (fewest) return t("({count} picked, at least {fewest})", {count: n, fewest});
      return n ? t("({count} picked)", {count: n}) : "";
    }

    async function record(move) {
      if (!move || busy) return;
      busy = true; draw();
      try { await opts.submit(move); } finally { busy = false; if (sel) draw(); }
    }

    return {show, reset: () => { seq = null; }, picks: () => picks};
  }

  // A board may preview a move as made so far (Palais Royal's garden as laid out):
  // CH.registerPreview(slug, (view, data, action) -> the view with the move in, or null)
  const previews = {};
  CH.registerPreview = (slug, fn) => { previews[slug] = fn; };
  CH.preview = (slug, view, data, action) => (previews[slug] && data ? previews[slug](view, data, action) : null);

  CH.choices = {builder};
})();
