// The site's service worker: the site for reading and playing offline, one build at a time.
// This file is a template: docs/_ext/tafl_sphinx/offline.py fills in SITE and writes it to the
// site's root as tafl-sw.js (so that its scope is the whole site, under any sub-path).
//
// - The runtime (Pyodide, the tafl_rules wheel, the snapshot and the rules worker) is kept in a
//   cache named after the build, fetched at install with subresource integrity, so it holds that
//   build's bytes and nothing else.
// - The pages a reader opens, the files every page uses and the home page are kept in a cache
//   named after the version; a page never opened is answered, offline, by a page saying so.
// - A page of another build or version (opened from the network while this worker is in charge)
//   gets everything from the network, never from these caches.
// - A new worker waits until the reader accepts the update (tafl-app.mjs offers the reload), then
//   takes over and drops the older caches; the pages read before are fetched again for it.

const SITE = {};

const SCOPE = self.registration.scope;
const RUNTIME_CACHE = `tafl-runtime-${SITE.build}`;
const SITE_CACHE = `tafl-site-${SITE.version}`;
const at = (path) => new URL(path, SCOPE).href;
const RUNTIME = new Set(SITE.runtime.map(([path]) => at(path)));
const BUILD_META = /<meta name="tafl-build" content="([0-9a-f]*)"/;
const VERSION_META = /<meta name="tafl-version" content="([0-9a-f]*)"/;
const foreign = new Set();  // pages of another build or version, passed on from the network

/** The cache key of a page: no query or fragment, and a folder's index.html. */
function pageKey(url) {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  if (u.pathname.endsWith("/")) u.pathname += "index.html";
  return u.href;
}

async function fetchInto(cache, url, options = {}) {
  const response = await fetch(url, { cache: "no-cache", ...options });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  await cache.put(url, response);
}

/** Keep a page of this version (false: not found, or of another version). */
async function keepPage(cache, url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) return false;
  const text = await response.clone().text();
  if (text.match(BUILD_META)?.[1] !== SITE.build || text.match(VERSION_META)?.[1] !== SITE.version) return false;
  await cache.put(pageKey(url), response);
  return true;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const runtime = await caches.open(RUNTIME_CACHE);
    for (const [path, integrity] of SITE.runtime) {
      const url = at(path);
      if (!(await runtime.match(url))) await fetchInto(runtime, url, { integrity });
    }
    const site = await caches.open(SITE_CACHE);
    await Promise.all([...SITE.shell, SITE.start, SITE.offline].map((path) => fetchInto(site, at(path))));
    // The pages read under an older version are kept for this one too (best effort: a page that
    // is gone from the site is left out).
    for (const name of await caches.keys()) {
      if (!name.startsWith("tafl-site-") || name === SITE_CACHE) continue;
      const older = await caches.open(name);
      for (const request of await older.keys()) {
        if (!request.url.endsWith(".html") || (await site.match(request.url))) continue;
        try { await keepPage(site, request.url); } catch { /* offline now: it is fetched when next read */ }
      }
    }
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("tafl-") && name !== RUNTIME_CACHE && name !== SITE_CACHE) await caches.delete(name);
    }
    // The pages open now were loaded before this worker was in charge (a first visit): keep them too.
    const site = await caches.open(SITE_CACHE);
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (client.url.startsWith(SCOPE) && !(await site.match(pageKey(client.url)))) {
        try { await keepPage(site, client.url); } catch { /* offline: kept when next read */ }
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
  if (event.data?.type === "build") event.source?.postMessage({ type: "build", build: SITE.build, version: SITE.version });
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else event.respondWith(asset(event));
});

/** A page: from the cache of this version, else from the network (kept if it is of this
 *  version), else, offline, the page that says it is not stored yet. */
async function page(event) {
  const site = await caches.open(SITE_CACHE);
  const key = pageKey(event.request.url);
  const cached = await site.match(key);
  if (cached) return cached;
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return notStoredYet(site);
  }
  if (response.ok && (response.headers.get("content-type") || "").includes("text/html")) {
    const text = await response.clone().text();
    const build = text.match(BUILD_META)?.[1];
    const version = text.match(VERSION_META)?.[1];
    if (build === SITE.build && version === SITE.version) {
      await site.put(key, response.clone());
    } else if (version) {
      foreign.add(event.resultingClientId);
      self.registration.update();  // the site has another version: fetch its worker
    }
  }
  return response;
}

async function notStoredYet(site) {
  const offline = await site.match(at(SITE.offline));
  if (!offline) return Response.error();
  // Served at the address asked for (so a reload tries it again), with its links read from its own
  const text = (await offline.text()).replace("<head>", `<head><base href="${at(SITE.offline)}">`);
  return new Response(text, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** Whether the page or worker behind a request is of this build and version: a page passed on from
 *  the network is marked when it is not; a rules worker names its build in its address. */
async function ours(clientId) {
  if (!clientId) return true;
  if (foreign.has(clientId)) return false;
  const client = await self.clients.get(clientId);
  if (client?.type !== "worker") return true;
  const build = new URL(client.url).searchParams.get("build");
  return !build || build === SITE.build;
}

async function asset(event) {
  const request = event.request;
  const url = request.url;
  if (!(await ours(event.clientId))) return fetch(request);
  const isRuntime = RUNTIME.has(url) || new URL(url).pathname.includes("/_static/pyodide/");
  const cache = await caches.open(isRuntime ? RUNTIME_CACHE : SITE_CACHE);
  const cached = await cache.match(url, { ignoreSearch: !isRuntime });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic" && !isRuntime) await cache.put(url, response.clone());
  return response;
}
