// The installed app opened with no connection: the table games kept on this device, each a
// link to its recorder page (which the service worker keeps), with the moves that wait.
"use strict";
(async () => {
  const {h} = CH;
  const list = document.getElementById("kept");
  const games = await CH.offline.keptGames().catch(() => []);
  if (!games.length) {
    list.replaceChildren(h("li", {class: "note"}, "No game was opened on this device while online."));
    return;
  }
  const rows = await Promise.all(games.map(async (g) => {
    const waiting = (await CH.offline.queued(g.id)).length;
    const title = g.game.shown_title || g.game.title || CH.words(g.game.game);
    return h("li", {}, h("a", {href: g.url}, `${CH.capitalise(title)}: ${CH.wordsList(g.game.players)}`),
      h("span", {class: "note"}, ` · ${waiting ? `${CH.plural(waiting, "move")} waiting to be sent` : "nothing waiting"}`));
  }));
  list.replaceChildren(...rows);
})();
