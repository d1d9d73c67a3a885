// The page's service worker (docs/web.md): every file of the page kept in the browser's cache as
// it is fetched, and served from there when the network is gone, so that a page loaded once
// opens and computes offline. Online, the server's copy wins (a new build is seen at once).
'use strict';
const CACHE = 'odds-page';
const FILES = ['./', 'index.html', 'app.js', 'worker.js', 'style.css', 'odds.js', 'odds.wasm'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  if (e.request.method !== 'GET' || new URL(e.request.url).origin !== location.origin) return;
  e.respondWith(fetch(e.request).then((r) => {
    const copy = r.clone();
    caches.open(CACHE).then((c) => c.put(e.request, copy));
    return r;
  }).catch(() => caches.match(e.request, { ignoreSearch: true })));
});
