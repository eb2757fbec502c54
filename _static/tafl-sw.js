// The site's service worker: the site for reading and playing offline, one build at a time.
// This file is a template: docs/_ext/tafl_sphinx/offline.py fills in SITE and writes it to the
// site's root as tafl-sw.js (so that its scope is the whole site, under any sub-path).
//
// - The runtime (Pyodide, the tafl_rules wheel, the snapshot, the library and the rules worker) is
//   kept in a cache named after the build. The rules worker puts there what it fetches as it
//   starts, so nothing is fetched twice; at install every entry is checked against the build's
//   subresource integrity, and the files of one way of starting a board (SITE.starts) must be
//   there (the smaller set is fetched if neither is). The rest comes later, in the background,
//   when a page asks ("keep-runtime"): the snapshot that makes the next start quick, say.
// - The pages a reader opens, the files every page uses and the home page are kept in a cache
//   named after the version; a page never opened is answered, offline, by a page saying so, in its
//   language: a page of another language's tree (SITE.trees, "cy/") by that tree's page, which is
//   kept with the first page of that tree read.
//   "keep-all" keeps every page of the site, with progress, for a kiosk or a journey.
// - A page of another build or version (opened from the network while this worker is in charge)
//   gets everything from the network, never from these caches.
// - A new worker waits until the reader accepts the update (tafl-app.mjs offers the reload), then
//   takes over and drops the older caches; the pages read before are fetched again for it.

const SITE = {};

const SCOPE = self.registration.scope;
const RUNTIME_CACHE = `tafl-runtime-${SITE.build}`;
const SITE_CACHE = `tafl-site-${SITE.version}`;
const at = (path) => new URL(path, SCOPE).href;
const RUNTIME = new Map(SITE.runtime.map(([path, integrity]) => [at(path), integrity]));
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
  await keepStandIn(cache, url).catch(() => {});
  return true;
}

/** With the first page of another language's tree, that tree's page for a page not kept yet. */
async function keepStandIn(cache, url) {
  const tree = treeOf(url);
  if (tree && !(await cache.match(at(tree + SITE.notKept)))) await keepPage(cache, at(tree + SITE.notKept));
}

// ---------------------------------------------------------------- the runtime

async function digestMatches(response, integrity) {
  const [algorithm, expected] = integrity.split(/-(.*)/s);
  const digest = await crypto.subtle.digest(algorithm.toUpperCase().replace("SHA", "SHA-"), await response.arrayBuffer());
  return btoa(String.fromCharCode(...new Uint8Array(digest))) === expected;
}

/** Drop from the runtime cache whatever is not this build's bytes (a rules worker put it there). */
async function checkRuntime(cache) {
  for (const request of await cache.keys()) {
    const integrity = RUNTIME.get(request.url);
    const response = await cache.match(request);
    if (!integrity || !response || !(await digestMatches(response, integrity))) await cache.delete(request);
  }
}

/** The ways of starting a board whose every file the runtime cache holds. */
async function completeStarts(cache) {
  const held = new Set((await cache.keys()).map((request) => request.url));
  return Object.entries(SITE.starts).filter(([, paths]) => paths.every((path) => held.has(at(path)))).map(([name]) => name);
}

/** Fetch (with this build's integrity) what the runtime cache does not hold of `paths`. */
async function fillRuntime(cache, paths, tell = () => {}) {
  const held = new Set((await cache.keys()).map((request) => request.url));
  const missing = paths.filter((path) => !held.has(at(path)));
  let done = 0;
  for (const path of missing) {
    await fetchInto(cache, at(path), { integrity: RUNTIME.get(at(path)) });
    tell(++done, missing.length);
  }
}

// ---------------------------------------------------------------- install, activate

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const runtime = await caches.open(RUNTIME_CACHE);
    await checkRuntime(runtime);
    if (!(await completeStarts(runtime)).length) {  // the smaller set: a fresh start's
      const [, smallest] = Object.entries(SITE.starts).sort((a, b) => a[0] === "fresh" ? -1 : b[0] === "fresh" ? 1 : 0)[0];
      await fillRuntime(runtime, smallest);
    }
    const site = await caches.open(SITE_CACHE);
    await Promise.all([...SITE.shell, SITE.start, SITE.offline, SITE.notKept].map((path) => fetchInto(site, at(path))));
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

// ---------------------------------------------------------------- what pages ask

/** How much of the site this device holds: the page at `url`, the pages, the ways to start a board. */
async function status(url) {
  const site = await caches.open(SITE_CACHE);
  const runtime = await caches.open(RUNTIME_CACHE);
  let kept = 0;
  for (const path of SITE.pages) if (await site.match(at(path))) kept += 1;
  return {
    type: "status", build: SITE.build, version: SITE.version, page: Boolean(url && (await site.match(pageKey(url)))),
    pages: kept, of: SITE.pages.length, starts: await completeStarts(runtime),
  };
}

/** Every page and file of the site, and both ways of starting a board; `tell` hears each step. */
async function keepAll(tell) {
  const site = await caches.open(SITE_CACHE);
  const runtime = await caches.open(RUNTIME_CACHE);
  const runtimePaths = [...new Set(Object.values(SITE.starts).flat())];
  const held = new Set((await site.keys()).map((request) => request.url));
  const pages = SITE.pages.filter((path) => !held.has(at(path)));
  const files = [...SITE.files, ...SITE.shell].filter((path) => !held.has(at(path)));
  const total = pages.length + files.length + runtimePaths.length;
  let done = 0;
  for (const path of pages) {
    if (!(await keepPage(site, at(path)))) throw new Error(`${path} is of another version of the site: reload to update`);
    tell(++done, total);
  }
  for (const path of files) {
    await fetchInto(site, at(path));
    tell(++done, total);
  }
  await fillRuntime(runtime, runtimePaths, () => tell(++done, total));
  done = total;
  tell(done, total);
}

self.addEventListener("message", (event) => {
  const { type, url } = event.data || {};
  const reply = (message) => event.source?.postMessage(message);
  if (type === "skip-waiting") self.skipWaiting();
  if (type === "build") reply({ type: "build", build: SITE.build, version: SITE.version });
  if (type === "status") event.waitUntil(status(url).then(reply));
  if (type === "keep-runtime") {  // the rest of the runtime, for the next visit's start (and offline)
    event.waitUntil((async () => {
      const runtime = await caches.open(RUNTIME_CACHE);
      await fillRuntime(runtime, [...new Set(Object.values(SITE.starts).flat())]).catch(() => {});
      reply(await status(url));
    })());
  }
  if (type === "keep-all") {
    event.waitUntil(keepAll((done, total) => reply({ type: "keeping", done, total }))
      .then(async () => reply({ ...(await status(url)), kept: "all" }),
        (error) => reply({ type: "keeping", error: String(error.message || error) })));
  }
});

// ---------------------------------------------------------------- answering requests

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
    return notStoredYet(site, key);
  }
  if (response.ok && (response.headers.get("content-type") || "").includes("text/html")) {
    const text = await response.clone().text();
    const build = text.match(BUILD_META)?.[1];
    const version = text.match(VERSION_META)?.[1];
    if (build === SITE.build && version === SITE.version) {
      await site.put(key, response.clone());
      event.waitUntil(keepStandIn(site, key).catch(() => {}));
    } else if (version) {
      foreign.add(event.resultingClientId);
      self.registration.update();  // the site has another version: fetch its worker
    }
  }
  return response;
}

/** The folder of the language tree a page is in ("cy/"), or "" for the first language's. */
function treeOf(url) {
  return (SITE.trees || []).find((tree) => url.startsWith(at(tree))) || "";
}

async function notStoredYet(site, key) {
  const tree = treeOf(key);
  const own = tree ? at(tree + SITE.notKept) : "";
  const address = own && (await site.match(own)) ? own : at(SITE.notKept);
  const standIn = await site.match(address);
  if (!standIn) return Response.error();
  // Served at the address asked for (so a reload tries it again), with its links read from its own
  const text = (await standIn.text()).replace("<head>", `<head><base href="${address}">`);
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
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !isRuntime) await cache.put(url, response.clone());
    return response;
  } catch {
    // Offline, and never kept: what the browser asks for by itself (an icon) gets a plain "not
    // found", not a network error; a page's own request fails as it would without this worker.
    return request.destination === "image" ? new Response("", { status: 404, statusText: "not kept offline" }) : Response.error();
  }
}
