// The recorder's offline half (README, "Recording offline"): the game's events kept on the
// tablet (IndexedDB), the rules run on the tablet (Pyodide in a worker: worker.js), moves
// made offline queued with their Idempotency-Key and the seq each expects, sent in order
// when the connection is back, and a conflict kept apart and reported, never merged.
// No rule is here: legal actions, refusals, boards and sentences come from the Python
// rules in the worker; the server checks every queued move again and alone writes the log.
"use strict";
(() => {
  const {api, ApiError} = CH;
  const DB = "chronicle-offline";
  const STORES = ["games", "queue", "conflicts"];

  // -- IndexedDB: games (the server's events as last fetched), queue, conflicts ---------
  let dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise((resolve, reject) => {
        const req = indexedDB.open(DB, 1);
        req.onupgradeneeded = () => {
          const d = req.result;
          d.createObjectStore("games", {keyPath: "id"});
          d.createObjectStore("queue", {keyPath: "key"}).createIndex("game", "game_id");
          d.createObjectStore("conflicts", {keyPath: "id"}).createIndex("game", "game_id");
        };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    }
    return dbPromise;
  }
  async function tx(store, mode, fn) {
    const d = await db();
    return new Promise((resolve, reject) => {
      const t = d.transaction(store, mode);
      const out = fn(t.objectStore(store));
      t.oncomplete = () => resolve(out && "result" in out ? out.result : undefined);
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error || new Error("the tablet's storage refused the write"));
    });
  }
  const getOne = (store, key) => tx(store, "readonly", (s) => s.get(key));
  const putOne = (store, value) => tx(store, "readwrite", (s) => s.put(value));
  const delOne = (store, key) => tx(store, "readwrite", (s) => s.delete(key));
  const byGame = (store, gameId) => tx(store, "readonly", (s) => s.index("game").getAll(gameId));

  async function queued(gameId) {
    return (await byGame("queue", gameId)).sort((a, b) => a.n - b.n);
  }

  // -- the copy of a game kept on the tablet --------------------------------------------
  // Called after every read from the server while online: fetches only the events that
  // are new since the copy, and the game's edition once.
  async function keep(gameId, game) {
    const kept = await getOne("games", gameId);
    const have = kept && kept.events.length ? kept.events[kept.events.length - 1].seq : -1;
    if (kept && have === game.last_seq && kept.game.status === game.status) {
      await putOne("games", {...kept, synced_at: new Date().toISOString()});
      return;
    }
    const fresh = await CH.allEvents(gameId, have);
    if (Object.values(fresh.annotations).some((n) => n.redacted)) return;  // not the whole log
    const edition = kept ? kept.edition : (await api(`/offline/games/${gameId}/edition`)).content;
    const events = [...(kept ? kept.events : []), ...fresh.events];
    await putOne("games", {id: gameId, game, events, edition, url: location.pathname + location.search,
      synced_at: new Date().toISOString()});
  }

  // -- the rules on the tablet (worker.js) ---------------------------------------------
  let worker = null, booting = null, nextId = 0;
  const pending = new Map();
  let bootInfo = null;
  function boot() {
    if (!booting) {
      booting = new Promise((resolve, reject) => {
        const t0 = performance.now();
        worker = new Worker("/static/web/offline/worker.js", {type: "module"});
        worker.onmessage = (e) => {
          const m = e.data;
          if (m.ready) { bootInfo = {...m.ready, page_ms: Math.round(performance.now() - t0)}; resolve(bootInfo); return; }
          if (m.failed) { booting = null; reject(new Error(m.failed)); return; }
          const p = pending.get(m.id);
          if (!p) return;
          pending.delete(m.id);
          if (m.error) p.reject(Object.assign(new Error(m.error.message), {code: m.error.code, refused: true}));
          else p.resolve(m.ok);
        };
        worker.onerror = (e) => { booting = null; reject(new Error(e.message || "the rules could not start on this tablet")); };
      });
    }
    return booting;
  }
  async function call(method, args) {
    await boot();
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, {resolve, reject});
      worker.postMessage({id, method, args});
    });
  }

  // Open the game on the tablet: the events kept, then every queued move, each checked by
  // the rules again (a move they refuse now stays in the queue and is reported).
  async function open(gameId) {
    const kept = await getOne("games", gameId);
    if (!kept) throw new Error("this game was never opened on this tablet while online, so it cannot be recorded offline");
    await call("open", {game: kept.game, events: kept.events, edition: kept.edition});
    for (const item of await queued(gameId)) {
      await call("record", {game_id: gameId, action: item.action});
    }
    return kept;
  }

  // the tablet's answers, in the shapes of the server's
  const local = {
    state: (gameId) => call("state", {game_id: gameId}),
    legal: (gameId) => call("legal", {game_id: gameId}),
    choices: (gameId, query) => call("choices", {game_id: gameId, ...query}),
    events: (gameId, after, limit) => call("events", {game_id: gameId, after, limit}),
    // one move, checked by the rules, then queued with the seq it expects
    async record(gameId, action, key) {
      const before = await call("state", {game_id: gameId});
      const done = await call("record", {game_id: gameId, action});
      await enqueue(gameId, done.event, before.last_seq, key);
      return done;
    },
    async meta(gameId, kind) {
      const before = await call("state", {game_id: gameId});
      const done = await call(kind, {game_id: gameId});
      await enqueue(gameId, done.event, before.last_seq);
      return done;
    },
  };

  async function enqueue(gameId, event, expects, key) {
    const item = {key: key || newKey(), game_id: gameId, n: event.seq, expects,
      action: {type: event.type, actor: event.actor, data: event.data}, queued_at: new Date().toISOString()};
    try {
      await putOne("queue", item);
    } catch (err) {  // the rules kept it in memory: start again from what is stored
      await open(gameId);
      throw new Error(`the move could not be saved on this tablet (${err.message}); nothing was recorded`);
    }
  }
  function newKey() {
    return crypto.randomUUID ? crypto.randomUUID()
      : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- sending the queue ---------------------------------------------------------------
  // In order, each with If-Match (the seq it expects) and its Idempotency-Key, so a move
  // whose answer was lost is not recorded twice. The first refusal stops the sending:
  // - 409 stale_sequence: another device recorded meanwhile; the waiting moves are kept
  //   apart as a fork from where they began and compared with the log (keepApart);
  // - any other refusal: the move stays queued, and the page says why.
  async function sync(gameId) {
    const items = await queued(gameId);
    let sent = 0;
    for (const [i, item] of items.entries()) {
      try {
        await api(`/games/${gameId}/events`, {method: "POST", body: item.action,
          headers: {"If-Match": `"${item.expects}"`, "Idempotency-Key": item.key}});
      } catch (err) {
        if (!(err instanceof ApiError)) return {offline: true, sent};
        if (err.status === 409 && err.code === "stale_sequence") {
          return {sent, conflict: await keepApart(gameId, items.slice(i))};
        }
        return {sent, refused: {item, code: err.code, message: err.message}};
      }
      await delOne("queue", item.key);
      sent += 1;
    }
    return {sent};
  }

  // The tablet's moves and the log disagree: the moves become a fork of the game at the
  // step they were made from (POST /games/<id>/fork), so they are kept on the server, and
  // the two records are compared (the service's compare); the log itself gets nothing.
  async function keepApart(gameId, items) {
    const at = items[0].expects;
    const fork = await api(`/games/${gameId}/fork`, {method: "POST", body: {at}});
    const asFork = {Authorization: `Bearer ${fork.recorder_token}`};
    let copied = 0, stopped = null;
    for (const item of items) {
      const kind = item.action.type;
      try {
        if (kind === "undo" || kind === "redo") {
          await api(`/games/${fork.id}/${kind}`, {method: "POST", anonymous: true, headers: asFork});
        } else {
          await api(`/games/${fork.id}/events`, {method: "POST", body: item.action, anonymous: true,
            headers: {...asFork, "Idempotency-Key": item.key}});
        }
        copied += 1;
      } catch (err) {
        stopped = {action: item.action, message: err.message};
        break;
      }
    }
    const report = await api(`/offline/games/${gameId}/compare/${fork.id}`,
      {headers: {"X-Other-Token": fork.recorder_token}});
    const conflict = {id: fork.id, game_id: gameId, at, report, copied, stopped,
      fork: {id: fork.id, token: fork.recorder_token}, waiting: items.length,
      kept_at: new Date().toISOString(),
      // what was not copied stays here, whole: nothing of the tablet's record is dropped
      left: items.slice(copied).map((it) => ({key: it.key, expects: it.expects, action: it.action}))};
    await putOne("conflicts", conflict);
    for (const item of items) await delOne("queue", item.key);
    return conflict;
  }

  async function conflicts(gameId) {
    return (await byGame("conflicts", gameId)).sort((a, b) => (a.kept_at < b.kept_at ? -1 : 1));
  }

  // -- the service worker --------------------------------------------------------------
  const supported = () => window.isSecureContext && "serviceWorker" in navigator &&
    "indexedDB" in window && "Worker" in window;
  // The worker keeps a recorder page each time it is loaded through it; the first load
  // comes before the worker, so the page keeps itself (a reload offline then finds it).
  async function register(version) {
    const reg = await navigator.serviceWorker.register(`/offline/sw.js?v=${encodeURIComponent(version)}`, {scope: "/"});
    if (!navigator.serviceWorker.controller) {
      await (await caches.open("chronicle-pages")).add(location.pathname + location.search);
    }
    return reg;
  }
  // resolves once the files the recorder needs offline are all kept
  async function ready() {
    const reg = await navigator.serviceWorker.ready;
    return reg.active;
  }
  function metrics() {
    return new Promise((resolve) => {
      navigator.serviceWorker.ready.then((reg) => {
        const ch = (e) => { if (e.data && e.data.type === "metrics") { navigator.serviceWorker.removeEventListener("message", ch); resolve(e.data); } };
        navigator.serviceWorker.addEventListener("message", ch);
        reg.active.postMessage({type: "metrics"});
      });
    });
  }

  CH.offline = {supported, register, ready, metrics, keep, open, local, queued, sync, keepApart, conflicts,
    boot, bootInfo: () => bootInfo, kept: (gameId) => getOne("games", gameId),
    keptGames: () => tx("games", "readonly", (s) => s.getAll()),
    forget: (store, key) => delOne(store, key), newKey};
})();
