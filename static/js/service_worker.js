// The service worker (issue 25): after one visit, the counter (typed and grid), the score sheet kept in the browser
// and the help open and work with the network cut. Served at /sw.js by clubsite/views/offline.py, which puts before
// this file what it keeps, `self.OFFLINE`: the version, the pages' addresses, every static file's, the static
// files' root and whether their addresses carry their hash (collectstatic's names, in production).
//
// Install keeps the pages, as a visitor without an account sees them (a member's name, his board and his games are
// never kept: they would outlive his log-out), and the static files, all fetched afresh, in one cache named after
// the version; nothing is kept unless everything came. The new worker then takes over at once and deletes the
// caches of other versions, its pages and their files being of one version. A page comes from the network first,
// from the cache when the network is cut; a static file whose address carries its hash comes from the cache first,
// any other from the network first too, so that a page is never drawn with the files of another version.
// The word lists the counter keeps (clubsite-word-list-…, static/js/counter_page.js) are not the worker's.
"use strict";

const { version, pages, assets, staticUrl, immutableStatic } = self.OFFLINE;
const PREFIX = "clubsite-offline-";
const CACHE = `${PREFIX}${version}`;

async function fetched(url, options) {
  const response = await fetch(url, { ...options, cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return [url, response];
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      // One at a time: the install runs in the background, and a server need not take twenty requests at once.
      const responses = [];
      for (const url of pages) responses.push(await fetched(url, { credentials: "omit" }));
      for (const url of assets) responses.push(await fetched(url));
      const cache = await caches.open(CACHE);
      await Promise.all(responses.map(([url, response]) => cache.put(url, response)));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

/** The kept copy: pages vary on the cookie, and a copy kept for a visitor serves a member too. */
const kept = async (request) => (await caches.open(CACHE)).match(request, { ignoreVary: true });

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch {
    return (await kept(request)) ?? Response.error();
  }
}

const cacheFirst = async (request) => (await kept(request)) ?? fetch(request);

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(networkFirst(request));
  else if (url.pathname.startsWith(staticUrl)) event.respondWith(immutableStatic ? cacheFirst(request) : networkFirst(request));
});
