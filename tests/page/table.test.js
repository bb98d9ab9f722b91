// The page script itself (table.js) without a browser: a fake document as much as the script uses of one, a fake
// server behind `fetch` and `EventSource`, and the debounce's timers run by the test. The phone joins, the table
// offers the Instant button, and its search keeps only Instants (and cards the server gave no kind), the server's or,
// while the network is down, the one made on the phone.
import assert from "node:assert/strict";
import { test } from "node:test";

// ---- a fake document ---------------------------------------------------------------------------------------------

const made = []; // every element, to answer the selectors the script asks

class Element {
  constructor(tag, id = "") {
    this.tagName = tag.toUpperCase();
    this.id = id;
    this.children = [];
    this.parentElement = null;
    this.dataset = {};
    this.attributes = new Map();
    this.listeners = new Map();
    this.hidden = false;
    this.value = "";
    this.className = "";
    this.ownText = "";
    this.classList = { add: (name) => (this.className = `${this.className} ${name}`.trim()) };
    made.push(this);
  }

  get textContent() {
    return this.ownText + this.children.map((child) => child.textContent).join("");
  }

  set textContent(text) {
    this.children = [];
    this.ownText = String(text);
  }

  get firstChild() {
    return this.children[0] || null;
  }

  appendChild(child) {
    this.insertBefore(child, null);
    return child;
  }

  append(...children) {
    for (const child of children) this.appendChild(child);
  }

  insertBefore(child, before) {
    if (child.parentElement) child.remove();
    const at = before === null ? this.children.length : this.children.indexOf(before);
    this.children.splice(at, 0, child);
    child.parentElement = this;
  }

  remove() {
    const siblings = this.parentElement.children;
    siblings.splice(siblings.indexOf(this), 1);
    this.parentElement = null;
  }

  replaceChildren(...children) {
    for (const child of this.children) child.parentElement = null;
    this.children = [];
    this.append(...children);
  }

  contains(other) {
    for (let node = other; node; node = node.parentElement) if (node === this) return true;
    return false;
  }

  querySelector(selector) {
    const tag = selector.toUpperCase();
    const found = this.children.flatMap((child) => (child.tagName === tag ? [child] : []));
    return found[0] || null;
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  removeAttribute(name) {
    this.attributes.delete(name);
  }

  addEventListener(type, listener) {
    this.listeners.set(type, [...(this.listeners.get(type) || []), listener]);
  }

  removeEventListener(type, listener) {
    this.listeners.set(
      type,
      (this.listeners.get(type) || []).filter((kept) => kept !== listener),
    );
  }

  dispatch(type, event = {}) {
    for (const listener of this.listeners.get(type) || []) {
      listener({ currentTarget: this, preventDefault() {}, ...event });
    }
  }

  focus() {
    document.activeElement = this;
  }

  closest(selector) {
    const tag = selector.toUpperCase();
    for (let node = this; node; node = node.parentElement) if (node.tagName === tag) return node;
    return null;
  }
}

const byId = new Map();
const document = {
  activeElement: null,
  title: "",
  body: new Element("body"),
  getElementById(id) {
    if (!byId.has(id)) byId.set(id, new Element("div", id));
    return byId.get(id);
  },
  createElement(tag) {
    return new Element(tag);
  },
  querySelectorAll(selector) {
    if (selector === "button[data-verb]") return made.filter((e) => e.tagName === "BUTTON" && e.dataset.verb);
    return []; // [data-word], [data-vocab]: the page's static words, none here
  },
  querySelector(selector) {
    const verb = /^button\[data-verb="([^"]+)"\]$/.exec(selector);
    return verb ? made.find((e) => e.tagName === "BUTTON" && e.dataset.verb === verb[1]) || null : null;
  },
};

// ---- a fake server -----------------------------------------------------------------------------------------------

const VERBS = [
  { verb: "instant", label: "instant", deck_word: false, pick: "card", needs_card: true, on_pile: true, into: "", only: "instant" },
  { verb: "play", label: "play", deck_word: false, pick: "card", needs_card: true, on_pile: false, into: "downgrade", only: "", aims: true },
  { verb: "read", label: "read", deck_word: false, pick: "card", needs_card: true, on_pile: false, into: "", only: "" },
  { verb: "neigh", label: "instant", deck_word: true, pick: "", needs_card: false, on_pile: true, into: "", only: "" },
];
// What a search finds: an Instant, an Upgrade, and a card the server gave no kind.
const FOUND = [
  { id: "neigh", name: "Neigh", type: "Instant", kind: "instant" },
  { id: "yay", name: "Yay", type: "Upgrade", kind: "upgrade" },
  { id: "mystery", name: "Mystery" },
];
// The game's cards, learnt once at the start, which the phone searches itself while the network is down: an Instant,
// a Downgrade and a card the server gave no kind, all found by "n".
const ALL = [
  { id: "neigh", name: "Neigh", type: "Instant", kind: "instant" },
  { id: "nanny-cam", name: "Nanny Cam", type: "Downgrade", kind: "downgrade" },
  { id: "narwhal", name: "Narwhal" },
];
const asked = [];
const sent = []; // the bodies of the moves sent
let offline = false; // the searches fail as a dropped network's requests do
let me = [200, { player: "Ben", csrf: "token", words: {}, verbs: VERBS }]; // what /api/me answers

function answer(status, data) {
  return Promise.resolve({ status, json: () => Promise.resolve(data) });
}

const headers = []; // the headers of each request, by path
function fetch(path, options = {}) {
  asked.push(path);
  headers.push([path, options.headers || {}]);
  if (path === "/api/code") return answer(200, { players: ["Ana", "Ben"], taken: [], words: {}, verbs: VERBS, line: "" });
  if (path === "/api/move") {
    const body = JSON.parse(options.body);
    if (body.verb === "read") return answer(200, { status: "text", lines: ["Yay", "Upgrade card."] });
    sent.push(body);
    return answer(200, { status: "recorded" });
  }
  if (path === "/api/me") return answer(...me);
  if (path === "/api/cards?all=1") return answer(200, { cards: ALL });
  if (path.startsWith("/api/cards?q=")) {
    return offline ? Promise.reject(new TypeError("Failed to fetch")) : answer(200, { cards: FOUND });
  }
  return answer(404, {});
}

class EventSource {
  static CLOSED = 2;
  static opened = [];

  constructor(url) {
    this.url = url;
    this.readyState = 1;
    this.listeners = new Map();
    EventSource.opened.push(this);
  }

  addEventListener(type, listener) {
    this.listeners.set(type, listener);
  }

  close() {
    this.readyState = EventSource.CLOSED;
  }
}

// The script's timers (the search's debounce, the live region's), run when the test says.
let timers = [];
function runTimers() {
  const due = timers;
  timers = [];
  for (const act of due) act();
}

const storage = new Map();
const windowListeners = new Map(); // the page's listeners on the window, by event type
const onWindow = (type, event = {}) => (windowListeners.get(type) || []).forEach((listener) => listener(event));
Object.assign(globalThis, {
  document,
  fetch,
  EventSource,
  setTimeout: (act) => timers.push(act) && timers.length,
  clearTimeout: () => {},
  window: {
    localStorage: {
      getItem: (name) => (storage.has(name) ? storage.get(name) : null),
      setItem: (name, value) => storage.set(name, value),
      removeItem: (name) => storage.delete(name),
    },
    addEventListener: (type, listener) => windowListeners.set(type, [...(windowListeners.get(type) || []), listener]),
    removeEventListener() {},
  },
  location: { port: "8123", search: "" },
  history: { replaceState() {} },
});

const settled = () => new Promise((resolve) => setImmediate(resolve));

async function settle() {
  for (let i = 0; i < 10; i += 1) await settled();
}

await import("../../assistant/share/page/table.js");
await settle(); // the page asked who this phone is, and listens to the table

const $ = (id) => document.getElementById(id);

function showTable(may = ["instant", "play"]) {
  const stream = EventSource.opened.at(-1);
  const view = {
    version: 1,
    game: {
      turn: "Turn 1: Ana's turn.",
      players: [{ name: "Ana", summary: "", cards: [] }, { name: "Ben", summary: "", cards: [] }],
      pile: [{ id: "yay", name: "Yay", player: "Ana" }],
      may,
      last: [],
      words: {},
    },
  };
  stream.listeners.get("state")({ data: JSON.stringify(view) });
}

async function searched(verb, query) {
  const button = document.querySelector(`button[data-verb="${verb}"]`);
  assert.equal(button.hidden, false, `the ${verb} button is offered`);
  button.dispatch("click");
  $("search").value = query;
  $("search").dispatch("input");
  runTimers(); // the debounce
  await settle();
  assert.ok(asked.includes(`/api/cards?q=${query}`));
  return {
    buttons: $("search-results").children.map((entry) => entry.firstChild.textContent),
    count: $("search-count").textContent,
  };
}

test("the Instant button's search offers only Instants, and cards the server gave no kind", async () => {
  assert.ok(asked.includes("/api/me"));
  showTable();
  const found = await searched("instant", "e");
  assert.deepEqual(found.buttons, ["Neigh, Instant", "Mystery"]);
  assert.equal(found.count, "Neigh, Mystery");
});

test("another card's search offers every card found", async () => {
  showTable();
  const found = await searched("play", "y");
  assert.deepEqual(found.buttons, ["Neigh, Instant", "Yay, Upgrade", "Mystery"]);
});

test("while the network is down the Instant button's search, made on the phone, still offers only Instants", async () => {
  assert.ok(asked.includes("/api/cards?all=1"));
  offline = true;
  try {
    showTable();
    const instant = await searched("instant", "n");
    assert.deepEqual(instant.buttons, ["Neigh, Instant", "Narwhal"]);
    showTable();
    const played = await searched("play", "n");
    assert.deepEqual(played.buttons, ["Neigh, Instant", "Nanny Cam, Downgrade", "Narwhal"]);
  } finally {
    offline = false;
  }
});

// ---- a play's declared target ------------------------------------------------------------------------------------

async function played(query, name) {
  $("search").value = query;
  $("search").dispatch("input");
  runTimers(); // the debounce
  await settle();
  const entry = $("search-results").children.find((item) => item.firstChild.textContent.startsWith(name));
  entry.firstChild.dispatch("click");
  await settle();
  return sent.at(-1);
}

test("a play declares the player its card targets, chosen in a labelled list; none chosen, none sent", async () => {
  showTable();
  document.querySelector('button[data-verb="play"]').dispatch("click");
  assert.equal($("aim-box").hidden, false, "the play asks whom it targets");
  const options = $("aim").children.map((option) => [option.value, option.textContent]);
  assert.deepEqual(options.map(([value]) => value), ["", "Ana", "Ben"]); // no one first, the others, then oneself
  assert.equal($("aim").value, "");
  $("aim").value = "Ana";
  assert.deepEqual(await played("y", "Yay"), { key: sent.at(-1).key, verb: "play", card: "yay", aim: "Ana" });

  showTable();
  document.querySelector('button[data-verb="play"]').dispatch("click");
  assert.equal($("aim").value, "", "each play declares its own target");
  const plain = await played("y", "Yay");
  assert.equal(plain.verb, "play");
  assert.equal("aim" in plain, false);

  showTable();
  document.querySelector('button[data-verb="instant"]').dispatch("click");
  assert.equal($("aim-box").hidden, true, "an Instant is played with no target declared");
});

test("a card played from its own page declares its target there", async () => {
  showTable(["instant", "play", "read"]);
  document.querySelector('button[data-verb="read"]').dispatch("click");
  $("search").value = "y";
  $("search").dispatch("input");
  runTimers();
  await settle();
  $("search-results").children.find((item) => item.firstChild.textContent.startsWith("Yay")).firstChild.dispatch("click");
  await settle();
  assert.equal($("card-play").hidden, false);
  assert.equal($("card-aim-box").hidden, false, "the card's page asks whom it targets");
  assert.equal($("card-aim").value, "");
  $("card-aim").value = "Ana";
  $("card-play").dispatch("click");
  await settle();
  assert.equal(sent.at(-1).aim, "Ana");
  assert.equal(sent.at(-1).card, "yay");
  assert.equal($("card-aim-box").hidden, true);
});

// ---- the last moves, by their places in the game's log ------------------------------------------------------------

function showMoves(version, last) {
  const stream = EventSource.opened.at(-1);
  const game = { turn: "Turn 3: Ben's turn.", players: [], pile: [], may: [], last, words: {} };
  stream.listeners.get("state")({ data: JSON.stringify({ version, game }) });
  runTimers(); // the live region's quiet time
}

const drew = (at) => ({ at, kind: "move", text: "Ben drew a card." });
const listed = () => $("last").children.map((entry) => entry.textContent);

test("the same words at a new place of the game's log are news again, and a move undone is no longer listed", () => {
  showMoves(100, [drew(1)]);
  const before = $("news").textContent;
  showMoves(101, [drew(1), drew(2)]); // a round repeated word for word
  const said = $("news").textContent;
  assert.equal(said.trim(), "Ben drew a card."); // (a no-break space is whitespace to `trim`, never heard)
  assert.notEqual(said, before); // the region changed, so it is read again
  assert.deepEqual(listed(), ["Ben drew a card.", "Ben drew a card."]);

  // Six alike kept, the oldest falls off as a seventh comes: the words are the same list, the places are not.
  showMoves(102, [1, 2, 3, 4, 5, 6].map(drew));
  $("news").textContent = "";
  showMoves(103, [2, 3, 4, 5, 6, 7].map(drew));
  assert.equal($("news").textContent, "Ben drew a card.");

  // The undo of place 7: its move goes from the list (by its place), and the undo's words are said.
  const undone = { at: 7, kind: "undo", text: "Undone: the card Ben drew is back on the deck." };
  showMoves(104, [2, 3, 4, 5, 6].map(drew).concat([undone]));
  assert.equal($("news").textContent, undone.text);
  assert.deepEqual(listed(), [...Array(5).fill("Ben drew a card."), undone.text]);
  $("news").textContent = "";
  showMoves(105, [2, 3, 4, 5, 6].map(drew).concat([undone])); // the same view again: nothing new
  assert.equal($("news").textContent, "");

  // Another move at the place taken back, the undo's view missed between the two: news, with the same words.
  showMoves(106, [2, 3, 4, 5, 6, 7].map(drew));
  assert.equal($("news").textContent, "Ben drew a card.");
});

// ---- a press never moved -------------------------------------------------------------------------------------------

function tableCame(version, pile) {
  const game = { turn: "Turn 1: Ana's turn.", players: [], pile, may: ["neigh"], last: [], words: {} };
  EventSource.opened.at(-1).listeners.get("state")({ data: JSON.stringify({ version, game }) });
}

const yay = { id: "yay", name: "Yay", player: "Ana" };
const bens = { id: "neigh", name: "Neigh", player: "Ben" };

test("a table that comes while a button is pressed is shown once it is let go, after the move it made", async () => {
  tableCame(200, [yay]);
  const neigh = document.querySelector('button[data-verb="neigh"]');
  onWindow("pointerdown", { target: neigh });
  tableCame(201, [yay, bens]); // Ben's Neigh on the same card, as Ana's finger is down on Neigh
  assert.equal($("pile").children.length, 1, "the buttons stay where they were under the finger");
  assert.equal(document.body.dataset.version, "200");
  onWindow("pointerup");
  onWindow("click", { target: neigh });
  neigh.dispatch("click");
  await settle();
  assert.deepEqual(sent.at(-1), { key: sent.at(-1).key, verb: "neigh", on: "yay" }); // on the card she saw on top
  runTimers(); // after the click: the table that came is shown
  assert.equal($("pile").children.length, 2);
  assert.equal(document.body.dataset.version, "201");
});

test("a release that makes no click shows the table that came a moment later; a later press is held anew", () => {
  tableCame(300, [yay]);
  const neigh = document.querySelector('button[data-verb="neigh"]');
  onWindow("pointerdown", { target: neigh });
  tableCame(301, [yay, bens]);
  onWindow("pointerup"); // let go off the button: no click
  const grace = timers;
  timers = [];
  onWindow("pointerdown", { target: neigh }); // pressed again before the moment passed
  grace.forEach((act) => act()); // the first release's moment: the second press is not let go by it
  runTimers();
  assert.equal($("pile").children.length, 1, "still held while pressed");
  onWindow("pointercancel"); // the finger scrolled away
  runTimers();
  assert.equal($("pile").children.length, 2);
  assert.equal(document.body.dataset.version, "301");
});

test("a table that comes with no button pressed is shown at once", () => {
  tableCame(400, [yay]);
  onWindow("pointerdown", { target: $("pile") }); // (a press on no button holds nothing)
  tableCame(401, [yay, bens]);
  assert.equal($("pile").children.length, 2);
});

// ---- a phone taken off the table ----------------------------------------------------------------------------------

test("a phone taken off before its stream opened says why, as the server tells it, on the join screen", async () => {
  // Let in a moment before, the phone is taken off while its stream is on its way: the stream is refused unread,
  // and the page asks who it is again; the server answers that it is no device, and why.
  const removed = "The host took this phone off the table. Enter the join code to join again.";
  me = [401, { error: removed, gone: "removed" }];
  const stream = EventSource.opened.at(-1);
  stream.readyState = EventSource.CLOSED;
  stream.listeners.get("error")({});
  runTimers(); // a second later: who is this phone?
  await settle();
  assert.equal($("join").hidden, false);
  assert.equal($("notice").textContent, removed);
  assert.equal($("notice").hidden, false);
});

test("a page opened from the QR code asks for the players with its token, no code typed, and joins with it", async () => {
  // The QR code holds the page's address with the join token (`?link=`), never the code: a second page, opened from
  // it on a phone that has not joined, goes straight to choosing who you are.
  me = [401, { error: "This phone has not joined the table yet." }];
  globalThis.location.search = "?link=Abc_-123456789012345678";
  $("notice").textContent = "";
  $("players-to-choose").replaceChildren();
  headers.length = 0;
  await import("../../assistant/share/page/table.js?opened-from-the-qr-code");
  await settle();
  const sent = headers.filter(([path]) => path === "/api/code");
  assert.equal(sent.length, 1);
  assert.equal(sent[0][1]["X-Join-Link"], "Abc_-123456789012345678");
  assert.deepEqual(
    $("players-to-choose").children.map((entry) => entry.firstChild.textContent),
    ["Ana", "Ben"],
  );
  assert.equal($("notice").textContent, ""); // a phone that never joined is told nothing of being taken off
});
