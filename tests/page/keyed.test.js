// The page's keyed updates without a browser: `reconcile` on plain objects that act as elements, `newMoves`, and the
// live region's merged line on a fake clock.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Announcer, moveKeys, newMoves, occurrenceKeys, reconcile } from "../../assistant/share/page/keyed.js";

// An element as much as `reconcile` uses of one: children in order, insertBefore, remove, dataset.
class Node {
  constructor(text = "") {
    this.text = text;
    this.dataset = {};
    this.children = [];
    this.parent = null;
  }

  insertBefore(child, before) {
    if (child.parent) child.remove();
    const at = before === null ? this.children.length : this.children.indexOf(before);
    this.children.splice(at, 0, child);
    child.parent = this;
  }

  remove() {
    const siblings = this.parent.children;
    siblings.splice(siblings.indexOf(this), 1);
    this.parent = null;
  }
}

const make = (item) => new Node(item.text);
const update = (node, item) => {
  node.text = item.text;
};
const items = (...texts) => {
  const keys = occurrenceKeys(texts);
  return texts.map((text, index) => ({ key: keys[index], text }));
};

test("an unchanged card is the same node after another card leaves and one comes", () => {
  const stable = new Node();
  reconcile(stable, items("baby-red", "basic-red", "rainbow-aura"), make, update);
  const [baby, , aura] = stable.children;
  const counts = reconcile(stable, items("baby-red", "rainbow-aura", "slowdown"), make, update);
  assert.deepEqual(counts, { made: 1, kept: 2, removed: 1 });
  assert.equal(stable.children[0], baby);
  assert.equal(stable.children[1], aura);
  assert.deepEqual(stable.children.map((node) => node.text), ["baby-red", "rainbow-aura", "slowdown"]);
});

test("nothing changed: no node made, moved or removed", () => {
  const list = new Node();
  reconcile(list, items("a", "b", "c"), make, update);
  const before = [...list.children];
  const moved = [];
  const insert = list.insertBefore.bind(list);
  list.insertBefore = (child, ref) => {
    moved.push(child);
    insert(child, ref);
  };
  assert.deepEqual(reconcile(list, items("a", "b", "c"), make, update), { made: 0, kept: 3, removed: 0 });
  assert.deepEqual(list.children, before);
  assert.deepEqual(moved, []);
});

test("two copies of a card keep their own keys, and the order follows the items", () => {
  assert.deepEqual(occurrenceKeys(["alpaca", "llama", "alpaca"]), ["alpaca#1", "llama#1", "alpaca#2"]);
  const field = new Node();
  reconcile(field, items("alpaca", "llama", "alpaca"), make, update);
  const llama = field.children[1];
  reconcile(field, items("llama", "alpaca", "alpaca"), make, update);
  assert.equal(field.children[0], llama);
  assert.deepEqual(field.children.map((node) => node.dataset.key), ["llama#1", "alpaca#1", "alpaca#2"]);
});

const moves = (...list) => list.map(([at, text, kind = "move"]) => ({ at, kind, text }));
const texts = (list) => list.map((move) => move.text);

test("the new moves are those at places of the game's log not listed before, whatever their words", () => {
  assert.deepEqual(newMoves(null, moves([1, "a"])), []);
  assert.deepEqual(texts(newMoves(moves([1, "a"], [2, "b"]), moves([1, "a"], [2, "b"], [3, "c"], [4, "d"]))), ["c", "d"]);
  assert.deepEqual(texts(newMoves(moves([1, "a"], [2, "b"], [3, "c"]), moves([2, "b"], [3, "c"], [4, "d"]))), ["d"]);
  // The same words at a new place are a new move: six alike, the oldest gone as a seventh comes.
  const six = [1, 2, 3, 4, 5, 6].map((at) => [at, "Ben drew a card."]);
  const next = [2, 3, 4, 5, 6, 7].map((at) => [at, "Ben drew a card."]);
  assert.deepEqual(newMoves(moves(...six), moves(...next)), moves([7, "Ben drew a card."]));
  // A place taken back and filled by another move between two views is new; an undo's words are new at its place.
  assert.deepEqual(texts(newMoves(moves([1, "a"], [2, "b"]), moves([1, "a"], [2, "e"]))), ["e"]);
  assert.deepEqual(texts(newMoves(moves([1, "a"], [2, "b"]), moves([1, "a"], [2, "Undone: b.", "undo"]))), ["Undone: b."]);
  // A move and the fact it led to share a place: one falling off the list keeps the other's key.
  assert.deepEqual(newMoves(moves([1, "a"], [1, "b"], [2, "c"]), moves([1, "b"], [2, "c"])), []);
  assert.deepEqual(moveKeys(moves([1, "a"], [1, "a"], [2, "a"])), ["1/move/a#1", "1/move/a#2", "2/move/a#1"]);
});

test("updates close together are said as one line, in order, once the table is quiet", () => {
  const said = [];
  const timers = new Map();
  let serial = 0;
  const announcer = new Announcer(
    (text) => said.push(text),
    (act) => {
      serial += 1;
      timers.set(serial, act);
      return serial;
    },
    (id) => timers.delete(id),
  );
  announcer.add(["Ana played Rainbow Aura."]);
  announcer.add([]);
  announcer.add(["Ben played Neigh.", "Cy played Super Neigh."]);
  assert.deepEqual(said, []);
  assert.equal(timers.size, 1); // the first timer was cancelled by the second update
  for (const act of timers.values()) act();
  assert.deepEqual(said, ["Ana played Rainbow Aura. Ben played Neigh. Cy played Super Neigh."]);
  announcer.flush();
  assert.equal(said.length, 1); // nothing new: nothing said again
});
