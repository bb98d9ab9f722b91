// Keyed updates of the phone's page: a list is changed only where it changed, so a screen reader reading it keeps its
// place (an unchanged card is the same element after another player's move), and the moves that are new since the
// last update are found for the live region, by their places in the game's log. No DOM of its own: `reconcile` works on any parent whose children have
// `dataset.key`, so the unit tests (tests/page/) run it on plain objects, without a browser.

// Keys for a list of ids that may repeat (two Basic Alpacas): "basic-alpaca#1", "basic-alpaca#2", in order, so the
// second copy keeps its key when the first is not the one that left.
export function occurrenceKeys(ids) {
  const seen = new Map();
  return ids.map((id) => {
    const count = (seen.get(id) || 0) + 1;
    seen.set(id, count);
    return `${id}#${count}`;
  });
}

// Make `parent`'s children the `items` ({key, ...}) in order: a child whose key is still there is kept, a new key
// gets `make(item)` (its `dataset.key` set here), a key gone is removed; then each is given `update(child, item)`,
// which changes only what differs. Nodes are moved only when out of place. Returns how many nodes were made, kept
// and removed.
export function reconcile(parent, items, make, update) {
  const old = new Map();
  for (const child of Array.from(parent.children)) old.set(child.dataset.key, child);
  const counts = { made: 0, kept: 0, removed: 0 };
  const wanted = new Set(items.map((item) => item.key));
  for (const [key, child] of old) {
    if (!wanted.has(key)) {
      child.remove();
      counts.removed += 1;
    }
  }
  let index = 0;
  for (const item of items) {
    let child = old.get(item.key);
    if (child && wanted.has(item.key)) {
      counts.kept += 1;
      old.delete(item.key); // a key listed twice is made twice, never one node in two places
    } else {
      child = make(item);
      child.dataset.key = item.key;
      counts.made += 1;
    }
    if (update) update(child, item);
    const here = parent.children[index] || null;
    if (here !== child) parent.insertBefore(child, here);
    index += 1;
  }
  return counts;
}

// Keys for the last moves ({at, kind, text}): each by its place in the game's log, what it tells (a move, an undo's or
// a redo's words) and its words, then which of those it is ("5/move/Ben drew a card.#1"). A move's node keeps its key
// while older moves fall off the list, and the same words at another place are another move.
export function moveKeys(moves) {
  return occurrenceKeys(moves.map((move) => `${move.at}/${move.kind}/${move.text}`));
}

// The moves of `after` that are new since `before` (both oldest first): those at a place of the game's log that was not
// listed, whatever their words (a round repeated word for word is new again), and those at a place an undo took back
// and another move filled between the two views. A move undone is simply gone from `after`. With no `before` (the
// first view), nothing is new.
export function newMoves(before, after) {
  if (before === null) return [];
  const listed = new Set(moveKeys(before));
  const keys = moveKeys(after);
  return after.filter((move, index) => !listed.has(keys[index]));
}

// The live region's line: what several updates told, merged in the order things happened, said once when no new
// update has come for `quiet` ms. `schedule(fn, ms)` and `cancel(id)` are the timer (setTimeout and clearTimeout on
// the page, a fake clock in the tests); `say(text)` puts the line in the live region.
export class Announcer {
  constructor(say, schedule, cancel, quiet = 700) {
    this.say = say;
    this.schedule = schedule;
    this.cancel = cancel;
    this.quiet = quiet;
    this.waiting = [];
    this.timer = null;
  }

  add(lines) {
    if (!lines.length) return;
    this.waiting.push(...lines);
    if (this.timer !== null) this.cancel(this.timer);
    this.timer = this.schedule(() => this.flush(), this.quiet);
  }

  flush() {
    this.timer = null;
    if (!this.waiting.length) return;
    const text = this.waiting.join(" ");
    this.waiting = [];
    this.say(text);
  }
}
