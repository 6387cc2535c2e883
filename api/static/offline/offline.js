// The recorder's offline half (README, "Recording offline"): the game's events kept on the
// tablet (IndexedDB), the rules run on the tablet (Pyodide in a worker: worker.js), moves
// made offline queued with their Idempotency-Key and the seq each expects, sent in order
// when the connection is back, and a conflict kept apart and reported, never merged.
// No rule is here: legal actions, refusals, boards and sentences come from the Python
// rules in the worker; the server checks every queued move again and alone writes the log.
"use strict";
(() => {
  const {api} = CH;
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

  // -- one queue per game for the whole browser ------------------------------------------
  // Every tab of a recorder link shares the game's queue: a move is appended, and a sent
  // one taken off, under the queue's lock (Web Locks, which hold across tabs), and only
  // one tab at a time sends (the sending lock). A tab that is not holding it hears of
  // every change on a BroadcastChannel and folds the queue again before its next move.
  const localLocks = new Map();
  function withLock(name, fn, ifAvailable = false) {
    if (navigator.locks) return navigator.locks.request(name, {ifAvailable}, fn);
    const held = localLocks.get(name);  // one page only (no Web Locks): a chain of promises
    if (held && ifAvailable) return fn(null);
    const run = (held || Promise.resolve()).then(() => fn(true));
    const tail = run.catch(() => {});
    localLocks.set(name, tail);
    tail.then(() => { if (localLocks.get(name) === tail) localLocks.delete(name); });
    return run;
  }
  const queueLock = (gameId, fn) => withLock(`chronicle-queue-${gameId}`, fn);
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("chronicle-offline") : null;
  const listeners = new Set();
  function announce(gameId, what) {
    const msg = {game_id: gameId, what};
    if (channel) channel.postMessage(msg);
    for (const fn of listeners) fn(msg, true);
  }
  if (channel) channel.onmessage = (e) => { for (const fn of listeners) fn(e.data, false); };
  // fn({game_id, what}, fromThisTab): what is "queued", "sending", "sent", "sent-all", "kept"
  const onChange = (fn) => listeners.add(fn);

  // -- the copy of a game kept on the tablet --------------------------------------------
  // Called after every read from the server while online: fetches only the events that
  // are new since the copy, and the game's edition once. Written under the queue's lock,
  // and only what extends the copy (a move sent meanwhile was already added to it).
  const lastSeq = (kept) => (kept && kept.events.length ? kept.events[kept.events.length - 1].seq : -1);
  async function keep(gameId, game) {
    const kept = await getOne("games", gameId);
    const have = lastSeq(kept);
    if (kept && have === game.last_seq && kept.game.status === game.status) {
      await putOne("games", {...kept, synced_at: new Date().toISOString()});
      return;
    }
    const fresh = await CH.allEvents(gameId, have);
    if (Object.values(fresh.annotations).some((n) => n.redacted)) return;  // not the whole log
    const edition = kept ? kept.edition : (await api(`/offline/games/${gameId}/edition`)).content;
    await queueLock(gameId, async () => {
      const now = await getOne("games", gameId);
      const events = [...(now ? now.events : []), ...fresh.events.filter((e) => e.seq > lastSeq(now))];
      await dropHeld(gameId, events);
      await putOne("games", {id: gameId, game: {...game, last_seq: lastSeq({events})},
        events, edition: (now && now.edition) || edition, url: location.pathname + location.search,
        synced_at: new Date().toISOString()});
    });
    announce(gameId, "kept");
  }

  // Queued moves the log already holds (the same Idempotency-Key: a move whose answer was
  // lost, or sent by another tab) are delivered: off the queue, never folded twice.
  async function dropHeld(gameId, events) {
    const held = new Set(events.map((e) => e.idempotency_key).filter(Boolean));
    for (const item of await queued(gameId)) if (held.has(item.key)) await delOne("queue", item.key);
  }
  const heldEvent = (kept, key) => (kept && key ? kept.events.find((e) => e.idempotency_key === key) : null);

  // -- the rules on the tablet (worker.js) ---------------------------------------------
  // Started in the background as the page opens, so they are ready before the connection
  // drops; rulesState() says where they are: idle, starting, ready or failed.
  let worker = null, booting = null, nextId = 0, rules = "idle", rulesError = null;
  const pending = new Map();
  const rulesListeners = new Set();
  const announceRules = () => { for (const fn of rulesListeners) fn(rules); };
  let bootInfo = null, bootAt = 0;
  function boot() {
    if (!booting) {
      rules = "starting"; rulesError = null; bootAt = performance.now(); announceRules();
      booting = new Promise((resolve, reject) => {
        const t0 = performance.now();
        const fail = (raw) => {
          // the browser's words for a fetch that failed are no sentence for the table
          const message = /failed to fetch|networkerror|load failed|network/i.test(String(raw))
            ? "its files could not be fetched: no connection" : String(raw);
          booting = null; rules = "failed"; rulesError = message; announceRules();
          if (worker) worker.terminate();
          reject(new Error(message));
        };
        worker = new Worker("/static/web/offline/worker.js", {type: "module"});
        worker.onmessage = (e) => {
          const m = e.data;
          if (m.ready) {
            bootInfo = {...m.ready, page_ms: Math.round(performance.now() - t0)};
            rules = "ready"; announceRules(); resolve(bootInfo); return;
          }
          if (m.failed) { fail(m.failed); return; }
          const p = pending.get(m.id);
          if (!p) return;
          pending.delete(m.id);
          if (m.error) p.reject(Object.assign(new Error(m.error.message), {code: m.error.code, refused: true}));
          else p.resolve(m.ok);
        };
        worker.onerror = (e) => fail(e.message || "the rules could not start on this tablet");
      });
    }
    return booting;
  }
  // A start cut off by a lost connection (Pyodide's files half fetched) may never end:
  // the page starts the rules again once the files are stored (restartRules).
  function restartRules() {
    if (rules !== "starting") return boot();
    if (worker) worker.terminate();
    for (const p of pending.values()) p.reject(new Error("the rules were started again"));
    pending.clear();
    booting = null;
    return boot();
  }
  async function call(method, args) {
    await boot();
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, {resolve, reject});
      // the page's language: the tablet's rules render their sentences in it, offline too
      worker.postMessage({id, method, args: Object.assign({lang: window.CHRONICLE_LANG || "en"}, args || {})});
    });
  }

  // What the rules of this tab hold of each game: the kept copy's last seq and the queued
  // keys, as they were folded. Another tab that queued a move, or a fork that emptied the
  // queue, makes this tab fold again before its next move.
  const folded = new Map();
  const signature = (kept, items) => JSON.stringify([lastSeq(kept), items.map((it) => it.key)]);

  // Open the game on the tablet: the events kept, then every queued move, each checked by
  // the rules again (a move they refuse now stays in the queue and is reported).
  async function open(gameId) {
    const kept = await getOne("games", gameId);
    if (kept) await dropHeld(gameId, kept.events);
    const items = await queued(gameId);
    if (!kept) throw new Error("this game was never opened on this tablet while online, so it cannot be recorded offline");
    await call("open", {game: kept.game, events: kept.events, edition: kept.edition});
    for (const item of items) {
      await call("record", {game_id: gameId, action: item.action});
    }
    folded.set(gameId, signature(kept, items));
    return kept;
  }
  // Fold again if the copy and the queue are no longer what this tab folded. Moves sent
  // (off the queue, into the copy) leave the same history: nothing to fold then.
  async function catchUp(gameId) {
    const [kept, items] = await Promise.all([getOne("games", gameId), queued(gameId)]);
    const now = signature(kept, items);
    const was = folded.get(gameId);
    if (was === now) return false;
    if (was) {
      const [seqWas, keysWas] = JSON.parse(was);
      const sent = keysWas.length - items.length;
      if (sent > 0 && lastSeq(kept) === seqWas + sent &&
          JSON.stringify(keysWas.slice(sent)) === JSON.stringify(items.map((it) => it.key))) {
        folded.set(gameId, now);
        return false;
      }
    }
    await open(gameId);
    return true;
  }

  // the tablet's answers, in the shapes of the server's
  const local = {
    state: (gameId) => call("state", {game_id: gameId}),
    legal: (gameId) => call("legal", {game_id: gameId}),
    choices: (gameId, query) => call("choices", {game_id: gameId, ...query}),
    events: (gameId, after, limit) => call("events", {game_id: gameId, after, limit}),
    catchUp: (gameId) => queueLock(gameId, () => catchUp(gameId)),
    // one move, checked by the rules after every move any tab queued, then queued with
    // the seq it expects
    record(gameId, action, key) {
      return queueLock(gameId, async () => {
        await catchUp(gameId);
        // the move's answer was lost but the log has it (the copy learnt of it meanwhile)
        const held = heldEvent(await getOne("games", gameId), key);
        if (held) return {event: held, state: await call("state", {game_id: gameId}), held: true};
        const before = await call("state", {game_id: gameId});
        const done = await call("record", {game_id: gameId, action});
        await enqueue(gameId, done.event, before.last_seq, key);
        return done;
      });
    },
    meta(gameId, kind) {
      return queueLock(gameId, async () => {
        await catchUp(gameId);
        const before = await call("state", {game_id: gameId});
        const done = await call(kind, {game_id: gameId});
        await enqueue(gameId, done.event, before.last_seq);
        return done;
      });
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
    folded.set(gameId, signature(await getOne("games", gameId), await queued(gameId)));
    announce(gameId, "queued");
  }
  function newKey() {
    return crypto.randomUUID ? crypto.randomUUID()
      : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // A move the server holds: off the queue and into the kept copy in one transaction, so
  // the copy and the queue always make one history (a tab folding them finds every move
  // once, in order).
  function delivered(gameId, item, event) {
    return queueLock(gameId, async () => {
      const d = await db();
      await new Promise((resolve, reject) => {
        const t = d.transaction(["games", "queue"], "readwrite");
        const games = t.objectStore("games");
        if (item) t.objectStore("queue").delete(item.key);
        const got = games.get(gameId);
        got.onsuccess = () => {
          const kept = got.result;
          if (kept && event && event.seq === lastSeq(kept) + 1) {
            games.put({...kept, events: [...kept.events, event], game: {...kept.game, last_seq: event.seq},
              synced_at: new Date().toISOString()});
          }
        };
        t.oncomplete = () => resolve();
        t.onerror = () => reject(t.error);
        t.onabort = () => reject(t.error || new Error("the tablet's storage refused the write"));
      });
    });
  }

  // a move the server took while online: into the kept copy at once, so a cut right after
  // it (before the board is read again) does not fold the next moves from a step behind
  function add(gameId, done) {
    const env = done && done.event;
    if (!env || !done.state || done.state.last_seq !== env.seq) return Promise.resolve();
    return delivered(gameId, null, env);
  }

  // -- sending the queue ---------------------------------------------------------------
  // In order, each with If-Match (the seq it expects) and its Idempotency-Key, so a move
  // whose answer was lost is not recorded twice. The queue is read again after each move
  // sent, so a move made during the sending goes out after it, in the same run. No answer
  // (a timeout, a dropped connection, a proxy's 502/503/504) stops the run and keeps
  // every move queued. A refusal stops it too:
  // - 409 stale_sequence: the log has moved on; the moves it already holds, identical,
  //   count as delivered, and only from the first that really differs are the waiting
  //   moves kept apart as a fork (reconcile, keepApart);
  // - any other refusal: the move stays queued, and the page says why.
  // One tab sends at a time; in another, sync() answers {elsewhere: true} at once.
  function sync(gameId, progress = () => {}) {
    return withLock(`chronicle-sync-${gameId}`, async (lock) => {
      if (!lock) return {sent: 0, elsewhere: true};
      let sent = 0, rounds = 0;
      for (;;) {
        const items = await queued(gameId);
        if (!items.length) return {sent};
        const item = items[0];
        progress(items.length);
        let done;
        try {
          done = await api(`/games/${gameId}/events`, {method: "POST", body: item.action,
            headers: {"If-Match": `"${item.expects}"`, "Idempotency-Key": item.key}});
        } catch (err) {
          if (CH.unreached(err)) return {offline: true, sent, message: err.message};
          if (err.status === 409 && err.code === "stale_sequence") {
            const out = rounds++ < 3 ? await reconcile(gameId, items)
              : {acknowledged: 0, conflict: await keepApart(gameId, items)};
            sent += out.acknowledged;
            if (out.offline) return {offline: true, sent};
            if (out.conflict) return {sent, conflict: out.conflict};
            continue;
          }
          return {sent, refused: {item, code: err.code, message: err.message}};
        }
        await delivered(gameId, item, done && done.event);
        announce(gameId, "sent");
        sent += 1;
      }
    }, true);
  }

  // the same action: type, actor and data, keys in any order
  function canon(v) {
    if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
    if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
    return JSON.stringify(v === undefined ? null : v);
  }
  const sameAction = (a, env) => canon({type: a.type, actor: a.actor, data: a.data || {}}) ===
    canon({type: env.type, actor: env.actor, data: env.data || {}});

  // The log has moved on from where the waiting moves began: read what it holds since,
  // and take off the queue every waiting move it already holds, identical and in order
  // (another device recorded the same moves, or an answer was lost). The first move that
  // really differs, and the moves after it, are kept apart as a fork; a log that simply
  // ends there takes the rest as usual.
  async function reconcile(gameId, items) {
    let theirs;
    try {
      theirs = (await CH.allEvents(gameId, items[0].expects)).events;
    } catch (err) {
      if (CH.unreached(err)) return {offline: true, acknowledged: 0};
      throw err;
    }
    let i = 0;
    while (i < items.length && i < theirs.length && theirs[i].seq === items[i].expects + 1 &&
           sameAction(items[i].action, theirs[i])) {
      await delivered(gameId, items[i], theirs[i]);
      i += 1;
    }
    if (i) announce(gameId, "sent");
    if (i < items.length && i < theirs.length) {
      return {acknowledged: i, conflict: await keepApart(gameId, items.slice(i))};
    }
    return {acknowledged: i};
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
    await queueLock(gameId, async () => {
      await putOne("conflicts", conflict);
      for (const item of items) await delOne("queue", item.key);
    });
    announce(gameId, "kept-apart");
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
  // Called again while the files are not all kept: an install cut off by a lost
  // connection is tried again when the connection is back.
  const PAGE = () => location.pathname + location.search;
  async function register(version) {
    const reg = await navigator.serviceWorker.register(`/offline/sw.js?v=${encodeURIComponent(version)}`, {scope: "/"});
    if (!navigator.serviceWorker.controller && !(await caches.match(PAGE(), {cacheName: "chronicle-pages"}))) {
      await (await caches.open("chronicle-pages")).add(PAGE());
    }
    return reg;
  }
  // resolves once the files the recorder needs offline are all kept
  async function ready() {
    const reg = await navigator.serviceWorker.ready;
    return reg.active;
  }
  // What this tablet has of what recording offline needs, each true once kept:
  // files (Pyodide, the rules archive, the page files: the service worker of this version
  // is active only once it stored them all), page (this recorder page), game (this game's
  // log) and rules (started on this tablet).
  async function readiness(gameId, version) {
    const reg = await navigator.serviceWorker.getRegistration("/").catch(() => null);
    const active = reg && reg.active;
    const files = Boolean(active && new URL(active.scriptURL).searchParams.get("v") === version);
    const [page, game] = await Promise.all([
      caches.match(PAGE(), {cacheName: "chronicle-pages"}).then(Boolean).catch(() => false),
      getOne("games", gameId).then(Boolean).catch(() => false)]);
    return {files, installing: Boolean(reg && reg.installing), page, game, rules: rules === "ready",
      rulesState: rules, rulesError};
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

  CH.offline = {supported, register, ready, readiness, metrics, keep, open, local, queued, sync, keepApart,
    conflicts, onChange, add, boot, restartRules,
    bootAge: () => (rules === "starting" ? performance.now() - bootAt : 0), bootInfo: () => bootInfo, rulesState: () => rules,
    onRules: (fn) => rulesListeners.add(fn), kept: (gameId) => getOne("games", gameId),
    keptGames: () => tx("games", "readonly", (s) => s.getAll()),
    forget: (store, key) => delOne(store, key), newKey};
})();
