"""The table recorded from phones, in a real browser: Debian's chromium driven by Playwright, the page served by the
app's own sharing server, the blind player's laptop the real plain mode in a process (what it says read from its
output, as the plain-mode tests hear it).

Four phone-sized browser contexts join by the code; three players record their own moves on their phones while the
fourth, the blind player, types on the laptop; a whole 4-player game of Unstable Unicorns (2nd Edition) and of
Llamas Unleashed with its add-on is played to the win, with a Neigh battle from two phones at once, an Instant and a
chain from a phone, a warning answered on a phone, an undo from a phone, a phone that reloads mid-game and a tap
whose answer is lost (sent again with the same key, recorded once); afterwards the game's JSON (`state --json`)
equals the same game typed. axe-core checks each screen (join, the table, a move, a warning, the win), and the
accessibility tree names every control. Everything talks to 127.0.0.1 only; every wait is on the page or the
laptop, never a sleep."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from share_table import CHROMIUM, CHROMIUM_ARGS, PATIENCE, Laptop, game_json, typed_game_json

from assistant.core.words.share import (
    DEVICE_REMOVED,
    device_list,
    device_removed,
    new_phone_asks,
    phone_let_in,
    phone_removed,
    phone_waits_named,
)

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed: bash scripts/setup.sh --with-tests"
)
axe_sync = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="axe-playwright-python is not installed: bash scripts/setup.sh --with-tests",
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed: bash scripts/setup.sh --with-tests"
)
expect = sync_api.expect
expect.set_options(timeout=PATIENCE * 1000)

PHONE = {"width": 360, "height": 740}
NARROW = {"width": 320, "height": 640}
LANDSCAPE = {"width": 740, "height": 360}
CONTROL = re.compile(r"^\s*- (button|textbox|searchbox|combobox|checkbox|radio|link)\b(.*)$")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for the whole module (each phone is a context of its own in it)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Phone:
    """One player's phone: a phone-sized browser context with the page open."""

    def __init__(self, browser: Any, laptop: Laptop, viewport: dict[str, int] = PHONE) -> None:
        self.laptop = laptop
        self.context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
        self.page = self.context.new_page()
        self.failures: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda error: self.failures.append(str(error)))
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        self.player = ""
        self.tag = ""
        """The short name the phone showed while it waited ("blue 7")."""

    def open_join(self) -> None:
        """The address the QR code holds: the page, with the join code filled in."""
        self.page.goto(f"{self.laptop.address}/?code={self.laptop.code}")
        expect(self.page.locator("#code")).to_have_value(self.laptop.code)

    def ask(self, player: str) -> str:
        """Enter the code (already filled in from the address) and choose `player`: the phone waits for the host,
        who hears its short name in the question, the name the phone shows ("blue 7"); that name."""
        mark = self.laptop.mark()
        self.page.locator("#code-button").click()
        self.page.locator("#players-to-choose button", has_text=player).first.click()
        asked = self.laptop.wait_for(
            lambda line: line.startswith(f"A new phone asks to record for {player}"), after=mark
        )
        self.tag = asked.removeprefix(f"A new phone asks to record for {player}: the one showing ").split(".")[0]
        assert asked == new_phone_asks(player, self.tag), asked  # the host hears the short name...
        waits = phone_waits_named(player, self.tag)  # ... that the phone shows, with that it waits
        expect(self.page.locator("#no-game")).to_have_text(waits)
        return self.tag

    def join(self, player: str) -> None:
        """Ask to join as `player` (`ask`); the host lets the phone in (`share allow`: the phone that waits)."""
        self.ask(player)
        mark = self.laptop.mark()
        self.laptop.type("share allow")
        self.laptop.wait_for(lambda line: line.endswith("joined the table."), after=mark)
        expect(self.page.locator("#you")).to_contain_text(player)
        expect(self.page.locator("#turn")).to_be_visible()
        expect(self.page.locator("#turn")).to_be_focused()  # the player's own tap: the focus goes to whose turn
        self.player = player

    def caught_up(self) -> None:
        """Wait until the page shows the table at least as the server had it when asked (the view's version).

        The table may move on between the question and the page's update (a pile's news is published after the
        play's), so a page already past that version has caught up too.
        """
        version = self.context.request.get(f"{self.laptop.address}/api/state").json()["version"]
        body = self.page.locator("body")
        for _ in range(1200):  # a bounded wait for the browser (the page's policy allows no evaluated predicate)
            if int(body.get_attribute("data-version") or -1) >= version:
                return
            self.page.wait_for_timeout(50)
        expect(body).to_have_attribute("data-version", str(version))  # fails, saying what the page shows

    def verb(self, verb: str) -> Any:
        return self.page.locator(f'#moves button[data-verb="{verb}"]')

    def tap(self, verb: str) -> None:
        self.verb(verb).click()

    def card(self, verb: str, query: str, name: str) -> None:
        """A move on a card found by typing part of its name or label (play, an Instant, discard, bring)."""
        self.tap(verb)
        self.page.locator("#search").fill(query)
        self.page.locator("#search-results button", has_text=name).first.click()

    def target(self, name: str) -> None:
        """The player whose Stable the card goes into."""
        self.page.locator("#target-choices button", has_text=name).first.click()

    def on_table(self, verb: str, text: str) -> None:
        """A move on a card chosen from the table (destroy, sacrifice, steal, return)."""
        self.tap(verb)
        self.page.locator("#table-choices button", has_text=text).first.click()

    def answer(self, yes: bool) -> None:
        expect(self.page.locator("#warning")).to_be_visible()
        self.page.locator("#warning-yes" if yes else "#warning-no").click()

    def close(self) -> None:
        self.context.close()


def assert_accessible(page: Any, screen: str) -> None:
    """axe-core finds no violation of any impact, every control in the accessibility tree has a name, and nothing is
    wider than the screen (no sideways scrolling, no zoom needed)."""
    results = axe_sync.Axe().run(page)
    bad = [(v["id"], v["impact"], v["help"]) for v in results.response["violations"]]
    assert not bad, (screen, bad)
    tree = page.locator("body").aria_snapshot()
    unnamed = [line for line in tree.splitlines() if (m := CONTROL.match(line)) and not m.group(2).startswith(' "')]
    assert not unnamed, (screen, unnamed, tree)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (screen, width)


def _unattributed(player: str, line: str) -> str:
    """A line the laptop said for a phone's move, without the attribution a move whose words do not name its player
    begins with ("Ben, from a phone: ended the turn. ", `words.share.from_phone`)."""
    from assistant.core.words.share import from_phone

    ended = from_phone(player, "", ended_turn=True) + " "
    plain = from_phone(player, "") + " "
    return line.removeprefix(ended) if line.startswith(ended) else line.removeprefix(plain)


def _is(wanted: Any, line: str) -> bool:
    return bool(wanted(line)) if callable(wanted) else line == wanted


class Table:
    """The laptop, four phones, and the game as typed so far (each phone move as the line that records it)."""

    def __init__(self, browser: Any, home: Path) -> None:
        self.laptop = Laptop(home)
        self.phones: dict[str, Phone] = {}
        self.typed: list[str] = []
        self.browser = browser

    def type(self, line: str, said: str | Callable[[str], bool]) -> str:
        """The blind player types a line on the laptop; wait until it says `said`."""
        mark = self.laptop.mark()
        self.laptop.type(line)
        self.typed.append(line)
        return self.laptop.wait_for(said, after=mark)

    def phone(self, player: str, move: Callable[[Phone], None], typed: str | None, said: Any) -> str:
        """`player` makes a move on their phone (once the phone shows the table as now); the laptop says `said`;
        `typed` is the line that records the same move on the keyboard (None: nothing recorded)."""
        phone = self.phones[player]
        phone.caught_up()
        mark = self.laptop.mark()
        move(phone)
        heard = self.laptop.wait_for(lambda line: _is(said, _unattributed(player, line)), after=mark)
        if typed is not None:
            self.typed.append(typed)
        return heard

    def join_all(self, players: list[str], viewports: dict[str, dict[str, int]]) -> None:
        for player in players:
            self.phones[player] = Phone(self.browser, self.laptop, viewports.get(player, PHONE))
        for player in players:
            self.phones[player].open_join()
        for player in players:
            self.phones[player].join(player)

    def close(self) -> None:
        for phone in self.phones.values():
            phone.close()
        self.laptop.close()


@pytest.fixture
def table(browser: Any, tmp_path: Path) -> Iterator[Table]:
    shared = Table(browser, tmp_path / "laptop")
    yield shared
    shared.close()


def neigh_battle(table: Table, first: str, second: str, card: str) -> None:
    """Two phones tap Neigh on the same card at the same moment: both are recorded, in the order they arrived."""
    for player in (first, second):
        table.phones[player].caught_up()
        expect(table.phones[player].page.locator("#pile")).to_contain_text(card)
    mark = table.laptop.mark()
    table.phones[first].tap("neigh")
    table.phones[second].tap("neigh")
    lines = [table.laptop.wait_for(f"{player} played Neigh.", after=mark) for player in (first, second)]
    order = sorted((first, second), key=lambda player: table.laptop.said.index(f"{player} played Neigh.", mark))
    assert len(lines) == 2
    table.typed += [f"{player} neigh" for player in order]


#: Run on a phone's page before its own script: each table its event stream brings is noted (its version, in
#: `window.tablesCame`) as it comes, before the page's own listener sees it, so a test knows the page has it in hand
#: whether or not it shows it yet.
NOTE_TABLES = """
(() => {
  const Stream = window.EventSource;
  window.tablesCame = [];
  window.EventSource = class extends Stream {
    constructor(...args) {
      super(...args);
      this.addEventListener("state", (event) => window.tablesCame.push(JSON.parse(event.data).version));
    }
  };
})();
"""


def test_a_tap_pressed_while_another_phones_move_comes_stays_on_its_button_and_is_recorded(table: Table) -> None:
    """Cy's finger is down on Neigh when Ben's Neigh on the same card reaches her page; she lets go after. The table
    that came meanwhile is shown once she lets go: the button stays under her finger, and her Neigh is recorded after
    Ben's. (Before, the pile grew above the buttons as it came: her release landed on the button above, the click on
    neither, and her Neigh went nowhere, said neither on her phone nor on the laptop; two Neighs tapped at once in
    the whole game's test lost the second so, one run in many on a busy machine.)"""
    t = table
    t.type("new game Ana Ben Cy Dee win 2 hands", "Turn 1: Ana goes first.")
    t.join_all(["Ben", "Cy"], {})
    ben, cy = t.phones["Ben"], t.phones["Cy"]
    t.type("draw", "Ana drew a card.")
    t.type("play basic red", "Ana played Basic Unicorn (Red).")
    cy.context.add_init_script(NOTE_TABLES)
    cy.page.reload()
    for phone in (ben, cy):
        phone.caught_up()
        expect(phone.page.locator("#pile")).to_contain_text("Basic Unicorn (Red)")
    neigh = cy.verb("neigh")
    neigh.scroll_into_view_if_needed()
    box = neigh.bounding_box()
    mark = t.laptop.mark()
    cy.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    cy.page.mouse.down()
    ben.tap("neigh")
    t.laptop.wait_for("Ben played Neigh.", after=mark)
    version = cy.context.request.get(f"{t.laptop.address}/api/state").json()["version"]
    for _ in range(1200):  # a bounded wait for Cy's page to have Ben's Neigh in hand (a page's own signal)
        if max(cy.page.evaluate("window.tablesCame"), default=-1) >= version:
            break
        cy.page.wait_for_timeout(50)
    assert max(cy.page.evaluate("window.tablesCame"), default=-1) >= version
    assert neigh.bounding_box() == box, "the button moved from under the finger"
    cy.page.mouse.up()
    t.laptop.wait_for("Cy played Neigh.", after=mark)
    assert t.laptop.said.index("Ben played Neigh.", mark) < t.laptop.said.index("Cy played Neigh.", mark)
    expect(cy.page.locator("#pile")).to_contain_text("Neigh, Cy")  # shown once she let go, and after her move
    assert not cy.failures and not cy.dialogs


def test_a_whole_unicorn_game_recorded_from_phones_and_the_laptop(table: Table, tmp_path: Path) -> None:
    t = table
    t.type("new game Ana Ben Cy Dee win 2 hands", "Turn 1: Ana goes first.")
    # Four phones join by the code; Ana's (the blind player's, followed by ear) is the narrowest phone there is.
    join_page = Phone(t.browser, t.laptop)
    join_page.open_join()
    assert_accessible(join_page.page, "join")
    join_page.close()
    t.join_all(["Ana", "Ben", "Cy", "Dee"], {"Ana": NARROW})
    ben, cy, dee, ana = (t.phones[name] for name in ("Ben", "Cy", "Dee", "Ana"))
    assert_accessible(ben.page, "the table")
    expect(ben.page.locator("#turn")).to_have_text(re.compile("Ana"))

    # Turn 1, Ana on the keyboard; Ben and Cy Neigh her card from their phones at the same moment.
    t.type("draw", "Ana drew a card.")
    t.type("play basic red", "Ana played Basic Unicorn (Red).")
    neigh_battle(t, "Ben", "Cy", "Basic Unicorn (Red)")
    expect(ana.page.locator("#news")).to_contain_text("played Neigh.")  # the polite live region said it
    t.phone("Dee", lambda p: p.tap("resolve"), "resolve", lambda line: "resolves and stops" in line)
    t.phone("Dee", lambda p: p.tap("resolve"), "resolve", "Ana has 1 Unicorn.")
    t.type("end turn", "Turn 2: Ben's turn.")

    # Turn 2, Ben on his phone: a card searched by name, then a second draw the table warns about, recorded anyway.
    t.phone("Ben", lambda p: p.tap("draw"), "Ben draw", "Ben drew a card.")
    t.phone("Ben", lambda p: p.card("play", "orange", "Basic Unicorn (Orange)"), "Ben play Basic Unicorn (Orange)",
            "Ben played Basic Unicorn (Orange).")  # fmt: skip
    t.phone("Ben", lambda p: p.tap("resolve"), "resolve", "Ben has 1 Unicorn.")
    ben.caught_up()
    ben.tap("draw")
    expect(ben.page.locator("#warning")).to_contain_text("already played a card or drawn")
    expect(ben.page.locator("#warning-heading")).to_be_focused()
    assert_accessible(ben.page, "a warning")
    t.phone("Ben", lambda p: p.answer(yes=True), None, "Ben drew a card.")
    t.typed += ["Ben draw", "yes"]
    expect(ben.page.locator("#warning")).to_be_hidden()
    ended = t.phone("Ben", lambda p: p.tap("end"), "end turn", "Turn 3: Cy's turn.")
    assert ended == "Ben, from a phone: ended the turn. Turn 3: Cy's turn."  # attributed first, on one line

    # Turn 3, Cy: Unicorn Poison makes a chain; Cy's phone reloads in the middle of it and shows the table as now.
    t.phone("Cy", lambda p: p.tap("draw"), "Cy draw", "Cy drew a card.")
    t.phone("Cy", lambda p: p.card("play", "poison", "Unicorn Poison"), "Cy play Unicorn Poison",
            "Cy played Unicorn Poison.")  # fmt: skip
    t.phone("Cy", lambda p: p.tap("resolve"), "resolve", lambda line: line.startswith("Effect chain:"))
    cy.page.reload()
    expect(cy.page.locator("#you")).to_contain_text("Cy")
    expect(cy.page.locator("#chain")).to_contain_text("Unicorn Poison")
    expect(cy.page.locator("#join")).to_be_hidden()
    cy.tap("destroy")
    expect(cy.page.locator("#table-choices")).to_contain_text("Ben")
    assert_accessible(cy.page, "a move")
    cy.page.locator("#picker-cancel").click()
    orange = "Basic Unicorn (Orange)"
    t.phone("Cy", lambda p: p.on_table("destroy", orange), f"Cy destroy {orange} from Ben",
            f"Cy destroyed {orange} in Ben's Stable.")  # fmt: skip
    t.phone("Cy", lambda p: p.tap("resolve"), "resolve", "Chain resolved.")
    t.phone("Cy", lambda p: p.tap("end"), "end turn", "Turn 4: Dee's turn.")

    # Turn 4, Dee: her first draw's answer is lost on the way back, so the page sends it again with the same key
    # and it is recorded once; then she undoes it from her phone and draws again; Ben Super Neighs her Unicorn.
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.post_data_json["key"])
        if len(keys) == 1:
            route.fetch()  # it reaches the laptop and is recorded...
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.continue_()

    dee.caught_up()
    dee.page.route("**/api/move", lose_the_first_answer)
    mark = t.laptop.mark()
    with dee.page.expect_response("**/api/move") as retried:  # the lost answer's request gets no response
        dee.tap("draw")
    assert retried.value.json()["status"] == "recorded"
    t.laptop.wait_for("Dee drew a card.", after=mark)
    expect(dee.page.locator("#connection")).to_be_hidden()
    assert len(keys) == 2 and keys[0] == keys[1], keys
    dee.page.unroute("**/api/move")
    t.typed.append("Dee draw")
    t.phone("Dee", lambda p: p.tap("undo"), "undo", lambda line: line.startswith("Undone: the card Dee drew"))
    assert t.laptop.said[mark:].count("Dee drew a card.") == 1, "the retried draw was recorded once"
    t.phone("Dee", lambda p: p.tap("draw"), "Dee draw", "Dee drew a card.")
    t.phone("Dee", lambda p: p.card("play", "yellow", "Basic Unicorn (Yellow)"), "Dee play Basic Unicorn (Yellow)",
            "Dee played Basic Unicorn (Yellow).")  # fmt: skip
    t.phone("Ben", lambda p: p.tap("super-neigh"), "Ben super neigh", "Ben played Super Neigh.")
    t.phone("Dee", lambda p: p.tap("resolve"), "resolve", lambda line: line.startswith("Ben's Super Neigh resolves"))
    t.phone("Dee", lambda p: p.tap("end"), "end turn", "Turn 5: Ana's turn.")

    # Turn 5, Ana wins on the keyboard; every phone shows the win.
    t.type("draw", "Ana drew a card.")
    t.type("play basic green", "Ana played Basic Unicorn (Green).")
    won = t.type("resolve", lambda line: line.startswith("Ana wins"))
    for phone in t.phones.values():
        expect(phone.page.locator("#winner")).to_have_text(won)
    assert_accessible(ana.page, "the win")
    assert all(not phone.failures and not phone.dialogs for phone in t.phones.values())

    assert game_json(tmp_path / "laptop") == typed_game_json(t.typed, tmp_path / "typed")


def test_a_whole_llamas_game_with_its_add_on_recorded_from_phones(table: Table, tmp_path: Path) -> None:
    t = table
    t.type("new game Ana Ben Cy Dee deck llamas addon llamas-farmed win 2 hands", "Turn 1: Ana goes first.")
    t.join_all(["Ana", "Ben", "Cy", "Dee"], {"Dee": NARROW})
    ben, cy = t.phones["Ben"], t.phones["Cy"]
    t.type("draw", "Ana drew a card.")
    t.type("play henry huarizo", "Ana played Henry the Huarizo.")
    ben.caught_up()
    expect(ben.verb("instant")).to_be_visible()
    expect(ben.verb("neigh")).to_be_hidden()  # the deck has no Neigh card: its own Instants answer
    t.type("resolve", "Ana has 1 Animal.")
    t.type("end turn", "Turn 2: Ben's turn.")

    # Turn 2, Ben: Cy answers his Llama with an Instant from her phone; Ben's second draw is warned and not recorded.
    t.phone("Ben", lambda p: p.tap("draw"), "Ben draw", "Ben drew a card.")
    t.phone("Ben", lambda p: p.card("play", "llamacorn", "Magical Llamacorn"), "Ben play Magical Llamacorn",
            "Ben played Magical Llamacorn.")  # fmt: skip
    t.phone("Cy", lambda p: p.card("instant", "spit", "Spit Happens"), "Cy play Spit Happens",
            "Cy played Spit Happens.")  # fmt: skip
    t.phone("Dee", lambda p: p.tap("resolve"), "resolve", lambda line: line.startswith("Cy's Spit Happens resolves"))
    ben.caught_up()
    ben.tap("draw")
    expect(ben.page.locator("#warning")).to_contain_text("already played a card or drawn")
    t.phone("Ben", lambda p: p.answer(yes=False), None, lambda line: "Ben" in line and "not record" in line)
    t.typed += ["Ben draw", "no"]
    t.phone("Ben", lambda p: p.tap("end"), "end turn", "Turn 3: Cy's turn.")

    # Turn 3, Cy plays the add-on's Mother Goat; Dee and Ben answer with Instants; the chain, then the win.
    t.phone("Cy", lambda p: p.tap("draw"), "Cy draw", "Cy drew a card.")
    t.phone("Cy", lambda p: p.card("play", "mother", "Mother Goat"), "Cy play Mother Goat", "Cy played Mother Goat.")
    t.phone("Dee", lambda p: p.card("instant", "sundheit", "Goatsundheit"), "Dee play Goatsundheit",
            "Dee played Goatsundheit.")  # fmt: skip
    t.phone("Ben", lambda p: p.card("instant", "llama stop", "Llama Stop You Right There"),
            "Ben play Llama Stop You Right There", "Ben played Llama Stop You Right There.")  # fmt: skip
    t.phone("Cy", lambda p: p.tap("resolve"), "resolve", lambda line: line.startswith("Ben's Llama Stop You Right"))
    t.phone("Cy", lambda p: p.tap("resolve"), "resolve", "Cy 1 Animal. May take a Baby Animal out of the Nursery.")
    expect(cy.page.locator("#chain")).to_contain_text("Mother Goat")
    t.phone("Ben", lambda p: p.tap("draw"), "Ben draw", "Ben drew a card.")
    t.phone("Cy", lambda p: p.tap("resolve"), "resolve", "Llama Stop You Right There resolved.")
    cy.caught_up()
    cy.card("bring", "baby goat", "Baby Goat")
    expect(cy.page.locator("#target-heading")).to_have_text("Field")  # the deck's own word
    t.phone("Cy", lambda p: p.target("Cy"), "Cy bring Baby Goat into Cy",
            "Cy brought Baby Goat into Cy's Field from the Nursery.")  # fmt: skip
    won = t.phone("Cy", lambda p: p.tap("resolve"), "resolve", lambda line: line.startswith("Cy wins"))
    for phone in t.phones.values():
        expect(phone.page.locator("#winner")).to_have_text(won)
    assert_accessible(t.phones["Dee"].page, "the win")
    assert all(not phone.failures and not phone.dialogs for phone in t.phones.values())

    assert game_json(tmp_path / "laptop") == typed_game_json(t.typed, tmp_path / "typed")


def test_hostile_names_are_shown_as_text_and_an_update_never_moves_the_focus(table: Table) -> None:
    t = table
    img, script = "<img/src=x/onerror=alert(1)>", "<script>alert(2)</script>"
    t.type(f"new game {img} {script} Cy win 2", lambda line: line.startswith("Turn 1:"))
    t.join_all([script, "Cy"], {script: LANDSCAPE})
    hostile, cy = t.phones[script], t.phones["Cy"]
    # The names are text: headings read as typed, no element made of them, no script run, nothing wider than a
    # landscape phone.
    expect(hostile.page.locator("#players h3").first).to_have_text(img)
    expect(hostile.page.locator("#you strong")).to_have_text(script)
    assert hostile.page.locator("main img, main script").count() == 0
    assert_accessible(hostile.page, "the table in landscape")

    # Cy is typing a card's name when the laptop records a move: the page shows it and says it politely, and the
    # focus and what Cy typed stay where they were.
    cy.caught_up()
    cy.tap("read")  # off turn with an empty pile, reading a card is what Cy may do
    cy.page.locator("#search").fill("nei")
    expect(cy.page.locator("#search")).to_be_focused()
    mark = t.laptop.mark()
    t.laptop.type("draw")
    drew = t.laptop.wait_for(lambda line: line.endswith("drew a card."), after=mark)
    expect(cy.page.locator("#news")).to_have_text(re.compile(re.escape(drew)))
    expect(cy.page.locator("#news")).to_have_attribute("role", "status")
    # The same draw again, at the next place of the game's log: said again (the region rewritten, a no-break space
    # after the same words), and listed twice; then undone: the move at that place goes, the one alike stays.
    t.laptop.type("draw")
    expect(cy.page.locator("#news")).to_have_js_property("textContent", f"{drew}\u00a0")  # (to_have_text trims it)
    expect(cy.page.locator("#last li", has_text=drew)).to_have_count(2)
    t.laptop.type("undo")
    expect(cy.page.locator("#news")).to_contain_text("Undone: ")
    expect(cy.page.locator("#last li", has_text=drew)).to_have_count(1)
    expect(cy.page.locator("#search")).to_be_focused()
    expect(cy.page.locator("#search")).to_have_value("nei")

    # The host takes Cy's phone off the table: the page says why and shows the join screen again.
    t.type("share remove Cy", device_removed("Cy", 1))
    expect(cy.page.locator("#notice")).to_have_text(DEVICE_REMOVED)
    expect(cy.page.locator("#join")).to_be_visible()
    expect(cy.page.locator("#moves")).to_be_hidden()
    t.typed.pop()
    assert not hostile.dialogs and not cy.dialogs and not hostile.failures and not cy.failures


@contextmanager
def second_phone(t: Table, player: str) -> Iterator[Phone]:
    """Another phone, 320 px wide, opens the join address and asks to record for `player`, whose first phone is on
    the table: it waits, showing its short name (`Phone.tag`), the one the host hears; closed afterwards."""
    phone = Phone(t.browser, t.laptop, NARROW)
    try:
        phone.open_join()
        phone.ask(player)
        yield phone
    finally:
        phone.close()


def test_a_second_phone_waits_in_words_until_the_host_lets_it_in_and_no_phone_is_asked(table: Table) -> None:
    t = table
    t.type("new game Ana Ben", lambda line: line.startswith("Turn 1:"))
    t.join_all(["Ben"], {})
    first = t.phones["Ben"]
    with second_phone(t, "Ben") as second:
        waits = phone_waits_named("Ben", second.tag)  # the page says it waits
        expect(second.page.locator("#moves")).to_be_hidden()
        assert_accessible(second.page, "a phone waits for the host")
        second.page.reload()  # its last request still held by the server: the page still waits, never the join screen
        expect(second.page.locator("#no-game")).to_have_text(waits)
        expect(second.page.locator("#join")).to_be_hidden()
        expect(first.page.locator("#warning")).to_be_hidden()  # Ben's first phone is asked nothing
        t.type("yes", phone_let_in("Ben", 2))
        t.typed.pop()
        expect(second.page.locator("#turn")).to_be_visible()  # let in: the table, live
        expect(second.page.locator("#no-game")).to_be_hidden()
        assert not first.failures and not second.failures


def test_the_host_hears_the_short_name_each_waiting_phone_shows_and_lists_and_removes_phones_by_it(
    table: Table,
) -> None:
    """Two phones ask to record for Ben (one of them an impostor): each shows its own short name while it waits
    ("blue 7"), the host hears that name in its question, `share devices` lists the phones by it, and `share remove`
    takes the one named off, leaving the other. The one taken off says why, even when its event stream opens only
    after the removal (it was let in a moment before): that stream is held until the laptop has said the removal
    (before, it was refused unread and the page went back to the join screen saying nothing, one run in a few)."""
    t = table
    t.type("new game Ana Ben", lambda line: line.startswith("Turn 1:"))
    t.join_all(["Ben"], {})
    real = t.phones["Ben"]
    with second_phone(t, "Ben") as other:
        tag = other.tag
        assert tag != real.tag and re.fullmatch(r"[a-z]+ [2-9]", tag)
        mark = t.laptop.mark()
        t.laptop.type("share devices")
        listed = t.laptop.wait_for(lambda line: line.startswith("Phones joined:"), after=mark)
        assert listed == device_list([("Ben's phone", real.tag)], [("Ben", tag)])
        held: list[Any] = []

        def hold(route: Any) -> None:
            held.append(route)

        other.page.route("**/api/events", hold)  # its stream, once let in, is held on the way
        t.type("yes", phone_let_in("Ben", 2))
        t.typed.pop()
        expect(other.page.locator("#turn")).to_be_visible()
        for _ in range(1200):  # a bounded wait for the browser to ask for the stream (held: it reaches no server)
            if held:
                break
            other.page.wait_for_timeout(50)
        assert held
        mark = t.laptop.mark()
        t.laptop.type("share devices")
        listed = t.laptop.wait_for(lambda line: line.startswith("Phones joined:"), after=mark)
        assert listed == device_list([("Ben's phone", real.tag), ("Ben's phone 2", tag)])
        mark = t.laptop.mark()
        t.laptop.type(f"share remove {tag.upper()}")  # as the host heard it, in any case
        t.laptop.wait_for(phone_removed("Ben's phone 2", tag), after=mark)
        for route in held:  # the stream reaches the server after the removal
            route.continue_()
        other.page.unroute("**/api/events")
        expect(other.page.locator("#notice")).to_have_text(DEVICE_REMOVED)  # the one named is taken off...
        expect(other.page.locator("#join")).to_be_visible()
        expect(real.page.locator("#turn")).to_be_visible()  # ... and the real phone stays
        mark = t.laptop.mark()
        t.laptop.type("share devices")
        assert t.laptop.wait_for(lambda line: line.startswith("Phones joined:"), after=mark) == device_list(
            [("Ben's phone", real.tag)]
        )
        assert not real.failures and not other.failures


#: Where Undo is, from the moves' heading down, in pixels.
UNDO_PLACE = (
    "document.querySelector('[data-verb=undo]').getBoundingClientRect().top - "
    "document.getElementById('moves-heading').getBoundingClientRect().top"
)


def visible_verbs(phone: Phone) -> list[str]:
    """The move buttons the phone shows now, in their order on the page."""
    script = (
        "[...document.querySelectorAll('#moves button[data-verb]')].filter(b => !b.hidden).map(b => b.dataset.verb)"
    )
    return list(phone.page.evaluate(script))


def test_a_card_read_on_the_phone_only_the_moves_allowed_and_no_tap_lost_to_the_network(table: Table) -> None:
    from assistant.core.words.cardtext import card_lines
    from assistant.core.words.share import PAGE_LABELS
    from assistant.storage.decks import load_card_set

    t = table
    t.type("new game Ana Ben Cy babies red pink orange", "Turn 1: Ana goes first.")
    t.join_all(["Ben", "Cy"], {"Cy": NARROW})
    ben, cy = t.phones["Ben"], t.phones["Cy"]

    # Off turn with an empty pile: reading a card and undo, nothing else; Undo keeps its place at the turn change.
    cy.caught_up()
    expect(cy.verb("undo")).to_be_visible()
    assert visible_verbs(cy) == ["undo", "read"]
    expect(cy.page.locator("#no-moves")).to_be_visible()
    ben.caught_up()
    undo_at = ben.page.evaluate(UNDO_PLACE)  # off turn; then on his own turn, with every move of a turn shown

    # A screen reader's place: a card of Cy's Stable that did not move is the same element after Ana's moves.
    expect(cy.page.locator("#players li").first).to_be_visible()
    cy.page.evaluate("window.keptCard = document.querySelector('#players li')")
    t.type("draw", "Ana drew a card.")
    t.type("play basic red", "Ana played Basic Unicorn (Red).")
    cy.caught_up()
    assert visible_verbs(cy) == ["undo", "read", "resolve", "neigh", "super-neigh", "instant"]
    t.type("resolve", "Ana has 2 Unicorns.")
    cy.caught_up()
    assert cy.page.evaluate("window.keptCard.isConnected && window.keptCard === document.querySelector('#players li')")
    assert visible_verbs(cy) == ["undo", "read"]  # the pile is empty again: no resolve, no answers
    t.type("end turn", "Turn 2: Ben's turn.")
    ben.caught_up()
    assert ben.page.evaluate(UNDO_PLACE) == undo_at
    expect(ben.page.locator("#turn")).not_to_contain_text("say ")  # the phone's own words: its buttons say how

    # Ben reads Rainbow Aura on its own page, the laptop's words, said nowhere else; then plays it from there.
    t.phone("Ben", lambda p: p.tap("draw"), "Ben draw", "Ben drew a card.")
    ben.caught_up()
    ben.tap("read")
    ben.page.locator("#search").fill("rainbow aura")
    ben.page.locator("#search-results button", has_text="Rainbow Aura").first.click()
    cards = load_card_set()
    aura = cards.get("rainbow-aura")
    assert aura is not None
    expected = card_lines(aura, cards.vocabulary, cards.copies_known(aura))
    expect(ben.page.locator("#card-name")).to_have_text(expected[0])
    expect(ben.page.locator("#card-name")).to_be_focused()
    expect(ben.page.locator("#card-text p")).to_have_text(expected[1:])
    assert_accessible(ben.page, "a card's own page")
    mark = t.laptop.mark()
    t.laptop.type("whose turn")
    assert t.laptop.wait_for(lambda line: bool(line), after=mark).startswith("Turn 2"), "nothing said of the read"
    ben.caught_up()
    expect(ben.page.locator("#card-play")).to_have_text(PAGE_LABELS["play_it"])
    t.phone("Ben", lambda p: p.page.locator("#card-play").click(), "Ben play Rainbow Aura", "Ben played Rainbow Aura.")
    expect(ben.page.locator("#card-page")).to_be_hidden()
    t.phone("Ben", lambda p: p.tap("resolve"), "resolve", lambda line: "Rainbow Aura" in line)

    # A tap while the network is down is kept with its key, through a reload, and recorded once when it is back.
    keys: list[str] = []

    def down(route: Any) -> None:
        keys.append(route.request.post_data_json["key"])
        route.abort("internetdisconnected")

    ben.caught_up()
    ben.page.route("**/api/move", down)
    mark = t.laptop.mark()
    ben.tap("end")
    expect(ben.page.locator("#sending")).to_have_text(PAGE_LABELS["waiting"])
    ben.page.reload()  # the page reloads during the drop: the tap is still kept, and still waits
    expect(ben.page.locator("#sending")).to_have_text(PAGE_LABELS["waiting"])
    assert len(keys) >= 2 and len(set(keys)) == 1, keys
    ben.page.unroute("**/api/move")
    expect(ben.page.locator("#sending")).to_have_text(PAGE_LABELS["sent"])
    t.laptop.wait_for(lambda line: line.endswith("Turn 3: Cy's turn."), after=mark)
    t.typed.append("end turn")
    ben.caught_up()
    assert sum("Turn 3" in line for line in t.laptop.said[mark:]) == 1, t.laptop.said[mark:]
    assert ben.page.evaluate("localStorage.length") == 0
    assert not ben.failures and not cy.failures and not ben.dialogs


def test_an_effects_destroy_is_entered_from_the_phone_of_its_player_while_the_pile_is_open(
    table: Table, tmp_path: Path
) -> None:
    t = table
    t.type("new game Ana Ben Dee deck llamas babies alpaca llama ram", "Turn 1: Ana goes first.")
    t.join_all(["Dee"], {})
    dee = t.phones["Dee"]
    t.type("draw", "Ana drew a card.")
    t.type("play basic alpaca", "Ana played Basic Alpaca.")
    t.phone("Dee", lambda p: p.card("instant", "emu", "Surprise Emu Attack"), "Dee play Surprise Emu Attack",
            "Dee played Surprise Emu Attack.")  # fmt: skip
    t.type("resolve", lambda line: line.startswith("Dee's Surprise Emu Attack resolves"))
    dee.caught_up()
    expect(dee.page.locator("#pile")).to_contain_text("Basic Alpaca")  # the Animal still on the pile
    assert "destroy" in visible_verbs(dee)
    expect(dee.page.locator("#chain")).not_to_contain_text("say ")  # the phone's own words
    t.phone("Dee", lambda p: p.on_table("destroy", "Baby Alpaca, Ana"), "Dee destroy baby alpaca from Ana",
            "Dee destroyed Baby Alpaca in Ana's Field.")  # fmt: skip
    assert_accessible(dee.page, "the pile open with the chain")
    assert game_json(tmp_path / "laptop") == typed_game_json(t.typed, tmp_path / "typed")


def test_a_save_is_asked_of_the_cards_owner_and_no_tap_is_ignored_in_silence(table: Table) -> None:
    """Before, Ana's phone destroying Ben's card asked Ana whether Ben saves it, with "Record it anyway" and "Do not
    record it", and Ben was never asked; a button no longer allowed stayed dimmed through other turns, and a tap on it
    did nothing and said nothing; then a dimmed button stayed while focused, and a tap on End turn's, after ending
    one's own turn, said "the table has changed"."""
    from assistant.core.words.share import SAVE_LABELS, phone_asks

    t = table
    t.type("new game Ana Ben", "Turn 1: Ana goes first.")
    for line, said in [
        ("bring black knight unicorn into Ben", lambda line: "Black Knight Unicorn" in line),
        ("bring basic red into Ben", lambda line: "Basic Unicorn (Red)" in line),
        ("draw", "Ana drew a card."),
        ("play unicorn poison", "Ana played Unicorn Poison."),
        ("resolve", lambda line: "Unicorn Poison" in line),
    ]:
        t.type(line, said)
    t.join_all(["Ana", "Ben"], {})
    ana, ben = t.phones["Ana"], t.phones["Ben"]
    ana.caught_up()
    mark = t.laptop.mark()
    ana.on_table("destroy", "Basic Unicorn (Red)")
    t.laptop.wait_for(phone_asks("Ben's phone", saving=True), after=mark)
    expect(ana.page.locator("#notice")).to_have_text(phone_asks("Ben's phone", saving=True))
    expect(ana.page.locator("#warning")).to_be_hidden()  # Ana is asked nothing: the card is Ben's
    expect(ben.page.locator("#warning-lines")).to_have_text(
        "Ben may save Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead. Save it?"
    )
    expect(ben.page.locator("#warning-heading")).to_have_text(SAVE_LABELS["heading"])
    expect(ben.page.locator("#warning-yes")).to_have_text("Save it")
    expect(ben.page.locator("#warning-no")).to_have_text("Do not save it")
    assert_accessible(ben.page, "a save asked of the card's owner")
    mark = t.laptop.mark()
    ben.answer(True)
    t.laptop.wait_for(lambda line: line.startswith("Ana saved") or line.startswith("Ben saved"), after=mark)
    expect(ben.page.locator("#warning")).to_be_hidden()

    # A button whose move is no longer allowed while it has the focus: it goes at once (never a dimmed button), and
    # the focus goes to the moves' heading.
    t.type("resolve", lambda line: bool(line))  # the chain's link done
    t.type("play basic red", lambda line: line.endswith("Say yes or no."))  # a second play: warned, recorded anyway
    t.type("yes", "Ana played Basic Unicorn (Red).")
    ben.caught_up()
    expect(ben.verb("neigh")).to_be_visible()
    ben.verb("neigh").focus()
    t.type("resolve", "Ana has 1 Unicorn.")
    ben.caught_up()
    expect(ben.verb("neigh")).to_be_hidden()
    expect(ben.page.locator("#moves-heading")).to_be_focused()
    # Ending one's own turn: the End button goes, and nothing says that the table has changed.
    mark = t.laptop.mark()
    ana.caught_up()
    ana.tap("end")
    t.laptop.wait_for(lambda line: "turn" in line.lower(), after=mark)
    ana.caught_up()
    expect(ana.verb("end")).to_be_hidden()
    expect(ana.page.locator("#moves-heading")).to_be_focused()
    for phone in (ana, ben):
        expect(phone.page.locator("#notice")).not_to_contain_text("the table has changed")
        expect(phone.page.locator("[aria-disabled]")).to_have_count(0)  # no dimmed button on the screen
    assert not ana.failures and not ben.failures


def test_a_move_on_a_card_entered_during_a_drop_is_found_on_the_phone_and_kept_like_a_tap(table: Table) -> None:
    """Before, the card search needed the network: a second move during a drop could not be entered, and nothing said
    why."""
    from assistant.core.words.share import PAGE_LABELS

    t = table
    t.type("new game Ana Ben", "Turn 1: Ana goes first.")
    t.join_all(["Ana"], {})
    ana = t.phones["Ana"]
    t.phone("Ana", lambda p: p.tap("draw"), "draw", "Ana drew a card.")
    ana.caught_up()
    ana.page.route("**/api/**", lambda route: route.abort("internetdisconnected"))  # the network drops
    mark = t.laptop.mark()
    ana.card("play", "basic red", "Basic Unicorn (Red)")
    expect(ana.page.locator("#notice")).to_have_text(PAGE_LABELS["search_offline"])
    expect(ana.page.locator("#sending")).to_have_text(PAGE_LABELS["waiting"])
    ana.page.unroute("**/api/**")
    expect(ana.page.locator("#sending")).to_have_text(PAGE_LABELS["sent"])
    t.laptop.wait_for("Ana played Basic Unicorn (Red).", after=mark)
    assert not ana.failures


def test_a_play_from_a_phone_declares_whom_its_card_targets(table: Table, tmp_path: Path) -> None:
    """Before, a phone could only play a card with no target declared (002's "Option 2", the table says it aloud):
    the page had no control that sent `aim`. The play's picker has a labelled list of whom the card targets, no one
    by default, chosen with the keyboard; the target is said with the play, and checked against the card at the
    play (a warning on the phone when the player targeted has nothing the card acts on)."""
    from assistant.core.words.share import PAGE_LABELS

    t = table
    t.type("new game Ana Ben Cy win 2", "Turn 1: Ana goes first.")
    t.join_all(["Ana"], {})
    ana = t.phones["Ana"]
    t.type("bring basic red into Ben", "Ana brought Basic Unicorn (Red) into Ben's Stable.")
    t.phone("Ana", lambda p: p.tap("draw"), "Ana draw", "Ana drew a card.")
    ana.caught_up()
    ana.tap("play")
    aim = ana.page.locator("#aim")
    expect(aim).to_be_visible()
    labelled = ana.page.locator("#picker").get_by_label(PAGE_LABELS["aim_label"])
    expect(labelled).to_have_value("")  # no one declared, until chosen
    expect(aim.locator("option")).to_have_text([PAGE_LABELS["aim_none"], "Ben", "Cy", "Ana"])
    assert_accessible(ana.page, "a play with whom it targets to choose")

    # Cy's Stable is empty: the target declared is checked at the play, and the phone asks before recording.
    aim.focus()
    ana.page.keyboard.press("ArrowDown")
    ana.page.keyboard.press("ArrowDown")
    expect(aim).to_have_value("Cy")
    ana.page.locator("#search").fill("poison")
    ana.page.locator("#search-results button", has_text="Unicorn Poison").first.click()
    expect(ana.page.locator("#warning-lines")).to_contain_text("Cy")
    ana.answer(yes=False)
    expect(ana.page.locator("#warning")).to_be_hidden()

    # Each play declares its own: the list is back to no one.
    ana.caught_up()
    ana.tap("play")
    expect(aim).to_have_value("")
    ana.page.locator("#picker-cancel").click()

    # From the card's own page too: read it, choose Ben with the keyboard, play it.
    ana.tap("read")
    ana.page.locator("#search").fill("poison")
    ana.page.locator("#search-results button", has_text="Unicorn Poison").first.click()
    card_aim = ana.page.locator("#card-aim")
    expect(card_aim).to_be_visible()
    expect(card_aim).to_have_value("")
    assert_accessible(ana.page, "a card's own page, with whom it targets to choose")
    card_aim.focus()
    ana.page.keyboard.press("ArrowDown")
    expect(card_aim).to_have_value("Ben")
    t.phone(
        "Ana",
        lambda p: p.page.locator("#card-play").click(),
        "Ana play unicorn poison targeting Ben",
        "Ana played Unicorn Poison, targeting Ben.",
    )
    assert not ana.failures and not ana.dialogs
    assert game_json(tmp_path / "laptop") == typed_game_json(t.typed, tmp_path / "typed")


def test_a_phone_that_scans_the_qr_code_asks_to_join_while_guessing_closes_the_code_to_every_phone(
    tmp_path: Path,
) -> None:
    """40 addresses send a wrong code each, so the spoken code is closed to every address (the table-wide cap) and
    this phone's own right code would wait. The page opened at the QR code's address (its join token, never the code)
    goes straight to the players, asks to join as Ana with the token, waits showing its short name, and is let in by
    the host. Before, the QR code held the spoken code: the page filled it in, and the phone was kept out with
    everyone."""
    import asyncio
    import json
    from concurrent.futures import ThreadPoolExecutor

    import aiohttp
    from playwright.async_api import async_playwright
    from playwright.async_api import expect as expect_async

    from tests.adapters.test_share_server import shared_table

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            for number in range(2, 42):
                connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{number}", 0), force_close=True)
                async with aiohttp.ClientSession(connector=connector) as http:
                    wrong = f"{(int(table.server.current_code()) + 1) % 10**6:06d}"
                    body = json.dumps({"code": wrong})
                    async with http.post(table.url("/api/code"), data=body, headers=table.headers()) as response:
                        assert response.status == 403
            assert table.server.guesses.closed_to_all() > 0  # the spoken code: closed to this phone too
            async with async_playwright() as playwright:
                chromium = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                try:
                    context = await chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                    page = await context.new_page()
                    await page.goto(table.server.join_url())
                    choose = page.locator("#players-to-choose button", has_text="Ana").first
                    await choose.click(timeout=PATIENCE * 1000)  # no code typed: straight to the players
                    waits = page.locator("#no-game", has_text="This phone is ")
                    await expect_async(waits).to_be_visible(timeout=PATIENCE * 1000)
                    allowed = await table.share.control("allow Ana")
                    assert allowed.lines[0] == phone_let_in("Ana", 1)
                    await expect_async(page.locator("#turn")).to_be_visible(timeout=PATIENCE * 1000)
                    assert "link=" not in page.url  # the token leaves the address once joined
                finally:
                    await chromium.close()

    # On a thread of its own: the module's chromium (Playwright's sync API) keeps an event loop running on this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, asyncio.wait_for(scenario(), PATIENCE * 3)).result()
