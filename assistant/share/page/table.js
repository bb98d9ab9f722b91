// The phone's page of table-assistant's sharing server (docs/share.md has the protocol).
//
// Join with the code, choose who you are, then follow the table live (Server-Sent Events) and record your own
// moves. Every text from the server (names, cards, sentences, labels) is put in the page with textContent only,
// never as HTML. Every tap sends a fresh idempotency key; a retry after a lost connection sends the same key again,
// so the move is recorded once. An update never moves the focus: only the player's own taps do.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  const page = {
    csrf: null, // the device's CSRF token (from /api/join or /api/me)
    player: null, // who this phone is
    code: "", // the join code typed (kept to join once a player is chosen)
    words: {}, // the page's labels: the server's, in the deck's words
    view: null, // the last view of the table
    stream: null, // the EventSource
    busy: false, // a move is on its way: a second tap waits for its answer
    pick: null, // the move being built in the picker: {verb, mode, card}
    question: null, // the open warning's id
    focusTurn: false, // just joined: the first table shown takes the focus to its turn line
    searchTimer: 0,
    searchSerial: 0,
  };

  // ---- the server ------------------------------------------------------------------------------------------------

  function freshKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function pause(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async function request(method, path, body) {
    const options = { method, credentials: "same-origin", headers: {}, cache: "no-store" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    if (page.csrf) options.headers["X-CSRF-Token"] = page.csrf;
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    return { status: response.status, data: data || {} };
  }

  // A POST that changes the table: one key for the tap, the same key on each retry after a lost connection.
  async function sendOnce(path, body) {
    const keyed = Object.assign({ key: freshKey() }, body);
    let lastError = null;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        return await request("POST", path, keyed);
      } catch (error) {
        lastError = error; // no answer: the move may or may not have arrived; the same key asks again
        showConnection(true);
        await pause(300 * (attempt + 1));
      }
    }
    throw lastError;
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

  // A list of buttons rebuilt from items [{key, text, act}], keeping the focus on the same item when it had it.
  function buttonList(list, items) {
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const fragment = document.createDocumentFragment();
    let again = null;
    for (const item of items) {
      const entry = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "big";
      button.dataset.key = item.key;
      button.textContent = item.text;
      button.addEventListener("click", item.act);
      entry.appendChild(button);
      fragment.appendChild(entry);
      if (item.key === focused) again = button;
    }
    list.replaceChildren(fragment);
    if (again) again.focus();
  }

  function textList(list, items, make) {
    const fragment = document.createDocumentFragment();
    for (const item of items) {
      const entry = document.createElement("li");
      make(entry, item);
      fragment.appendChild(entry);
    }
    list.replaceChildren(fragment);
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
    let answer;
    try {
      answer = await request("POST", "/api/code", { code });
    } catch (error) {
      showConnection(true);
      return;
    }
    showConnection(false);
    if (answer.status !== 200) {
      notice(errorOf(answer));
      $("code").focus();
      return;
    }
    notice([]);
    page.code = code;
    learnWords(answer.data.words);
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
    } catch (error) {
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
    page.focusTurn = true; // the player's own tap: once the table is shown, the focus goes to whose turn it is
  }

  function sendJoin(player) {
    return request("POST", "/api/join", { code: page.code, player });
  }

  function joined(me) {
    page.csrf = typeof me.csrf === "string" ? me.csrf : null;
    page.player = typeof me.player === "string" ? me.player : null;
    learnWords(me.words);
    show($("join"), false);
    show($("choose"), false);
    show($("table"), true);
    setText($("you-name"), page.player);
    show($("you"), true);
    openStream();
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
    stream.addEventListener("open", () => showConnection(false));
    stream.addEventListener("state", (event) => {
      showConnection(false);
      let view;
      try {
        view = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      render(view);
    });
    stream.addEventListener("removed", (event) => {
      let data = {};
      try {
        data = JSON.parse(event.data);
      } catch (error) {
        data = {};
      }
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

  // The new lines of the last moves: those after the longest end of the old list that starts the new one.
  function newLines(before, after) {
    if (before === null) return [];
    for (let overlap = Math.min(before.length, after.length); overlap > 0; overlap -= 1) {
      let same = true;
      for (let i = 0; i < overlap; i += 1) {
        if (before[before.length - overlap + i] !== after[i]) {
          same = false;
          break;
        }
      }
      if (same) return after.slice(overlap);
    }
    return after;
  }

  function render(view) {
    if (!view || typeof view !== "object") return;
    if (page.view && typeof view.version === "number" && view.version < page.view.version) return;
    const before = page.view && page.view.game ? lines(page.view.game.last) : null;
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
      show($("winner"), false);
      for (const id of ["pile", "chain", "last", "players", "pile-line"]) $(id).replaceChildren();
      return;
    }
    learnVocabulary(game.words);
    show($("no-game"), false);
    show($("stables"), true);
    show($("turn"), true);
    setText($("turn"), game.turn);
    if (page.focusTurn) {
      page.focusTurn = false;
      $("turn").focus();
    }
    setText($("winner"), game.winner);
    show($("winner"), typeof game.winner === "string" && game.winner !== "");
    renderPlayers(game);
    renderPile(game);
    const last = lines(game.last);
    // Newest first: the move just made is at the top of the list, where a glance or a swipe finds it.
    textList($("last"), last.slice().reverse(), (entry, line) => {
      entry.textContent = line;
    });
    const fresh = newLines(before, last);
    if (fresh.length) setText($("news"), fresh.join(" "));
    renderMoves(game);
    renderQuestion(game.question);
  }

  function renderPlayers(game) {
    const players = Array.isArray(game.players) ? game.players : [];
    const fragment = document.createDocumentFragment();
    for (const player of players) {
      const section = document.createElement("section");
      section.className = player.name === game.current ? "player current" : "player";
      const heading = document.createElement("h3");
      heading.textContent = String(player.name);
      section.appendChild(heading);
      const summary = document.createElement("p");
      summary.textContent = player.summary == null ? "" : String(player.summary);
      section.appendChild(summary);
      const cards = Array.isArray(player.cards) ? player.cards : [];
      if (cards.length) {
        const list = document.createElement("ul");
        for (const card of cards) {
          const entry = document.createElement("li");
          entry.textContent = String(card.name);
          if (card.type) {
            const kind = document.createElement("span");
            kind.className = "kind";
            kind.textContent = `, ${card.type}`;
            entry.appendChild(kind);
          }
          list.appendChild(entry);
        }
        section.appendChild(list);
      }
      fragment.appendChild(section);
    }
    $("players").replaceChildren(fragment);
  }

  function renderPile(game) {
    const pile = Array.isArray(game.pile) ? game.pile : [];
    setText($("pile-line"), game.pile_line);
    textList($("pile"), pile.slice().reverse(), (entry, card) => {
      entry.textContent = card.player ? `${card.name}, ${card.player}` : String(card.name);
    });
    const chain = lines(game.chain);
    textList($("chain"), chain, (entry, line) => {
      entry.textContent = line;
    });
    show($("chain"), chain.length > 0);
    show($("chain-heading"), chain.length > 0);
  }

  function topOfPile() {
    const game = page.view && page.view.game;
    const pile = game && Array.isArray(game.pile) ? game.pile : [];
    return pile.length ? pile[pile.length - 1].id : null;
  }

  function renderMoves(game) {
    const may = new Set(lines(game.may));
    show($("moves"), true);
    let any = false;
    for (const button of document.querySelectorAll("#verbs button[data-verb]")) {
      const allowed = may.has(button.dataset.verb);
      any = any || allowed;
      if (allowed) {
        button.hidden = false;
        button.removeAttribute("aria-disabled");
      } else if (document.activeElement === button) {
        // Never pull the focus away: the button stays where it is, marked unavailable, until the player moves on.
        button.setAttribute("aria-disabled", "true");
        button.addEventListener("blur", () => renderMoves(page.view.game), { once: true });
      } else {
        button.hidden = true;
        button.removeAttribute("aria-disabled");
      }
    }
    show($("no-moves"), !any);
    if (page.pick && page.pick.mode !== "card" && !$("picker").hidden) fillTableChoices();
  }

  // ---- moves -----------------------------------------------------------------------------------------------------

  async function move(body) {
    if (page.busy) return;
    page.busy = true;
    $("moves").setAttribute("aria-busy", "true");
    let answer;
    try {
      answer = await sendOnce("/api/move", body);
    } catch (error) {
      answer = null;
    } finally {
      page.busy = false;
      $("moves").removeAttribute("aria-busy");
    }
    answered(answer);
  }

  function answered(answer) {
    if (!answer) {
      showConnection(true);
      return;
    }
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
      showWarning(lines(data.lines), data.question, true);
    } else if (data.status === "recorded") {
      closePicker(true);
      notice([]);
    } else {
      notice(lines(data.lines));
    }
  }

  function verbClicked(event) {
    const button = event.currentTarget;
    if (button.getAttribute("aria-disabled") === "true" || page.busy) return;
    const verb = button.dataset.verb;
    const mode = button.dataset.pick;
    if (!mode) {
      const body = { verb };
      const top = topOfPile();
      if (top && (verb === "neigh" || verb === "super-neigh" || verb === "resolve")) body.on = top;
      move(body);
      return;
    }
    openPicker(verb, mode, button.textContent);
  }

  function openPicker(verb, mode, title) {
    page.pick = { verb, mode, card: null };
    setText($("picker-heading"), title);
    show($("picker"), true);
    show($("search-box"), mode === "card");
    show($("any-card"), verb === "discard");
    show($("table-choices"), mode !== "card");
    show($("target-box"), false);
    $("search-results").replaceChildren();
    setText($("search-count"), "");
    if (mode === "card") {
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
    const mode = page.pick.mode;
    const items = [];
    for (const player of players) {
      const mine = player.name === page.player;
      if ((mode === "others" && mine) || (mode === "own" && !mine)) continue;
      const cards = Array.isArray(player.cards) ? player.cards : [];
      cards.forEach((card, index) => {
        items.push({
          key: `${player.name}/${card.id}/${index}`,
          text: mode === "own" ? String(card.name) : `${card.name}, ${player.name}`,
          act: () => move({ verb: page.pick.verb, card: card.id, target: player.name }),
        });
      });
    }
    buttonList($("table-choices"), items);
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
    let answer;
    try {
      answer = await request("GET", `/api/cards?q=${encodeURIComponent(query)}`);
    } catch (error) {
      showConnection(true);
      return;
    }
    if (serial !== page.searchSerial || !page.pick) return; // a newer search, or the picker closed
    let cards = answer.status === 200 && Array.isArray(answer.data.cards) ? answer.data.cards : [];
    // An Instant answers with an Instant: the other cards found are left out (a card without a kind stays).
    if (page.pick.verb === "instant") cards = cards.filter((card) => !card.kind || card.kind === "instant");
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
    if (verb === "bring") return true;
    return verb === "play" && card.kind === "downgrade";
  }

  function cardChosen(card) {
    const verb = page.pick.verb;
    if (needsTarget(verb, card)) {
      page.pick.card = card;
      const game = page.view && page.view.game;
      const names = game && Array.isArray(game.players) ? game.players.map((p) => String(p.name)) : [];
      const order = verb === "bring" ? [page.player, ...names.filter((n) => n !== page.player)] : names;
      buttonList(
        $("target-choices"),
        order.map((name) => ({
          key: name,
          text: name,
          act: () => move({ verb, card: card.id, target: name }),
        })),
      );
      show($("target-box"), true);
      const first = $("target-choices").querySelector("button");
      if (first) first.focus();
      return;
    }
    const body = { verb, card: card.id };
    const top = topOfPile();
    if (verb === "instant" && top) body.on = top;
    move(body);
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
    const box = $("warning-lines");
    box.replaceChildren(
      ...list.map((line) => {
        const paragraph = document.createElement("p");
        paragraph.textContent = line;
        return paragraph;
      }),
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

  async function answerWarning(answer) {
    if (page.busy || !page.question) return;
    page.busy = true;
    let reply;
    try {
      reply = await sendOnce("/api/answer", { question: page.question, answer });
    } catch (error) {
      reply = null;
    } finally {
      page.busy = false;
    }
    if (!reply) {
      showConnection(true);
      return;
    }
    hideWarning(true);
    if (reply.status === 200 && reply.data.status === "refused") {
      setText($("news"), lines(reply.data.lines).join(" "));
      notice([]);
    } else {
      answered(reply);
    }
  }

  // ---- start -----------------------------------------------------------------------------------------------------

  async function start() {
    let me;
    try {
      me = await request("GET", "/api/me");
    } catch (error) {
      showConnection(true);
      setTimeout(start, 2000);
      return;
    }
    showConnection(false);
    if (me.status === 200 && typeof me.data.player === "string") {
      joined(me.data);
    } else {
      showJoin();
    }
  }

  function wire() {
    const code = new URLSearchParams(location.search).get("code");
    if (code) $("code").value = code.replace(/[^0-9A-Za-z]/g, "").slice(0, 12);
    $("code-form").addEventListener("submit", submitCode);
    for (const button of document.querySelectorAll("#verbs button[data-verb]")) {
      button.hidden = true;
      button.addEventListener("click", verbClicked);
    }
    $("search").addEventListener("input", searchTyped);
    $("any-card").addEventListener("click", () => move({ verb: "discard" }));
    $("picker-cancel").addEventListener("click", () => closePicker(true));
    $("warning-yes").addEventListener("click", () => answerWarning("yes"));
    $("warning-no").addEventListener("click", () => answerWarning("no"));
    start();
  }

  wire();
})();
