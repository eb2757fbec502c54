// Kiosk mode, for a screen a museum leaves running (docs/offline.md says how to turn it on).
// An address with ?kiosk (or ?kiosk=MINUTES) turns it on for the whole site in this browser, and
// makes that page the kiosk's own; ?kiosk=off turns it off. While it is on, after MINUTES without a
// touch, a key or a scroll, every board of the kiosk's page is set out again at its start and the
// page goes back to its top; on any other page the browser goes back to the kiosk's page. Each
// board keeps a single game (tafl-board-game.mjs), so games played at a kiosk do not pile up.
//
// This module is on every page of the site; tafl-board.mjs reads the same setting for its boards.

export const KIOSK_KEY = "tafl:kiosk";
export const DEFAULT_MINUTES = 3;
const MIN_MINUTES = 0.1;
const MAX_MINUTES = 24 * 60;
const ACTIVITY = ["pointerdown", "keydown", "wheel", "touchstart", "scroll", "input"];

/**
 * The kiosk setting after the address `href` is opened: `{minutes, home}`, or null when kiosk mode
 * is off. ?kiosk turns it on (and remembers it in `storage`), ?kiosk=off turns it off; a value that
 * is neither "off" nor a number of minutes from 0.1 to 1440 is taken as the default, and said.
 * @param {string} href
 * @param {Storage} storage
 * @param {(message: string) => void} warn
 */
export function kioskSetting(href, storage, warn = () => {}) {
  const url = new URL(href);
  if (url.searchParams.has("kiosk")) {
    const value = url.searchParams.get("kiosk").trim().toLowerCase();
    try {
      if (value === "off") {
        storage.removeItem(KIOSK_KEY);
        return null;
      }
      let minutes = DEFAULT_MINUTES;
      if (value !== "" && value !== "on") {
        const asked = Number(value);
        if (Number.isFinite(asked) && asked >= MIN_MINUTES && asked <= MAX_MINUTES) minutes = asked;
        else warn(`kiosk=${value.slice(0, 20)} is not "off" nor a number of minutes from ${MIN_MINUTES} to ${MAX_MINUTES}: the kiosk waits ${DEFAULT_MINUTES} minutes`);
      }
      const setting = { minutes, home: url.pathname + url.search };
      storage.setItem(KIOSK_KEY, JSON.stringify(setting));
      return setting;
    } catch {
      return null;  // storage switched off: no kiosk
    }
  }
  try {
    const kept = JSON.parse(storage.getItem(KIOSK_KEY) || "null");
    return kept && Number.isFinite(kept.minutes) && typeof kept.home === "string" ? kept : null;
  } catch {
    return null;
  }
}

/**
 * Call `onIdle` once `minutes` have passed with no activity on `target`, and again only after
 * further activity and another such wait. Returns a function that stops watching.
 */
export function watchIdle(target, minutes, onIdle, { setTimer = setTimeout, clearTimer = clearTimeout } = {}) {
  let timer = null;
  const arm = () => {
    clearTimer(timer);
    timer = setTimer(() => { timer = null; onIdle(); }, minutes * 60000);
  };
  const options = { capture: true, passive: true };
  for (const type of ACTIVITY) target.addEventListener(type, arm, options);
  arm();
  return () => {
    clearTimer(timer);
    for (const type of ACTIVITY) target.removeEventListener(type, arm, options);
  };
}

/** A page's path as the site serves it: "/docs/" and "/docs/index.html" are one page. */
export function samePage(path) {
  return path.replace(/\/index\.html$/, "/");
}

/** The event a page's boards answer by setting themselves out again (tafl-board.mjs). */
export const RESET_EVENT = "tafl-kiosk-reset";

function start() {
  if (window.__taflKiosk) return;  // this module can be loaded twice (with and without the page's ?v=)
  window.__taflKiosk = true;
  const setting = kioskSetting(location.href, localStorage, (message) => console.warn(message));
  if (!setting) return;
  document.documentElement.classList.add("tafl-kiosk");
  watchIdle(document, setting.minutes, () => {
    const home = new URL(setting.home, location.href);
    if (samePage(home.pathname) !== samePage(location.pathname)) {
      location.assign(home.href);
      return;
    }
    // the boards set themselves out again, then the page goes to its top
    const reset = { done: [] };
    window.dispatchEvent(new CustomEvent(RESET_EVENT, { detail: reset }));
    Promise.allSettled(reset.done).then(() => window.scrollTo({ top: 0, left: 0, behavior: "instant" }));
  });
}

if (typeof window !== "undefined" && typeof document !== "undefined") start();
