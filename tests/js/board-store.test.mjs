// Saved games (one per tab, all kept) and share links, with stand-ins for the browser's storages
// and lock manager.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  GameStore, MAX_SAVED_GAMES, choiceOfRecord, linkedBoard, readShareLink, recordOfState, shareQuery, sideWasChosen, withoutShareLink,
} from "../../_static/tafl-board-store.mjs";

class MemoryStorage {
  constructor() { this.items = new Map(); }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

/** Web Locks between "tabs": one manager per browser, shared by the stores; a request that waits
 *  is granted when the lock is let go, or gives up when its signal aborts. */
class Locks {
  constructor() { this.held = new Set(); this.waiting = []; }
  request(name, options, callback) {
    if (!this.held.has(name)) return this.grant(name, callback);
    if (options.ifAvailable) return Promise.resolve(callback(null));
    return new Promise((resolve, reject) => {
      const entry = { name, grant: () => this.grant(name, callback).then(resolve, reject) };
      this.waiting.push(entry);
      options.signal?.addEventListener("abort", () => {
        this.waiting = this.waiting.filter((w) => w !== entry);
        reject(options.signal.reason);
      });
    });
  }
  grant(name, callback) {
    this.held.add(name);
    return Promise.resolve(callback({ name })).finally(() => {
      this.held.delete(name);
      const next = this.waiting.find((w) => w.name === name);
      if (next) { this.waiting = this.waiting.filter((w) => w !== next); next.grant(); }
    });
  }
  query() { return Promise.resolve({ held: [...this.held].map((name) => ({ name })) }); }
}

const PAGE = { variant: "lewis-1", toggles: {}, rules: "", position: "", turn: "", moves: [], cursor: null };

function state(extra = {}) {
  return { variant: "lewis-1", toggles: {}, rules_otn: "dim:11", start_position: "", start_turn: "", line: ["e2-e4"], cursor: 1, ...extra };
}

let ids = 0;
function tab(local, locks) {
  return new GameStore({ prefix: "tafl:/lewis-1.html:0", local, session: new MemoryStorage(), locks, newId: () => `g${++ids}` });
}

test("a share link carries the start position and first side of a game that did not start as its rules do", () => {
  const own = state({ variant: "", rules_otn: "dim:7 start:/3t3/", start_position: "/7/3t3/", start_turn: "defenders", line: ["d5-f5"] });
  const query = shareQuery(own, 0);
  assert.equal(query, "board=0&rules=dim%3A7+start%3A%2F3t3%2F&position=%2F7%2F3t3%2F&turn=defenders&moves=d5-f5");
  const back = readShareLink(`?${query}`, 0, PAGE).choice;
  assert.deepEqual(back, { variant: "", toggles: {}, rules: "dim:7 start:/3t3/", position: "/7/3t3/", turn: "defenders", moves: ["d5-f5"], cursor: null });
  // a game as its rules set it out carries neither (links stay as they were)
  assert.equal(shareQuery(state(), 0), "board=0&variant=lewis-1&moves=e2-e4");
});

test("links made before position and turn existed still open, with the page's own start", () => {
  const old = readShareLink("?board=0&variant=lewis-1&moves=e2-e4,f9-h9&ply=1", 0, { ...PAGE, position: "/11/" });
  assert.deepEqual(old.choice, { variant: "lewis-1", toggles: {}, rules: "", position: "", turn: "", moves: ["e2-e4", "f9-h9"], cursor: 1 });
  const pageRules = readShareLink("?board=0&moves=e2-e4", 0, { ...PAGE, position: "/11/" });
  assert.equal(pageRules.choice.position, "/11/");
  assert.equal(readShareLink("?board=1&moves=e2-e4", 0, PAGE), null);
  assert.equal(readShareLink("?utm_source=x", 0, PAGE), null);
});

test("a bad field of a share link is named", () => {
  assert.match(readShareLink("?board=0&ply=abc", 0, PAGE).error.message, /ply field must be a whole number, not "abc"/);
  assert.match(readShareLink("?board=0&turn=kings", 0, PAGE).error.message, /turn field must be attackers or defenders, not "kings"/);
  assert.match(readShareLink("?board=0&toggles=first", 0, PAGE).error.message, /not name:value/);
});

test("the address loses the share link's fields and keeps the others", () => {
  assert.equal(withoutShareLink("https://x.org/a.html?board=0&moves=e2-e4&position=%2F7&turn=defenders&utm_source=x#top"),
    "https://x.org/a.html?utm_source=x#top");
});

test("a saved record sets up the same game again, start and first side included", () => {
  const own = state({ variant: "", rules_otn: "dim:7", start_position: "/7/3t3/", start_turn: "defenders", line: ["d5-f5"] });
  const record = recordOfState(own, { human: "attackers", ai: 3, name: "" });
  assert.deepEqual(choiceOfRecord(JSON.parse(JSON.stringify(record)), PAGE),
    { variant: "", toggles: {}, rules: "dim:7", position: "/7/3t3/", turn: "defenders", moves: ["d5-f5"], cursor: 1 });
  // version 2 records (one slot per board) still open, with the rules' own first side
  assert.deepEqual(choiceOfRecord({ version: 2, variant: "brandubh", toggles: {}, rules: "", position: "", moves: ["d2-e2"], cursor: 1 }, PAGE).turn, "");
  assert.equal(choiceOfRecord({ moves: "nope" }, PAGE), null);
  assert.equal(choiceOfRecord({ variant: "other", moves: [] }, PAGE), null, "before version 2 only the page's own variant was saved");
});

test("each tab keeps its own game; a second tab opens a copy of a game the first has on its board", async () => {
  const local = new MemoryStorage();
  const locks = new Locks();
  const a = tab(local, locks);
  const first = await a.choose();
  assert.equal(first.record, null);
  a.write(first.id, { version: 3, moves: ["e2-e4"] });
  const b = tab(local, locks);
  const second = await b.choose();
  assert.equal(second.copiedFrom, first.id, "the newest game is held by tab a: tab b plays a copy");
  assert.notEqual(second.id, first.id);
  assert.deepEqual(second.record.moves, ["e2-e4"]);
  b.write(second.id, { version: 3, moves: ["e2-e4", "f9-h9"] });
  assert.deepEqual(a.read(first.id).moves, ["e2-e4"], "tab b never wrote tab a's game");
  assert.deepEqual(new Set(a.list().map((g) => g.id)), new Set([first.id, second.id]));
  assert.deepEqual([...(await a.heldElsewhere())], [second.id]);
});

test("a reload keeps the tab's own game, even when another tab saved a newer one", async () => {
  const local = new MemoryStorage();
  const locks = new Locks();
  const a = tab(local, locks);
  const mine = (await a.choose()).id;
  a.write(mine, { version: 3, moves: ["e2-e4"] });
  const b = tab(local, locks);
  const theirs = (await b.choose()).id;
  b.write(theirs, { version: 3, moves: ["g10-g7"] });
  a.release();  // tab a reloads: same tab (its session storage); its lock is let go a moment later
  const again = await a.choose();
  assert.equal(again.id, mine);
  assert.deepEqual(again.record.moves, ["e2-e4"]);
  assert.equal(again.copiedFrom, null);
});

test("a new tab adopts the newest game when no tab has it open", async () => {
  const local = new MemoryStorage();
  const locks = new Locks();
  const a = tab(local, locks);
  const id = (await a.choose()).id;
  a.write(id, { version: 3, moves: ["e2-e4"] });
  a.release();  // tab a closed
  await new Promise((resolve) => setTimeout(resolve, 0));
  const later = await tab(local, locks).choose();
  assert.equal(later.id, id);
  assert.equal(later.copiedFrom, null);
});

test("the one slot of an older build becomes a game of its own", async () => {
  const local = new MemoryStorage();
  local.setItem("tafl:/lewis-1.html:0", JSON.stringify({ version: 2, variant: "lewis-1", moves: ["e2-e4"], cursor: 1 }));
  const a = tab(local, new Locks());
  const chosen = await a.choose();
  assert.deepEqual(chosen.record.moves, ["e2-e4"]);
  assert.equal(local.getItem("tafl:/lewis-1.html:0"), null);
  assert.equal(a.list().length, 1);
});

test("without a lock manager a tab still keeps its own game", async () => {
  const local = new MemoryStorage();
  const a = tab(local, null);
  const id = (await a.choose()).id;
  a.write(id, { version: 3, moves: ["e2-e4"] });
  assert.equal((await a.choose()).id, id);
});

test("a storage that refuses to write is reported, not thrown", () => {
  const full = new MemoryStorage();
  full.setItem = () => { throw new Error("QuotaExceededError"); };
  const a = tab(full, null);
  assert.equal(a.write("g", { moves: [] }), false);
});

test("a duplicated tab (the same session storage) whose game is open in the first plays a copy", async () => {
  const local = new MemoryStorage();
  const locks = new Locks();
  const a = tab(local, locks);
  const id = (await a.choose()).id;
  a.write(id, { version: 3, moves: ["e2-e4"] });
  const twin = new GameStore({ prefix: a.prefix, local, session: a.session, locks, newId: () => `g${++ids}` });
  const started = Date.now();
  const awake = setInterval(() => {}, 100);  // AbortSignal.timeout alone does not keep Node running
  const copy = await twin.choose();
  clearInterval(awake);
  assert.equal(copy.copiedFrom, id);
  assert.ok(Date.now() - started >= 1400, "it waited for a reload's lock first");
});

test("a share link's moves: spaces around them are dropped, an empty one is refused by its number (N14)", () => {
  assert.deepEqual(readShareLink("?board=0&moves=e2-e4,%20f9-h9%20", 0, PAGE).choice.moves, ["e2-e4", "f9-h9"]);
  assert.match(readShareLink("?board=0&moves=,,,", 0, PAGE).error.message, /no move 1 \(two commas in a row/);
  assert.match(readShareLink("?board=0&moves=e2-e4,,f9-h9", 0, PAGE).error.message, /no move 2 /);
  assert.match(readShareLink("?board=0&moves=e2-e4,", 0, PAGE).error.message, /no move 2 /);
  assert.deepEqual(readShareLink("?board=0&moves=", 0, PAGE).choice.moves, []);
  assert.equal(linkedBoard("?board=3&moves=e2-e4"), "3");
  assert.equal(linkedBoard("?utm_source=x"), null);
});

test("a record says how its game ended and whether it is a copy; an old empty record's side was no choice", () => {
  const over = recordOfState(state({ outcome: { winner: "attackers", reason: "r" } }), { human: "both", ai: 3, name: "" });
  assert.equal(over.result, "attackers");
  assert.equal(over.version, 4);
  assert.equal(recordOfState(state({ outcome: { winner: null, reason: "r" } }), { human: "both", ai: 3, name: "" }).result, "draw");
  assert.equal(recordOfState(state(), { human: "both", ai: 3, name: "", copy: true }).copy, true);
  assert.equal("copy" in recordOfState(state(), { human: "both", ai: 3, name: "" }), false);
  assert.equal(sideWasChosen({ version: 3, moves: [] }), false);
  assert.equal(sideWasChosen({ version: 3, moves: ["e2-e4"] }), true);
  assert.equal(sideWasChosen({ version: 4, moves: [] }), true);
});

test("the oldest games beyond the limit are forgotten, never one open in a tab; forget all keeps those too", () => {
  const local = new MemoryStorage();
  let clock = 0;
  const store = new GameStore({ prefix: "p", local, session: new MemoryStorage(), now: () => ++clock, newId: () => `g${++ids}` });
  const made = [];
  for (let i = 0; i < MAX_SAVED_GAMES + 3; i++) {
    const id = store.newId();
    store.write(id, { version: 4, moves: ["e2-e4"] });
    made.push(id);
  }
  const oldest = made[0];
  assert.deepEqual(store.prune(MAX_SAVED_GAMES, new Set([oldest])), [made[1], made[2], made[3]], "oldest first");
  assert.equal(store.list().length, MAX_SAVED_GAMES);
  assert.ok(store.list().some((g) => g.id === oldest), "a game open in a tab is kept");
  assert.equal(store.forgetAll(new Set([made[5]])), MAX_SAVED_GAMES - 1);
  assert.deepEqual(store.list().map((g) => g.id), [made[5]]);
});

test("a kiosk's store keeps one game per board, whatever else was saved before", async () => {
  const local = new MemoryStorage();
  const before = tab(local, null);
  before.write("g-old", { version: 4, moves: ["e2-e4"] });
  const kiosk = new GameStore({ prefix: before.prefix, local, session: new MemoryStorage(), locks: new Locks(), single: "kiosk" });
  const chosen = await kiosk.choose();
  assert.deepEqual(chosen, { id: "kiosk", record: null, copiedFrom: null });
  assert.equal(kiosk.newId(), "kiosk");
  kiosk.write("kiosk", { version: 4, moves: ["d2-e2"] });
  kiosk.write(kiosk.newId(), { version: 4, moves: [] });
  assert.deepEqual(kiosk.list().map((g) => g.id), ["kiosk"]);
  assert.equal((await kiosk.choose()).record.moves.length, 0);
});
