// Kiosk mode's setting and its idle watch (tafl-kiosk.mjs), with a stand-in storage and clock.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.window = { __taflKiosk: true };  // the module's own start is for pages, not for this test
const { DEFAULT_MINUTES, KIOSK_KEY, kioskSetting, samePage, watchIdle } = await import("../../_static/tafl-kiosk.mjs");

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

test("?kiosk turns kiosk mode on for the site, with its page as home; ?kiosk=off turns it off", () => {
  const storage = new MemoryStorage();
  assert.equal(kioskSetting("https://x.org/site/index.html", storage), null);
  assert.deepEqual(kioskSetting("https://x.org/site/docs/variants/brandubh.html?kiosk", storage),
    { minutes: DEFAULT_MINUTES, home: "/site/docs/variants/brandubh.html?kiosk" });
  assert.deepEqual(kioskSetting("https://x.org/site/docs/glossary.html", storage).home, "/site/docs/variants/brandubh.html?kiosk",
    "other pages of the site are in kiosk mode too, and know its page");
  assert.equal(kioskSetting("https://x.org/site/?kiosk=5", storage).minutes, 5);
  assert.equal(kioskSetting("https://x.org/site/?kiosk=0.5", storage).minutes, 0.5);
  assert.equal(kioskSetting("https://x.org/site/?kiosk=off", storage), null);
  assert.equal(storage.getItem(KIOSK_KEY), null);
  assert.equal(kioskSetting("https://x.org/site/index.html", storage), null);
});

test("a kiosk value that is no number of minutes is said, and the default used", () => {
  const said = [];
  const setting = kioskSetting("https://x.org/?kiosk=soon", new MemoryStorage(), (m) => said.push(m));
  assert.equal(setting.minutes, DEFAULT_MINUTES);
  assert.match(said[0], /^kiosk=soon is not "off" nor a number of minutes from 0\.1 to 1440/);
  assert.equal(kioskSetting("https://x.org/?kiosk=0", new MemoryStorage(), (m) => said.push(m)).minutes, DEFAULT_MINUTES);
  assert.equal(said.length, 2);
});

test("a storage that is switched off leaves kiosk mode off", () => {
  const off = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); }, removeItem() {} };
  assert.equal(kioskSetting("https://x.org/?kiosk=2", off), null);
  assert.equal(kioskSetting("https://x.org/", off), null);
});

test("the idle watch fires once after the wait with no activity, and each touch starts the wait again", () => {
  const listeners = new Map();
  const target = {
    addEventListener: (type, fn) => listeners.set(type, fn),
    removeEventListener: (type) => listeners.delete(type),
  };
  let now = 0;
  let timer = null;
  const clock = {
    setTimer: (fn, ms) => { timer = { fn, at: now + ms }; return timer; },
    clearTimer: (t) => { if (timer === t) timer = null; },
  };
  const advance = (ms) => { now += ms; if (timer && timer.at <= now) { const { fn } = timer; timer = null; fn(); } };
  let idle = 0;
  const stop = watchIdle(target, 2, () => idle++, clock);
  assert.deepEqual([...listeners.keys()].sort(), ["input", "keydown", "pointerdown", "scroll", "touchstart", "wheel"]);
  advance(119_000);
  listeners.get("pointerdown")();
  advance(119_000);
  assert.equal(idle, 0, "a touch started the wait again");
  advance(1_000);
  assert.equal(idle, 1);
  advance(600_000);
  assert.equal(idle, 1, "once, until there is activity again");
  listeners.get("keydown")();
  advance(120_000);
  assert.equal(idle, 2);
  stop();
  assert.equal(listeners.size, 0);
});

test("a folder's index and the folder are one page", () => {
  assert.equal(samePage("/site/index.html"), samePage("/site/"));
  assert.notEqual(samePage("/site/docs/a.html"), samePage("/site/"));
});
