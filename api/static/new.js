// The new-game form: the game, player names in seat order, table or digital, options.
"use strict";
(() => {
  const {h, api} = CH;
  const $ = (id) => document.getElementById(id);
  let games = {};

  function playerRow(name) {
    const li = h("li", {},
      h("input", {name: "player", value: name, required: true, "aria-label": t("player name"), autocomplete: "off"}),
      h("button", {type: "button", title: t("earlier seat"), onclick: () => li.previousElementSibling && li.previousElementSibling.before(li)}, "↑"),
      h("button", {type: "button", title: t("later seat"), onclick: () => li.nextElementSibling && li.nextElementSibling.after(li)}, "↓"),
      h("button", {type: "button", title: t("remove"), onclick: () => li.remove()}, "✕"));
    return li;
  }

  // an option's words: the game's own label (the catalog's, in the page's language), else its key
  function optionLabel(key) {
    const g = games[$("game").value] || {};
    return (g.option_labels || {})[key] || CH.words(key);
  }

  function optionField(key, value, path) {
    const name = path ? `${path}.${key}` : key;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return h("fieldset", {}, h("legend", {}, optionLabel(key)),
        Object.entries(value).map(([k, v]) => optionField(k, v, name)));
    }
    if (typeof value === "boolean") {
      return h("div", {}, h("label", {}, h("input", {type: "checkbox", "data-option": name, "data-kind": "bool", checked: value}), " ", optionLabel(key)));
    }
    // an option with named values: a choice of their labels (the catalog's, in the page's
    // language); the value sent is the value, never shown
    const named = (games[$("game").value] || {}).option_values || {};
    if (!path && named[key] && typeof value === "string") {
      return h("div", {}, h("label", {}, optionLabel(key), " ",
        h("select", {"data-option": name, "data-kind": "string"},
          Object.entries(named[key]).map(([v, label]) => h("option", {value: v, selected: v === value}, label)))));
    }
    const kind = typeof value === "number" ? "number" : value === null ? "json" : "string";
    return h("div", {}, h("label", {}, optionLabel(key), " ",
      h("input", {type: kind === "number" ? "number" : "text", "data-option": name, "data-kind": kind,
        value: value === null ? "" : String(value), placeholder: value === null ? t("none") : null})));
  }

  function readOptions() {
    const out = {};
    for (const el of document.querySelectorAll("[data-option]")) {
      let v;
      if (el.dataset.kind === "bool") v = el.checked;
      else if (el.dataset.kind === "number") v = el.value === "" ? null : Number(el.value);
      else if (el.dataset.kind === "json") {
        if (el.value.trim() === "") v = null;
        else { try { v = JSON.parse(el.value); } catch (e) { v = el.value; } }
      } else v = el.value;
      const keys = el.dataset.option.split(".");
      let o = out;
      for (const k of keys.slice(0, -1)) o = (o[k] ||= {});
      o[keys[keys.length - 1]] = v;
    }
    return out;
  }

  function pickGame() {
    const g = games[$("game").value];
    if (!g) return;
    $("counts").textContent = playerCounts(g.player_counts);
    const want = Math.min(...g.player_counts);
    const rows = $("players");
    while (rows.children.length < want) rows.append(playerRow(""));
    while (rows.children.length > Math.max(...g.player_counts)) rows.lastElementChild.remove();
    const opts = Object.entries(g.default_options || {});
    $("options").replaceChildren(...(opts.length ? opts.map(([k, v]) => optionField(k, v, "")) : [h("p", {class: "note"}, t("none"))]));
  }

  // [1] -> "for 1 player"; [3, 4, 5] -> "for 3, 4 or 5 players"
  function playerCounts(counts) {
    const most = Math.max(...counts);
    return tn("for {counts} player", "for {counts} players", most, {counts: CH.wordsList(counts, "or")});
  }

  function link(label, path, cls) {
    const url = location.origin + path;
    return h("li", {class: cls}, h("b", {}, label), h("br"), h("a", {href: path}, url));
  }

  async function create(e) {
    e.preventDefault();
    $("error").hidden = true;
    const players = [...document.querySelectorAll("input[name=player]")].map((i) => i.value.trim());
    const body = {game: $("game").value, players, mode: new FormData($("newgame")).get("mode"), options: readOptions()};
    try {
      const made = await api("/games", {method: "POST", body, anonymous: true});
      const tok = (tk) => `?token=${encodeURIComponent(tk)}`;
      const digital = body.mode === "digital";
      $("links").replaceChildren(
        link(digital ? t("Recorder (watches; may undo for a seat)") : t("Recorder — record the table's moves here"),
          `/games/${made.id}/record${tok(made.recorder_token)}`, "recorder-link"),
        ...made.seat_tokens.map((tk, i) => link(digital ? t("{player} — play here", {player: players[i]})
          : t("{player} — what this player may see", {player: players[i]}),
        `/games/${made.id}/record${tok(tk)}&seat=${i}`, "seat-link")),
        link(t("Replay (public)"), `/games/${made.id}/replay`, "replay-link"));
      $("created").hidden = false;
      $("created").dataset.gameId = made.id;
      $("newgame").hidden = true;
    } catch (err) {
      $("error").hidden = false; $("error").textContent = err.message;
    }
  }

  async function init() {
    games = await CH.catalog();
    $("game").replaceChildren(...Object.values(games).map((g) => h("option", {value: g.slug}, g.title)));
    const wanted = CH.params.get("game");
    if (wanted && games[wanted]) $("game").value = wanted;
    $("game").onchange = pickGame;
    $("add-player").onclick = () => $("players").append(playerRow(""));
    $("newgame").onsubmit = create;
    pickGame();
  }
  init().catch((err) => { $("error").hidden = false; $("error").textContent = err.message; });
})();
