// The phone's page of table-assistant's sharing server (docs/share.md has the protocol).
//
// Join with the code, choose who you are, then follow the table live (Server-Sent Events) and record your own
// moves. Every text from the server (names, cards, sentences, labels) is put in the page with textContent only,
// never as HTML. Every tap is kept with its idempotency key in the page's storage until the server answers it
// (outbox.js), so it is recorded once through drops and reloads. Updates change only what changed (keyed.js), and
// never move the focus: only the player's own taps do.

import { Announcer, moveKeys, newMoves, occurrenceKeys, reconcile } from "./keyed.js";
import { Outbox, freshKey } from "./outbox.js";

{
  const $ = (id) => document.getElementById(id);

  const page = {
    csrf: null, // the device's CSRF token (from /api/join or /api/me)
    player: null, // who this phone is
    code: "", // the join code typed (kept to join once a player is chosen)
    link: null, // the QR code's join token, from the page's address (?link=): sent instead of a code
    words: {}, // the page's labels: the server's, in the deck's words
    view: null, // the last view of the table
    stream: null, // the EventSource
    verbs: [], // the phone's verbs, from the server's one table: {verb, label, deck_word, pick, on_pile, ...}
    allCards: [], // every card of the game's decks ({id, name, type, kind, label}): searched here during a drop
    flushing: false, // the outbox is being sent
    waited: false, // the page said a move waits for the network: it says when it went through
    card: null, // the card whose page is open
    pick: null, // the move being built in the picker: {verb, mode, card}
    question: null, // the open warning's id
    focusTurn: false, // just joined: the first table shown takes the focus to its turn line
    pressed: null, // a button is pressed (a finger or the mouse down on it): a token of that press, else null
    held: null, // the newest table that came while a button was pressed, shown once it is let go
    searchTimer: 0,
    searchSerial: 0,
  };

  // ---- the server ------------------------------------------------------------------------------------------------

  async function request(method, path, body) {
    const options = { method, credentials: "same-origin", headers: {}, cache: "no-store" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    if (page.csrf) options.headers["X-CSRF-Token"] = page.csrf;
    if (page.link && (path === "/api/code" || path === "/api/join")) options.headers["X-Join-Link"] = page.link;
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    return { status: response.status, data: data || {} };
  }

  // A tap that changes the table (a move, an answer) is kept until the server answers it: the same key each time.
  const outbox = new Outbox(
    window.localStorage,
    `ta_outbox_${location.port}`,
    (entry) => request("POST", entry.path, Object.assign({ key: entry.key }, entry.body)).catch(() => null),
    (bytes) => crypto.getRandomValues(bytes),
  );

  function keep(path, body) {
    if (!outbox.waiting) sending(""); // "went through" was of the last move
    outbox.put(path, body); // after any move still waiting for its answer
    flush();
  }

  // Send what the outbox keeps until the server answers; meanwhile the page says it waits, and when it went through.
  async function flush() {
    if (page.flushing || !page.csrf) return;
    page.flushing = true;
    $("moves").setAttribute("aria-busy", "true");
    try {
      for (;;) {
        const sent = await outbox.try();
        if (sent) {
          if (page.waited) sending(word("sent"));
          page.waited = false;
          handled(sent.entry, sent.answer);
          continue;
        }
        if (!outbox.waiting) return;
        page.waited = true;
        sending(word("waiting"));
        showConnection(true);
        await new Promise((resolve) => {
          const again = () => {
            window.removeEventListener("online", again);
            resolve();
          };
          window.addEventListener("online", again);
          setTimeout(again, 1000);
        });
      }
    } finally {
      page.flushing = false;
      $("moves").removeAttribute("aria-busy");
    }
  }

  function sending(text) {
    setText($("sending"), text);
    show($("sending"), Boolean(text));
  }

  function handled(entry, answer) {
    if (entry.path === "/api/answer") answeredWarning(answer);
    else answered(answer);
  }

  // ---- words -----------------------------------------------------------------------------------------------------

  function word(key) {
    const text = page.words[key];
    return typeof text === "string" ? text : null;
  }

  function learnWords(words) {
    if (!words || typeof words !== "object") return;
    for (const [key, value] of Object.entries(words)) {
      if (typeof value === "string") page.words[key] = value;
    }
    for (const element of document.querySelectorAll("[data-word]")) {
      const text = word(element.dataset.word);
      if (text !== null && element.textContent !== text) element.textContent = text;
    }
    const title = word("title");
    if (title !== null) document.title = title;
  }

  // The deck's own vocabulary (Stable or Field, the Neigh card's name), for the elements marked data-vocab="KEY".
  function learnVocabulary(vocabulary) {
    if (!vocabulary || typeof vocabulary !== "object") return;
    for (const element of document.querySelectorAll("[data-vocab]")) {
      const text = vocabulary[element.dataset.vocab];
      if (typeof text === "string" && text !== "" && element.textContent !== text) element.textContent = text;
    }
  }

  // ---- small helpers ---------------------------------------------------------------------------------------------

  function show(element, visible) {
    element.hidden = !visible;
  }

  function setText(element, text) {
    const value = text == null ? "" : String(text);
    if (element.textContent !== value) element.textContent = value;
  }

  function lines(list) {
    return Array.isArray(list) ? list.filter((line) => typeof line === "string") : [];
  }

  // The last moves of a view: each with its place in the game's log ({at, kind, text}); anything else is left out.
  function movesOf(list) {
    if (!Array.isArray(list)) return [];
    return list
      .filter((move) => move && typeof move.text === "string" && Number.isInteger(move.at))
      .map((move) => ({ at: move.at, kind: typeof move.kind === "string" ? move.kind : "move", text: move.text }));
  }

  function notice(list) {
    const text = lines(list).join(" ");
    setText($("notice"), text);
    show($("notice"), text !== "");
  }

  function errorOf(answer) {
    const error = answer && answer.data && answer.data.error;
    return typeof error === "string" ? [error] : [];
  }

  function showConnection(lost) {
    show($("connection"), lost);
  }

  // A list of buttons [{key, text, act}] changed only where it changed: a button kept is the same node, so the focus
  // and a screen reader's place stay on it.
  function buttonList(list, items) {
    const acts = new Map(items.map((item) => [item.key, item.act]));
    list.acts = acts;
    reconcile(
      list,
      items,
      (item) => {
        const entry = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "big";
        button.textContent = item.text;
        button.addEventListener("click", () => list.acts.get(entry.dataset.key)());
        entry.appendChild(button);
        return entry;
      },
      (entry, item) => setText(entry.firstChild, item.text),
    );
  }

  // A list of text items [{key, text}], changed only where it changed.
  function textList(list, items) {
    reconcile(
      list,
      items,
      (item) => {
        const entry = document.createElement("li");
        entry.textContent = item.text;
        return entry;
      },
      (entry, item) => setText(entry, item.text),
    );
  }

  function keyedLines(list) {
    return occurrenceKeys(list).map((key, index) => ({ key, text: list[index] }));
  }

  // ---- joining ---------------------------------------------------------------------------------------------------

  function showJoin() {
    closeStream();
    page.csrf = null;
    page.player = null;
    page.view = null;
    show($("join"), true);
    show($("table"), false);
    show($("stables"), false);
    show($("moves"), false);
    show($("warning"), false);
    show($("you"), false);
    show($("choose"), false);
  }

  async function submitCode(event) {
    event.preventDefault();
    const code = $("code").value.replace(/\s+/g, "");
    if (!code) {
      $("code").focus();
      return;
    }
    page.link = null; // a code typed: the code it is
    await askPlayers(code);
  }

  // The players to choose from, asked with the code typed, or with the QR code's token (`page.link`, code "").
  async function askPlayers(code) {
    let answer;
    try {
      answer = await request("POST", "/api/code", { code });
    } catch {
      showConnection(true);
      return;
    }
    showConnection(false);
    if (answer.status !== 200) {
      if (answer.status === 403) page.link = null; // an old QR code: the code shown on the laptop is asked for
      notice(errorOf(answer));
      $("code").focus();
      return;
    }
    notice([]);
    page.code = code;
    learnWords(answer.data.words);
    learnVerbs(answer.data.verbs);
    setText($("choose-line"), answer.data.line);
    const players = Array.isArray(answer.data.players) ? answer.data.players : [];
    const taken = new Set(Array.isArray(answer.data.taken) ? answer.data.taken : []);
    const takenWord = word("taken");
    buttonList(
      $("players-to-choose"),
      players.map((name) => ({
        key: String(name),
        text: taken.has(name) && takenWord ? `${name} (${takenWord})` : String(name),
        act: () => join(String(name)),
      })),
    );
    show($("choose"), true);
    const first = $("players-to-choose").querySelector("button");
    (first || $("choose-heading")).focus();
  }

  async function join(player) {
    let answer;
    try {
      answer = await sendJoin(player);
    } catch {
      showConnection(true);
      return;
    }
    if (answer.status !== 200) {
      notice(errorOf(answer));
      return;
    }
    notice([]);
    joined(answer.data);
    // The code has done its work: a reload now goes straight to the table.
    history.replaceState(null, "", "/");
    page.link = null; // (a phone taken off later joins again with the new code or QR code)
    page.focusTurn = true; // the player's own tap: once the table is shown, the focus goes to whose turn it is
  }

  function sendJoin(player) {
    return request("POST", "/api/join", { code: page.code, player });
  }

  function joined(me) {
    page.csrf = typeof me.csrf === "string" ? me.csrf : null;
    page.player = typeof me.player === "string" ? me.player : null;
    learnWords(me.words);
    learnVerbs(me.verbs);
    show($("join"), false);
    show($("choose"), false);
    show($("table"), true);
    setText($("you-name"), page.player);
    show($("you"), true);
    if (me.waiting === true) {
      if (me.view) render(me.view); // says at once that it waits: the state asked next is held until the host answers
      awaitHost();
      return;
    }
    openStream();
    flush(); // a move kept from before a reload or a drop is sent again, with its own key
    learnCards();
  }

  // The game's cards, once: a move on a card entered while the network is down is found here, and kept like a tap.
  async function learnCards() {
    if (page.allCards.length) return;
    let answer;
    try {
      answer = await request("GET", "/api/cards?all=1");
    } catch {
      return; // asked again at the next start
    }
    const cards = answer.status === 200 && Array.isArray(answer.data.cards) ? answer.data.cards : [];
    page.allCards = cards.filter((card) => card && typeof card.id === "string" && typeof card.name === "string");
  }

  // The cards a search names, found on the phone: each word typed begins a word of the name, or the braille label
  // is the text typed (the server's search also reads contracted braille and near names: this is the fallback).
  function localCards(query) {
    const typed = query.toLowerCase();
    const words = typed.split(/\s+/).filter((part) => part);
    const found = page.allCards.filter((card) => {
      const names = card.name.toLowerCase().split(/[\s(),-]+/);
      const label = typeof card.label === "string" ? card.label.toLowerCase() : "";
      return (label !== "" && label === typed) || words.every((part) => names.some((name) => name.startsWith(part)));
    });
    return found.slice(0, 10);
  }

  // A GET answered, or null when `again` was set to ask once more in a second: the network is down (said on the
  // connection line) or the server asks to wait (429).
  async function askedAgain(path, again) {
    let answer;
    try {
      answer = await request("GET", path);
    } catch {
      showConnection(true);
      setTimeout(again, 1000);
      return null;
    }
    showConnection(false);
    if (answer.status === 429) {
      setTimeout(again, 1000);
      return null;
    }
    return answer;
  }

  // A phone the host has not let in yet opens no stream: it asks for its state, one request at a time (the server
  // holds each until the host answers, or a few seconds), and listens once it is let in.
  async function awaitHost() {
    const answer = await askedAgain("/api/state", awaitHost);
    if (answer === null) return;
    if (answer.status === 200 && answer.data.waiting === true) {
      render(answer.data);
      awaitHost();
    } else if (answer.status === 200) {
      render(answer.data);
      openStream();
      flush();
      learnCards();
    } else {
      outbox.forget();
      showJoin();
      notice(errorOf(answer));
    }
  }

  // The buttons of the phone's verbs, made once from the server's table, in its order: Undo and reading a card in
  // the steady row (they never move), the others in the grid below, shown only when the view's `may` has them.
  function learnVerbs(verbs) {
    if (!Array.isArray(verbs) || page.verbs.length) return;
    page.verbs = verbs.filter((verb) => verb && typeof verb.verb === "string");
    for (const verb of page.verbs) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = verb.pick === "" || verb.pick === "card" ? "big" : "big quiet";
      button.dataset.verb = verb.verb;
      button.hidden = true;
      button.addEventListener("click", verbClicked);
      const steady = verb.verb === "undo" || verb.verb === "read";
      if (steady) button.classList.add("quiet");
      $(steady ? "steady" : "verbs").appendChild(button);
    }
    labelVerbs(null);
  }

  function verbOf(name) {
    return page.verbs.find((verb) => verb.verb === name) || null;
  }

  function labelVerbs(deckWords) {
    for (const verb of page.verbs) {
      const own = verb.deck_word && deckWords ? deckWords[verb.label] : null;
      const text = typeof own === "string" && own !== "" ? own : word(verb.label);
      if (text !== null) setText(document.querySelector(`button[data-verb="${verb.verb}"]`), text);
    }
  }

  // ---- the live table --------------------------------------------------------------------------------------------

  function closeStream() {
    if (page.stream) page.stream.close();
    page.stream = null;
  }

  function openStream() {
    closeStream();
    const stream = new EventSource("/api/events");
    page.stream = stream;
    stream.addEventListener("open", () => {
      showConnection(false);
      flush();
    });
    stream.addEventListener("state", (event) => {
      let view;
      try {
        view = JSON.parse(event.data);
      } catch {
        showConnection(false);
        return;
      }
      if (page.pressed) {
        page.held = view; // shown once the button is let go (`letGo`)
        return;
      }
      showConnection(false);
      render(view);
    });
    stream.addEventListener("removed", (event) => {
      let data = {};
      try {
        data = JSON.parse(event.data);
      } catch {
        data = {};
      }
      outbox.forget();
      showJoin();
      notice(typeof data.error === "string" ? [data.error] : []);
    });
    stream.addEventListener("error", () => {
      showConnection(true);
      if (stream.readyState === EventSource.CLOSED && page.stream === stream) {
        // The server said no (a removed device, a restarted server): ask who this phone is, then listen again.
        page.stream = null;
        setTimeout(start, 1000);
      }
    });
  }

  // ---- a press never moved ----------------------------------------------------------------------------------------
  // A table that comes while a button is pressed (a finger, or the mouse, down on it) is shown once it is let go.
  // Shown at once, it moved the buttons from under the finger (a card put on the pile above them): the release
  // landed on another button or between two, and the tap made no move, said nowhere (two Neighs tapped at once on
  // one card: the second phone's went nowhere). Held, the tap is the move its player saw and chose, sent on the table
  // the page showed (a Neigh on the card shown on top), and the server checks it against the table as it is.

  // How long after a release that makes no click (let go off the button) the table that came meanwhile is shown, in
  // milliseconds: a tap's click follows its release at once, a touch's within a moment.
  const TAP_GRACE_MS = 500;

  function pressed(event) {
    const target = event.target;
    if (target && typeof target.closest === "function" && target.closest("button")) page.pressed = {};
  }

  function released() {
    const press = page.pressed;
    if (press) setTimeout(() => letGo(press), TAP_GRACE_MS); // (its click, if any, lets it go first)
  }

  function letGo(press) {
    if (!press || page.pressed !== press) return; // (a later press is never let go by an earlier one's release)
    page.pressed = null;
    setTimeout(showHeld, 0); // after the click the release made, on the button where it was
  }

  function showHeld() {
    const view = page.held;
    if (page.pressed || !view) return;
    page.held = null;
    showConnection(false);
    render(view);
  }

  // The live region's new line. The same words as the line it holds are written with a no-break space after them (never
  // heard): unchanged, the region would not be read again, and a move repeated word for word would go unsaid.
  function announce(text) {
    const region = $("news");
    region.textContent = region.textContent === text ? `${text}\u00a0` : text;
  }

  const announcer = new Announcer(
    announce,
    (act, ms) => setTimeout(act, ms),
    (timer) => clearTimeout(timer),
  );

  function render(view) {
    if (!view || typeof view !== "object") return;
    if (page.view && typeof view.version === "number" && view.version < page.view.version) return;
    const before = page.view && page.view.game ? movesOf(page.view.game.last) : null;
    page.view = view;
    if (typeof view.version === "number") document.body.dataset.version = String(view.version);
    const game = view.game && typeof view.game === "object" ? view.game : null;
    show($("table"), true);
    if (!game) {
      setText($("no-game"), view.line);
      show($("no-game"), true);
      show($("moves"), false);
      show($("stables"), false);
      show($("turn"), false);
      show($("pile-box"), false); // (no heading above its own: the page's headings go h1, h2, h3 in order)
      show($("winner"), false);
      for (const id of ["pile", "chain", "last", "players"]) $(id).replaceChildren();
      setText($("pile-line"), "");
      return;
    }
    learnVocabulary(game.words);
    labelVerbs(game.words);
    show($("no-game"), false);
    show($("stables"), true);
    show($("turn"), true);
    show($("pile-box"), true);
    setText($("turn"), game.turn);
    if (page.focusTurn) {
      page.focusTurn = false;
      $("turn").focus();
    }
    const waits = lines(game.waits).join(" ");
    setText($("waits"), waits);
    show($("waits"), waits !== "");
    setText($("winner"), game.winner);
    show($("winner"), typeof game.winner === "string" && game.winner !== "");
    renderPlayers(game);
    renderPile(game);
    const last = movesOf(game.last);
    const keys = moveKeys(last); // by place in the game's log: a move undone goes, the same words at a new place come
    textList($("last"), last.map((move, index) => ({ key: keys[index], text: move.text }))); // in the order they happened
    announcer.add(newMoves(before, last).map((move) => move.text));
    renderMoves(game);
    renderQuestion(game.question);
    if (page.card) showCardPlay();
  }

  // Each player's Stable: a section keyed by the player, its cards keyed by id and copy, so a card that did not
  // move is the same element after another player's move.
  function renderPlayers(game) {
    const players = Array.isArray(game.players) ? game.players : [];
    reconcile(
      $("players"),
      players.map((player) => ({ key: String(player.name), player })),
      () => {
        const section = document.createElement("section");
        section.className = "player";
        section.append(document.createElement("h3"), document.createElement("p"), document.createElement("ul"));
        return section;
      },
      (section, { player }) => {
        section.className = player.name === game.current ? "player current" : "player";
        const [heading, summary, list] = section.children;
        setText(heading, player.name);
        setText(summary, player.summary);
        const cards = Array.isArray(player.cards) ? player.cards : [];
        const keys = occurrenceKeys(cards.map((card) => String(card.id)));
        reconcile(
          list,
          cards.map((card, index) => ({ key: keys[index], card })),
          ({ card }) => {
            const entry = document.createElement("li");
            entry.textContent = String(card.name);
            if (card.type) {
              const kind = document.createElement("span");
              kind.className = "kind";
              kind.textContent = `, ${card.type}`;
              entry.appendChild(kind);
            }
            return entry;
          },
        );
        show(list, cards.length > 0);
      },
    );
  }

  function renderPile(game) {
    const pile = Array.isArray(game.pile) ? game.pile : [];
    setText($("pile-line"), game.pile_line);
    const top = pile.slice().reverse();
    const keys = occurrenceKeys(top.map((card) => `${card.id}/${card.player}`));
    textList(
      $("pile"),
      top.map((card, index) => ({ key: keys[index], text: card.player ? `${card.name}, ${card.player}` : card.name })),
    );
    const chain = lines(game.chain);
    textList($("chain"), keyedLines(chain));
    show($("chain"), chain.length > 0);
    show($("chain-heading"), chain.length > 0);
  }

  function topOfPile() {
    const game = page.view && page.view.game;
    const pile = game && Array.isArray(game.pile) ? game.pile : [];
    return pile.length ? pile[pile.length - 1].id : null;
  }

  function mayDo() {
    const game = page.view && page.view.game;
    return new Set(game ? lines(game.may) : []);
  }

  function renderMoves(game) {
    const may = new Set(lines(game.may));
    show($("moves"), true);
    let any = false;
    let lost = false; // the focus was on a button that goes
    for (const button of document.querySelectorAll("button[data-verb]")) {
      const allowed = may.has(button.dataset.verb);
      any = any || (allowed && button.parentElement.id === "verbs");
      // A button whose move cannot be made now is never shown (never a dimmed button whose tap does nothing).
      if (!allowed && document.activeElement === button) lost = true;
      button.hidden = !allowed;
    }
    // The focus never stays on a button gone: it goes to the moves' heading, and the news line says what changed.
    if (lost) $("moves-heading").focus();
    show($("no-moves"), !any);
    if (page.pick && page.pick.mode !== "card" && !$("picker").hidden) fillTableChoices();
    if (!$("aim-box").hidden) fillAims($("aim"));
  }

  // ---- moves -----------------------------------------------------------------------------------------------------

  function move(body) {
    keep("/api/move", body);
  }

  function answered(answer) {
    showConnection(false);
    const data = answer.data;
    if (answer.status === 401) {
      showJoin();
      notice(errorOf(answer));
      return;
    }
    if (answer.status !== 200) {
      notice(errorOf(answer));
      return;
    }
    if (data.status === "warning") {
      closePicker(false);
      notice([]);
      showWarning(lines(data.lines), data.question, true, data.labels); // a save: its own buttons
    } else if (data.status === "asked") {
      closePicker(true); // another player is asked first (a save of their card): this phone is told so
      notice(lines(data.lines));
    } else if (data.status === "recorded") {
      closePicker(true);
      notice([]);
    } else {
      notice(lines(data.lines));
    }
  }

  function verbClicked(event) {
    const button = event.currentTarget;
    const verb = verbOf(button.dataset.verb);
    if (!verb) return;
    if (verb.pick === "") {
      const body = { verb: verb.verb };
      const top = topOfPile();
      if (top && verb.on_pile) body.on = top;
      move(body);
      return;
    }
    openPicker(verb, button.textContent);
  }

  function openPicker(verb, title) {
    closeCard(false);
    page.pick = { verb, mode: verb.pick, card: null };
    setText($("picker-heading"), title);
    show($("picker"), true);
    show($("search-box"), verb.pick === "card");
    show($("any-card"), verb.pick === "card" && !verb.needs_card);
    show($("table-choices"), verb.pick !== "card");
    show($("target-box"), false);
    show($("aim-box"), verb.pick === "card" && verb.aims === true);
    $("aim").value = ""; // each play declares its own target: no one, until the player chooses
    fillAims($("aim"));
    $("search-results").replaceChildren();
    setText($("search-count"), "");
    if (verb.pick === "card") {
      $("search").value = "";
      $("search").focus();
    } else {
      fillTableChoices();
      $("picker-heading").focus();
    }
  }

  function closePicker(toMoves) {
    const wasOpen = !$("picker").hidden;
    page.pick = null;
    show($("picker"), false);
    if (wasOpen && toMoves && $("picker").contains(document.activeElement)) $("moves-heading").focus();
  }

  // The cards on the table a move can take: another player's (destroy, steal), one's own (sacrifice), any (return).
  function fillTableChoices() {
    const game = page.view && page.view.game;
    const players = game && Array.isArray(game.players) ? game.players : [];
    const { verb, mode } = page.pick;
    const items = [];
    for (const player of players) {
      const mine = player.name === page.player;
      if ((mode === "others" && mine) || (mode === "own" && !mine)) continue;
      const cards = Array.isArray(player.cards) ? player.cards : [];
      const keys = occurrenceKeys(cards.map((card) => `${player.name}/${card.id}`));
      cards.forEach((card, index) => {
        items.push({
          key: keys[index],
          text: mode === "own" ? String(card.name) : `${card.name}, ${player.name}`,
          act: () => move({ verb: verb.verb, card: card.id, target: player.name }),
        });
      });
    }
    buttonList($("table-choices"), items);
  }

  // Whom a play may target: no one declared (first, chosen by default), the other players, then the player. The
  // options change only when the players do, and the choice made is kept.
  function fillAims(select) {
    const game = page.view && page.view.game;
    const names = game && Array.isArray(game.players) ? game.players.map((player) => String(player.name)) : [];
    const order = [...names.filter((name) => name !== page.player), ...names.filter((name) => name === page.player)];
    const items = [{ key: "", text: word("aim_none") || "—" }, ...order.map((name) => ({ key: name, text: name }))];
    const chosen = select.value;
    reconcile(
      select,
      items,
      (item) => {
        const option = document.createElement("option");
        option.value = item.key;
        option.textContent = item.text;
        return option;
      },
      (option, item) => setText(option, item.text),
    );
    select.value = order.includes(chosen) ? chosen : "";
  }

  // The player the play's card targets, as chosen in the picker ("" when none is declared, or no choice is offered).
  function aimed(verb) {
    return verb.aims === true && !$("aim-box").hidden && !$("picker").hidden ? $("aim").value : "";
  }

  function searchTyped() {
    clearTimeout(page.searchTimer);
    page.searchTimer = setTimeout(search, 120);
  }

  async function search() {
    const query = $("search").value.trim();
    const serial = (page.searchSerial += 1);
    if (!query) {
      $("search-results").replaceChildren();
      setText($("search-count"), "");
      return;
    }
    let answer = null;
    try {
      answer = await request("GET", `/api/cards?q=${encodeURIComponent(query)}`);
    } catch {
      showConnection(true); // the network is down: the cards are found on the phone, and the move is kept
    }
    if (serial !== page.searchSerial || !page.pick) return; // a newer search, or the picker closed
    let cards;
    if (answer === null) {
      cards = localCards(query);
      notice([word("search_offline")]);
    } else {
      cards = answer.status === 200 && Array.isArray(answer.data.cards) ? answer.data.cards : [];
    }
    // An Instant answers with an Instant: the other cards found are left out (a card without a kind stays).
    const only = page.pick.verb.only;
    if (only) cards = cards.filter((card) => !card.kind || card.kind === only);
    buttonList(
      $("search-results"),
      cards.map((card) => ({
        key: String(card.id),
        text: [card.name, card.type, card.label].filter((part) => part).join(", "),
        act: () => cardChosen(card),
      })),
    );
    setText($("search-count"), cards.length ? cards.map((card) => card.name).join(", ") : word("no_cards") || "—");
  }

  function needsTarget(verb, card) {
    return verb.into === "any" || (verb.into !== "" && verb.into === card.kind);
  }

  function cardChosen(card) {
    const verb = page.pick.verb;
    if (verb.verb === "read") {
      readCard(card);
      return;
    }
    play(verb, card, aimed(verb));
  }

  // A card's move: into whose Stable, first, when the verb asks it for this card; `aim`: the player its card
  // targets, declared with the play ("": none).
  function play(verb, card, aim = "") {
    const declared = aim ? { aim } : {};
    if (needsTarget(verb, card)) {
      if (!page.pick) page.pick = { verb, mode: verb.pick, card };
      page.pick.card = card;
      show($("picker"), true);
      show($("search-box"), false);
      show($("table-choices"), false);
      setText($("picker-heading"), word(verb.label));
      const game = page.view && page.view.game;
      const names = game && Array.isArray(game.players) ? game.players.map((p) => String(p.name)) : [];
      const order = verb.into === "any" ? [page.player, ...names.filter((n) => n !== page.player)] : names;
      buttonList(
        $("target-choices"),
        order.map((name) => ({
          key: name,
          text: name,
          act: () => move({ verb: verb.verb, card: card.id, target: name, ...declared }),
        })),
      );
      show($("target-box"), true);
      const first = $("target-choices").querySelector("button");
      if (first) first.focus();
      return;
    }
    const body = { verb: verb.verb, card: card.id, ...declared };
    const top = topOfPile();
    if (verb.on_pile && top) body.on = top;
    move(body);
  }

  // ---- a card's own page -----------------------------------------------------------------------------------------

  // Its full text as the laptop says it, read on this phone alone (nothing is said on the laptop).
  async function readCard(card) {
    let answer;
    try {
      const key = freshKey((bytes) => crypto.getRandomValues(bytes)); // a read is never sent again: a key of its own
      answer = await request("POST", "/api/move", { key, verb: "read", card: card.id });
    } catch {
      showConnection(true);
      return;
    }
    if (answer.status !== 200 || answer.data.status !== "text") {
      notice(errorOf(answer).length ? errorOf(answer) : lines(answer.data.lines));
      return;
    }
    notice([]);
    closePicker(false);
    page.card = card;
    const [name, ...rest] = lines(answer.data.lines);
    setText($("card-name"), name);
    reconcile(
      $("card-text"),
      keyedLines(rest),
      (item) => {
        const paragraph = document.createElement("p");
        paragraph.textContent = item.text;
        return paragraph;
      },
      (paragraph, item) => setText(paragraph, item.text),
    );
    showCardPlay();
    show($("card-page"), true);
    $("card-name").focus();
  }

  // "Play it" where the move is allowed now: an Instant when the view offers one, any other card when play is.
  function cardMove() {
    const card = page.card;
    if (!card) return null;
    const may = mayDo();
    const name = card.kind === "instant" ? "instant" : "play";
    return may.has(name) ? verbOf(name) : null;
  }

  function showCardPlay() {
    const button = $("card-play");
    const allowed = cardMove() !== null;
    const lost = !allowed && document.activeElement === button;
    show(button, allowed); // never shown when the card cannot be played now
    const aims = allowed && cardMove().aims === true;
    if (aims && $("card-aim-box").hidden) $("card-aim").value = ""; // no one, until the player chooses
    if (aims) fillAims($("card-aim"));
    const leaving = !aims && $("card-aim-box").contains(document.activeElement);
    show($("card-aim-box"), aims);
    if (lost || leaving) $("card-name").focus();
  }

  function closeCard(focusMoves) {
    const had = $("card-page").contains(document.activeElement);
    page.card = null;
    show($("card-page"), false);
    show($("card-aim-box"), false); // the next card read declares its own target
    if (focusMoves && had) $("moves-heading").focus();
  }

  function playCard() {
    const verb = cardMove();
    const card = page.card;
    if (!verb || !card) return;
    const aim = verb.aims === true && !$("card-aim-box").hidden ? $("card-aim").value : "";
    closeCard(false);
    play(verb, card, aim);
  }

  // ---- a warning -------------------------------------------------------------------------------------------------

  // A warned move's question, or another phone asking to join as this player (`labels`: its own heading and
  // buttons; otherwise the page's words for a warning).
  function showWarning(list, question, focus, labels) {
    page.question = typeof question === "string" ? question : null;
    const own = labels && typeof labels === "object" ? labels : {};
    for (const [id, key] of [["warning-heading", "heading"], ["warning-yes", "yes"], ["warning-no", "no"]]) {
      const element = $(id);
      const text = typeof own[key] === "string" ? own[key] : word(element.dataset.word);
      if (text !== null) setText(element, text);
    }
    reconcile(
      $("warning-lines"),
      keyedLines(list),
      (item) => {
        const paragraph = document.createElement("p");
        paragraph.textContent = item.text;
        return paragraph;
      },
      (paragraph, item) => setText(paragraph, item.text),
    );
    show($("warning"), true);
    if (focus) $("warning-heading").focus();
  }

  function hideWarning(focusMoves) {
    const hadFocus = $("warning").contains(document.activeElement);
    page.question = null;
    show($("warning"), false);
    if (focusMoves && hadFocus) $("moves-heading").focus();
  }

  function renderQuestion(question) {
    if (question && typeof question === "object" && typeof question.id === "string") {
      if (question.id !== page.question) showWarning(lines(question.lines), question.id, false, question.labels);
    } else if (page.question !== null && !$("warning").contains(document.activeElement)) {
      hideWarning(false);
    }
  }

  function answerWarning(answer) {
    if (!page.question) return;
    keep("/api/answer", { question: page.question, answer });
  }

  function answeredWarning(reply) {
    hideWarning(true);
    if (reply.status === 200 && reply.data.status === "refused") {
      announcer.add(lines(reply.data.lines));
      notice([]);
    } else {
      answered(reply);
    }
  }

  // ---- start -----------------------------------------------------------------------------------------------------

  async function start() {
    // (429: a phone that waits for the host, reloaded while its last request is still held)
    const me = await askedAgain("/api/me", start);
    if (me === null) return;
    if (me.status === 200 && typeof me.data.player === "string") {
      joined(me.data);
    } else {
      outbox.forget(); // no device: nothing kept can be sent
      showJoin();
      if (page.link) askPlayers(""); // opened from the QR code: straight to choosing who you are
      // Taken off the table (by the host, or kept out, or tired of waiting) while the page was away or its stream
      // was not yet open: the server says why ("gone"), and the page says it; a phone that never joined is told
      // nothing.
      if (me.status === 401 && typeof me.data.gone === "string" && me.data.gone !== "") notice(errorOf(me));
    }
  }

  function wire() {
    const code = new URLSearchParams(location.search).get("code");
    if (code) $("code").value = code.replace(/[^0-9A-Za-z]/g, "").slice(0, 12);
    const link = new URLSearchParams(location.search).get("link");
    if (link) page.link = link.replace(/[^0-9A-Za-z_-]/g, "").slice(0, 64);
    $("code-form").addEventListener("submit", submitCode);
    $("search").addEventListener("input", searchTyped);
    $("any-card").addEventListener("click", () => move({ verb: page.pick.verb.verb }));
    $("picker-cancel").addEventListener("click", () => closePicker(true));
    $("warning-yes").addEventListener("click", () => answerWarning("yes"));
    $("warning-no").addEventListener("click", () => answerWarning("no"));
    $("card-play").addEventListener("click", playCard);
    $("card-back").addEventListener("click", () => closeCard(true));
    window.addEventListener("pointerdown", pressed, true);
    window.addEventListener("pointerup", released, true);
    window.addEventListener("click", () => letGo(page.pressed), true);
    window.addEventListener("pointercancel", () => letGo(page.pressed), true);
    window.addEventListener("blur", () => letGo(page.pressed)); // (the window's own: an element's does not bubble)
    window.addEventListener("visibilitychange", () => letGo(page.pressed));
    window.addEventListener("online", () => {
      if (page.csrf && (!page.stream || page.stream.readyState === EventSource.CLOSED)) openStream();
      flush();
    });
    start();
  }

  wire();
}
