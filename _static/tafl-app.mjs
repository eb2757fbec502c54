// The site as an app, on every page: it registers the service worker (tafl-sw.js, at the site's
// root) as soon as every board of the page is ready (the worker then keeps the page, which says so
// beside its board, within a second), asks it to fetch the rest of the runtime in the background,
// offers a reload when a new build of the site is ready (every board keeps its game over the
// reload), runs "keep the whole site" on the offline page, and on the page that stands in for a
// page not stored for offline reading, lists the pages that are.

import { pageLanguage, t } from "./tafl-board-words.mjs";

const root = new URL("../", import.meta.url);
const build = document.querySelector('meta[name="tafl-build"]')?.content || "";
const version = document.querySelector('meta[name="tafl-version"]')?.content || "";
// a page of another language's tree (cy/) links that tree's offline page
const OFFLINE_PAGE = new URL(`${pageLanguage() === "en" ? "" : `${pageLanguage()}/`}docs/offline.html`, root).href;

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
  const reload = el("button", { type: "button", class: "tafl-update-reload" }, t("Reload to update"));
  const later = el("button", { type: "button", class: "tafl-update-later" }, t("Later"));
  reload.addEventListener("click", () => {
    reloading = true;
    reload.disabled = true;
    if (waiting) waiting.postMessage({ type: "skip-waiting" });
    else location.reload();
  });
  later.addEventListener("click", () => bar.remove());
  const words = waiting ? t("A new version of this site is ready. Reloading keeps your games.")
    : t("A new version of this site is in use in another tab. Reloading keeps your games.");
  bar.append(el("p", {}, words), reload, later);
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

// The service worker is registered once every board of the page is ready and its rules worker has
// put what it fetched in the runtime cache (so the service worker finds it there, and fetches
// nothing twice); a page without a board registers it once loaded.
const KEPT_WAIT_MS = 3000;  // a rules worker that cannot use the runtime cache does not say "kept"

function boardsReady() {
  const boards = [...document.querySelectorAll("div.tafl-board")];
  const readyNow = () => boards.every((b) => b.dataset.ready !== "false");
  const ready = readyNow() ? Promise.resolve() : new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (readyNow()) { observer.disconnect(); resolve(); }
    });
    for (const board of boards) observer.observe(board, { attributes: true, attributeFilter: ["data-ready"] });
  });
  const kept = Promise.all(boards.map((board) => (board.dataset.runtimeKept ? null
    : new Promise((resolve) => board.addEventListener("tafl-runtime-kept", resolve, { once: true })))));
  return ready.then(() => Promise.race([kept, new Promise((resolve) => setTimeout(resolve, KEPT_WAIT_MS))]));
}

function ask(message) {
  navigator.serviceWorker.controller?.postMessage({ ...message, url: location.href });
}

/** What this device holds (answered at once), then the rest of the runtime (answered once kept). */
function askStatus() {
  ask({ type: "status" });
  ask({ type: "keep-runtime" });
}

// ---------------------------------------------------------------- "kept on this device"

let status = null;

/** The line beside the first board (and on the offline page) saying what this device holds. */
function showStatus(answer) {
  status = answer;
  const pageKept = answer.page && answer.starts.length > 0;
  const whole = answer.pages >= answer.of && answer.starts.length === 2;
  document.documentElement.dataset.taflOffline = whole ? "site" : pageKept ? "page" : "";
  document.documentElement.dataset.taflStarts = answer.starts.join(" ");  // the ways a board can start offline
  const board = document.querySelector("div.tafl-board");
  if (board && pageKept) {
    let note = document.querySelector(".tafl-kept");
    if (!note) {
      note = el("p", { class: "tafl-kept", role: "status" });
      board.after(note);
    }
    const link = el("a", { href: OFFLINE_PAGE }, whole ? t("reading and playing offline") : t("keep the whole site"));
    note.replaceChildren(whole ? t("Ready offline: the whole site is kept on this device (see ")
      : t("Kept on this device: this page and its board open offline too ("), link, ").");
  }
  drawKeepAll();
}

function listen() {
  // The worker taking over: this tab asked for it (reload), or another tab accepted an update, and
  // then, if this page is of the older version, it says so here too.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
    else ask({ type: "build" });
    askStatus();
  });
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "build" && data.version !== version) offerUpdate(null);
    if (data.type === "status" && data.version === version) {
      showStatus(data);
      if (data.kept === "all" && stored) listStoredPages(stored).catch(() => {});
    }
    if (data.type === "keeping") keeping(data);
  });
}

if (build && "serviceWorker" in navigator && window.isSecureContext) {
  listen();
  const loaded = document.readyState === "complete" ? Promise.resolve() : new Promise((r) => addEventListener("load", r, { once: true }));
  // (A page the worker already serves only checks for an update: that waits for nothing.)
  const controlled = Boolean(navigator.serviceWorker.controller);
  const first = controlled ? Promise.resolve() : (document.querySelector("div.tafl-board") ? boardsReady() : loaded);
  window.taflApp = first.then(register).catch((error) => {
    console.warn(`the site is not kept for offline use: ${error.message || error}`);
    return null;
  });
  if (controlled) askStatus();
}

// ---------------------------------------------------------------- keep the whole site

const keepButton = document.getElementById("tafl-keep-all");
const keepWords = document.getElementById("tafl-keep-all-status");

function drawKeepAll() {
  if (!keepButton || !status) return;
  const whole = document.documentElement.dataset.taflOffline === "site";
  keepWords.textContent = whole
    ? t("Ready offline: all {pages} pages of the site and the rules engine are kept on this device.", { pages: status.of })
    : status.starts.length ? t("Kept on this device so far: {pages} of the site's {of} pages, and the rules engine.", { pages: status.pages, of: status.of })
      : t("Kept on this device so far: {pages} of the site's {of} pages.", { pages: status.pages, of: status.of });
  keepWords.classList.toggle("tafl-ready-offline", whole);
  keepButton.disabled = false;
}

function keeping({ done, total, error }) {
  if (!keepButton) return;
  if (error) {
    keepWords.textContent = t("The site could not all be kept ({error}); what was kept stays. Try again once online.", { error });
    keepButton.disabled = false;
    return;
  }
  keepWords.textContent = t("Keeping the whole site on this device: {done} of {total} files ({percent} %)…",
    { done, total, percent: Math.floor((100 * done) / total) });
}

if (keepButton) {
  if (!(build && "serviceWorker" in navigator && window.isSecureContext)) {
    keepWords.textContent = t("This browser cannot keep the site for offline use here (it needs a secure connection and service workers).");
  } else {
    keepWords.textContent = t("Checking what this device holds…");
    keepButton.addEventListener("click", async () => {
      keepButton.disabled = true;
      keepWords.textContent = t("Keeping the whole site on this device…");
      await window.taflApp;
      await navigator.serviceWorker.ready;
      (navigator.serviceWorker.controller || (await navigator.serviceWorker.getRegistration())?.active)
        ?.postMessage({ type: "keep-all", url: location.href });
    });
  }
}

// ---------------------------------------------------------------- a page not stored yet

async function listStoredPages(list) {
  const pages = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith("tafl-site-")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (!request.url.endsWith(".html") || !request.url.startsWith(root.href)) continue;
      if (/\/docs\/(offline|not-kept)\.html$/.test(new URL(request.url).pathname)) continue;  // these pages themselves
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
  const onOwnAddress = location.href.split(/[?#]/)[0].endsWith("/docs/not-kept.html");
  if (asked) asked.textContent = onOwnAddress ? t("The page you asked for") : t("The page at {address}", { address: decodeURI(location.pathname) });
  // the page is served at the address asked for, with its links read from its own address: the
  // links to places on this page must stay on this address
  for (const link of document.querySelectorAll('a[href^="#"]')) link.href = `${location.pathname}${location.search}${link.getAttribute("href")}`;
  document.getElementById("tafl-try-again")?.addEventListener("click", () => location.reload());
  if ("caches" in window) listStoredPages(stored).catch(() => {});
}
