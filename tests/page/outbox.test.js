// The page's outbox without a browser: a tap is kept with its key in storage until the server answers, through
// failed sends and a reload (a new Outbox on the same storage), and sent once answered; taps wait in order.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Outbox, freshKey } from "../../assistant/share/page/outbox.js";

class Storage {
  constructor() {
    this.items = new Map();
  }

  getItem(name) {
    return this.items.has(name) ? this.items.get(name) : null;
  }

  setItem(name, value) {
    this.items.set(name, String(value));
  }

  removeItem(name) {
    this.items.delete(name);
  }
}

let counter = 0;
const fill = (bytes) => {
  counter += 1;
  bytes.fill(counter % 256);
};

test("a key is 32 hex digits, fresh for each tap", () => {
  const first = freshKey(fill);
  assert.match(first, /^[0-9a-f]{32}$/);
  assert.notEqual(freshKey(fill), first);
});

test("a tap is kept through failed sends and a reload, sent with the same key until answered, then forgotten", async () => {
  const storage = new Storage();
  const sent = [];
  let network = false;
  const send = async (entry) => {
    sent.push(entry.key);
    if (!network) throw new Error("no network");
    return { status: 200, data: { status: "recorded" } };
  };
  const outbox = new Outbox(storage, "ta_outbox", send, fill);
  outbox.put("/api/move", { verb: "draw" });
  assert.equal(await outbox.try(), null);
  assert.equal(await outbox.try(), null);
  const reloaded = new Outbox(storage, "ta_outbox", send, fill); // the page reloaded: the tap is still there
  assert.deepEqual(reloaded.waiting.body, { verb: "draw" });
  network = true;
  const answered = await reloaded.try();
  assert.equal(answered.answer.data.status, "recorded");
  assert.equal(new Set(sent).size, 1); // one key for every try
  assert.equal(sent.length, 3);
  assert.equal(reloaded.waiting, null);
  assert.equal(await reloaded.try(), null); // nothing left: nothing sent
  assert.equal(sent.length, 3);
});

test("a busy server is no answer: the move stays; a refusal is an answer", async () => {
  const storage = new Storage();
  const statuses = [429, 503, 409];
  const outbox = new Outbox(storage, "o", async () => ({ status: statuses.shift(), data: {} }), fill);
  outbox.put("/api/move", { verb: "neigh" });
  assert.equal(await outbox.try(), null);
  assert.equal(await outbox.try(), null);
  assert.equal((await outbox.try()).answer.status, 409);
  assert.equal(outbox.waiting, null);
});

test("taps made while one waits are sent after it, in order", async () => {
  const storage = new Storage();
  const bodies = [];
  const outbox = new Outbox(storage, "o", async (entry) => {
    bodies.push(entry.body.verb);
    return { status: 200, data: {} };
  }, fill);
  outbox.put("/api/move", { verb: "draw" });
  outbox.put("/api/move", { verb: "end" });
  await outbox.try();
  await outbox.try();
  assert.deepEqual(bodies, ["draw", "end"]);
});

test("damaged storage is an empty outbox, never an error", async () => {
  const storage = new Storage();
  storage.setItem("o", "{not json");
  const outbox = new Outbox(storage, "o", async () => ({ status: 200 }), fill);
  assert.equal(outbox.waiting, null);
  assert.equal(await outbox.try(), null);
});
