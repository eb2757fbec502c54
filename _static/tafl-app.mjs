// The site as an app, on every page: it registers the service worker (tafl-sw.js, at the site's
// root) once the page and its boards have loaded, offers a reload when a new build of the site is
// ready (every board keeps its game over the reload), and on the page that stands in for a page not
// stored for offline reading, lists the pages that are.

const root = new URL("../", import.meta.url);
const build = document.querySelector('meta[name="tafl-build"]')?.content || "";
const version = document.querySelector('meta[name="tafl-version"]')?.content || "";

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- an update is ready

let reloading = false;

/** The bar at the foot of the window; `waiting` is the new service worker (null: it already took
 *  over, from another tab, and only a reload of this page is left to do). */
function offerUpdate(waiting) {
  document.querySelector(".tafl-update")?.remove();
  const bar = el("div", { class: "tafl-update", role: "status" });
  const reload = el("button", { type: "button", class: "tafl-update-reload" }, "Reload to update");
  const later = el("button", { type: "button", class: "tafl-update-later" }, "Later");
  reload.addEventListener("click", () => {
    reloading = true;
    reload.disabled = true;
    if (waiting) waiting.postMessage({ type: "skip-waiting" });
    else location.reload();
  });
  later.addEventListener("click", () => bar.remove());
  const words = waiting ? "A new version of this site is ready." : "A new version of this site is in use in another tab.";
  bar.append(el("p", {}, `${words} Reloading keeps your games.`), reload, later);
  document.body.append(bar);
}

async function register() {
  const registration = await navigator.serviceWorker.register(new URL("tafl-sw.js", root), { scope: root.href, updateViaCache: "none" });
  const watch = (worker) => {
    if (!worker) return;
    const ready = () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
    };
    worker.addEventListener("statechange", ready);
    ready();
  };
  watch(registration.waiting);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  // A tab left open learns of a new build when it comes back to the front, or back online.
  const check = () => registration.update().catch(() => {});
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") check(); });
  addEventListener("online", check);
  setInterval(check, 60 * 60 * 1000);
  return registration;
}

// The worker is registered once the page (and every board on it) has loaded and a few quiet seconds
// have passed, so that keeping the runtime (some 45 MB, once) never slows the first visit or the
// first moves down.
const SETTLE_MS = 3000;

function quietMoment() {
  return new Promise((resolve) => setTimeout(() => (window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: 5000 }) : resolve()), SETTLE_MS));
}

function boardsSettled() {
  const boards = [...document.querySelectorAll("div.tafl-board")];
  if (boards.every((b) => b.dataset.ready !== "false")) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (boards.every((b) => b.dataset.ready !== "false")) { observer.disconnect(); resolve(); }
    });
    for (const board of boards) observer.observe(board, { attributes: true, attributeFilter: ["data-ready"] });
    setTimeout(resolve, 20000);
  });
}

function listen() {
  // The worker taking over: this tab asked for it (reload), or another tab accepted an update, and
  // then, if this page is of the older version, it says so here too.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
    else navigator.serviceWorker.controller?.postMessage({ type: "build" });
  });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data?.type === "build" && event.data.version !== version) offerUpdate(null);
  });
}

if (build && "serviceWorker" in navigator && window.isSecureContext) {
  listen();
  const loaded = document.readyState === "complete" ? Promise.resolve() : new Promise((r) => addEventListener("load", r, { once: true }));
  // (A page the worker already serves only checks for an update: that waits for nothing.)
  const first = navigator.serviceWorker.controller ? Promise.resolve() : loaded.then(boardsSettled).then(quietMoment);
  window.taflApp = first.then(register).catch((error) => {
    console.warn(`the site is not kept for offline use: ${error.message || error}`);
    return null;
  });
}

// ---------------------------------------------------------------- a page not stored yet

async function listStoredPages(list) {
  const pages = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith("tafl-site-")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (!request.url.endsWith(".html") || !request.url.startsWith(root.href)) continue;
      if (new URL(request.url).pathname.endsWith("/docs/offline.html")) continue;  // this page itself
      const text = await (await cache.match(request)).text();
      const title = new DOMParser().parseFromString(text, "text/html").title.replace(/\s+\S\s+Tawlbwrdd$/, "");
      pages.push([title || request.url, request.url]);
    }
  }
  pages.sort((a, b) => a[0].localeCompare(b[0]));
  list.replaceChildren(...pages.map(([title, url]) => {
    const item = el("li");
    item.append(el("a", { href: url }, title));
    return item;
  }));
  return pages.length;
}

const stored = document.getElementById("tafl-stored-pages");
if (stored) {
  const asked = document.getElementById("tafl-asked-page");
  const onOwnAddress = location.href.split(/[?#]/)[0].endsWith("/docs/offline.html");
  if (asked) asked.textContent = onOwnAddress ? "The page you asked for" : `The page at ${decodeURI(location.pathname)}`;
  // the page is served at the address asked for, with its links read from its own address: the
  // links to places on this page must stay on this address
  for (const link of document.querySelectorAll('a[href^="#"]')) link.href = `${location.pathname}${location.search}${link.getAttribute("href")}`;
  document.getElementById("tafl-try-again")?.addEventListener("click", () => location.reload());
  if ("caches" in window) listStoredPages(stored).catch(() => {});
}
