// chronicle's service worker: keeps what the table recorder needs to work with no
// connection (README, "Recording offline"). It is registered from a table game's recorder
// page as /offline/sw.js?v=<version>; a new version (new Pyodide, new rules, new page
// files) installs beside the old one and replaces it.
// - Pyodide and the rules archive (named by their version): from the cache, fetched once;
// - the pages' scripts, styles, boards and the games catalog: from the network while it
//   answers (so a change on the server shows at once), else the copy kept;
// - a recorder page: the same, keyed by its address (its token), so a reload while
//   offline opens the game again; the games index, offline: the games kept on this device;
// - everything else, and every write and API read, goes to the network untouched: the
//   page itself decides what to do offline (static/offline/offline.js).
"use strict";
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const KEEP = `chronicle-offline-${VERSION}`;
const PAGES = "chronicle-pages";
const SLOW_MS = 2500;  // a network slower than this, with a copy at hand: the copy
let installed = null;  // {ms, at}: how long keeping the offline files took

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const t0 = performance.now();
    const assets = await (await fetch("/offline/assets.json", {cache: "no-store"})).json();
    if (!assets.available) throw new Error(assets.reason);
    const cache = await caches.open(KEEP);
    await cache.addAll([...assets.precache, "/offline/assets.json"]);
    installed = {ms: Math.round(performance.now() - t0), at: new Date().toISOString()};
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("chronicle-offline-") && name !== KEEP) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (req.mode === "navigate" && /^\/games\/[^/]+\/record$/.test(path)) {
    event.respondWith(networkFirst(req, PAGES));
  } else if (req.mode === "navigate" && path === "/") {  // the installed app's start
    event.respondWith(fetch(req).catch(() => caches.match("/static/web/offline/home.html")));
  } else if (path.startsWith("/offline/pyodide/") || path.startsWith("/offline/rules-")) {
    event.respondWith(cacheFirst(req));
  } else if (path.startsWith("/static/web/") || path === "/games-catalog" ||
             path === "/offline/assets.json" || path === "/manifest.webmanifest") {
    event.respondWith(networkFirst(req, KEEP));
  }
});

async function cacheFirst(req) {
  const hit = await caches.match(req, {ignoreVary: true, ignoreSearch: true});
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) (await caches.open(KEEP)).put(req, res.clone());
  return res;
}

async function networkFirst(req, cacheName) {
  const cache = await caches.open(cacheName);
  const kept = await cache.match(req, {ignoreVary: true});
  const fresh = fetch(req).then((res) => {
    if (res.ok) cache.put(req, res.clone());
    return res;
  });
  if (!kept) return fresh;
  const slow = new Promise((resolve) => setTimeout(() => resolve(kept), SLOW_MS));
  return Promise.race([fresh.catch(() => kept), slow]);
}

// what the tests and the README report: the bytes each kept file cost to fetch, and the
// time keeping them took
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "metrics") return;
  const files = performance.getEntriesByType("resource").map((e) => ({
    name: new URL(e.name).pathname, transfer: e.transferSize, encoded: e.encodedBodySize,
    decoded: e.decodedBodySize, ms: Math.round(e.duration)}));
  event.source.postMessage({type: "metrics", version: VERSION, installed, files});
});
