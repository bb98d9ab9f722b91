"""The braille display's link to a session, on a stand-in for the BrlAPI display that records what is written: what
a reply puts on the display first (a Herd Bonus's effect, never its reminder first)."""

from __future__ import annotations

from llamas_game import game_lines

from assistant.commands.app import table_session
from assistant.core.braille import celltable
from assistant.core.braille.display import BrailleView, Key, Press
from assistant.core.language.reply import DIGEST, DISPLAY_BACK, Reply
from assistant.core.words.audience import Audience
from assistant.core.words.worded import words_for
from assistant.storage.decks import load_card_set
from assistant.ui.braille_display import DisplayLink


class Written:
    """A display that is there, 40 cells, keeping each row written."""

    lost = False
    width = 40

    def __init__(self) -> None:
        self.rows: list[str] = []

    def write(self, cells: str, cursor: int | None = None, frame: int = 0) -> None:
        self.rows.append(celltable.from_cells(cells[4:].rstrip(celltable.BLANK)))

    def settling(self) -> bool:
        return False

    def taken_back_anew(self) -> bool:
        return False

    def close(self) -> None:
        pass


def test_a_herd_bonus_turn_shows_the_turn_then_the_bonus_effect_first():
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    display = Written()
    link = DisplayLink(display, BrailleView(40), session)  # type: ignore[arg-type]
    for line in game_lines():  # each line typed on the keyboard, once what is held is read
        link.answered(link.view.frames)
        link.acknowledge()
        reply = session.handle(line)
        link.render(reply)
        if any(words_for(fact, Audience.BRIEF) != words_for(fact, Audience.TABLE) for fact in reply.facts):
            break
    else:
        raise AssertionError("no turn with a Herd Bonus in the game")
    assert display.rows[-1] == "ana's turn."  # held, short: the reminder is what follows
    link.answered(link.view.frames)
    link.press(Press(Key.LINE_DOWN))  # read: goes on
    assert display.rows[-1].startswith("alpaca herd bonus: your alpacas")


def test_no_advice_to_hear_a_herd_bonus_reaches_the_display():
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    link = DisplayLink(Written(), BrailleView(40), session)  # type: ignore[arg-type]
    advised = 0
    for line in game_lines():
        link.answered(link.view.frames)
        link.acknowledge()
        reply = session.handle(line)
        advised += any("to hear it here" in text.lower() for text in reply.lines)
        link.render(reply)
        shown = [*link.view.answer, *(fact.text for fact in link.view.held)]
        assert not any("hear it here" in text.lower() for text in shown), shown
    assert advised  # the screen and speech have it (the Ram's bonus, which the deck does not know)


def test_a_question_held_is_dropped_once_it_is_closed_elsewhere():
    """A save a phone's move asked of her on the laptop waited unread on the display (another hand's move); Ben took
    his move back from his phone, and "… Save it?" still waited, to be read after it was closed everywhere else. No
    question open: none is held, and none waits."""
    from assistant.core.language.device import DeviceMove
    from assistant.session import Session

    session = Session(load_card_set())
    link = DisplayLink(Written(), BrailleView(40), session)  # type: ignore[arg-type]
    lines = (
        "new game Ana Ben Cy babies red pink orange",
        "bring black knight unicorn into Ana",
        "bring basic red into Ana",
    )
    for line in (*lines, "draw", "end turn", "Ben draw", "Ben play unicorn poison", "resolve"):
        link.render(session.handle(line))
        link.answered(link.view.frames)
        link.acknowledge()
    destroy = DeviceMove("destroy", card="basic-unicorn-red", target="Ana", phoned=("Ben",))
    link.render(session.phone_desk.device_move("Ben", destroy).reply)
    asked = [move for move in link.view.waiting if "Save it?" in move.lines[0]]
    assert asked and session.pending is not None
    link.render(session.phone_desk.device_move("Ben", DeviceMove("undo", phoned=("Ben",))).reply)
    assert session.pending is None and not [move for move in link.view.waiting if "Save it?" in move.lines[0]]
    assert not [line for line in link.view.held if "Save it?" in line.text]


class Small(Written):
    """A 14-cell display (one status cell, the unread count), keeping each row written."""

    width = 14

    def write(self, cells: str, cursor: int | None = None, frame: int = 0) -> None:
        self.rows.append(celltable.from_cells(cells[1:].rstrip(celltable.BLANK)))


def test_on_a_small_display_the_moves_f8_told_still_wait_each_read_in_a_first_window_the_new_turn_first():
    """At 14 cells the digest's first window is its heading ("since your"): a reader who reads first windows met the
    moves of a burst only inside it, behind "Since your last move: Dee's turn.", once F8 had ended their wait (5 of 20
    phone moves never met, a turn's end with its new turn first 2 of 6). On a small display each move F8 told still
    waits, and is read whole, its point first: the new turn first at each turn's end."""
    from assistant.core.language.device import DeviceMove
    from assistant.session import Session

    session = Session(load_card_set())
    display = Small()
    link = DisplayLink(display, BrailleView(14), session)  # type: ignore[arg-type]
    link.render(session.handle("new game Ana Ben Cy Dee babies red pink narwhal yellow"))
    moves = [("Ana", "draw"), ("Ana", "end"), ("Ben", "draw"), ("Ben", "end"), ("Cy", "draw"), ("Cy", "end")]
    for player, verb in moves:  # a burst from the phones while the answer is on the display: each waits
        link.render(session.phone_desk.device_move(player, DeviceMove(verb, phoned=("Ana", "Ben", "Cy"))).reply)
    assert len(link.view.waiting) == len(moves)
    digest = session.handle("missed").coming(DIGEST)  # F8
    link.render(digest)
    assert digest.lines[0].startswith("Since your last move:")
    assert display.rows[-1] == "since your"  # all a first window holds of it
    firsts = []
    while link.view.waiting:
        link.answered(link.view.frames)
        link.press(Press(Key.NEXT_UNREAD))
        firsts.append(display.rows[-1])
    assert firsts == ["ana drew a", "ben's turn.", "ben drew a", "cy's turn.", "cy drew a", "dee's turn."], firsts


def _burst(session, link: DisplayLink) -> None:
    """A game begun on the display, then phones' moves while its answer is read: each waits."""
    from assistant.core.language.device import DeviceMove

    link.render(session.handle("new game Ana Ben Cy Dee babies red pink narwhal yellow"))
    for player, verb in [("Ana", "draw"), ("Ana", "end"), ("Ben", "draw")]:
        link.render(session.phone_desk.device_move(player, DeviceMove(verb, phoned=("Ana", "Ben", "Cy"))).reply)
    assert len(link.view.waiting) == 3


def test_f8_s_digest_is_known_by_its_origin_and_the_moves_it_told_wait_no_longer():
    """The digest is known from the reply's own origin (`Source.DIGEST`), never from a flag set beside it: shown
    first, holding no fact of its own, and the moves it told no longer wait. The same lines typed as `missed` from
    her own key are an answer like any other: the moves still wait."""
    from assistant.session import Session

    session = Session(load_card_set())
    link = DisplayLink(Written(), BrailleView(40), session)  # type: ignore[arg-type]
    _burst(session, link)
    typed = session.handle("missed")
    assert typed.facts  # the new turn it leads with: held when it is not the digest
    link.render(typed)
    assert len(link.view.waiting) == 3

    session = Session(load_card_set())
    link = DisplayLink(Written(), BrailleView(40), session)  # type: ignore[arg-type]
    _burst(session, link)
    held = list(link.view.held)
    link.render(session.handle("missed").coming(DIGEST))
    assert not link.view.waiting
    assert list(link.view.held) == held  # (its newest decisive fact leads its first line: never held twice)


def test_the_display_s_own_notices_are_known_by_their_origin_not_by_which_object_they_are():
    """That the display is back (`Source.DISPLAY_BACK`) is shown at once and never pushed away unseen; that it
    stopped answering (`Source.DISPLAY_LOST`) waits until it is back, and is then overtaken: known from each reply's
    origin, so a copy of either (a front end that adds to a reply makes a new one) is treated alike."""
    import dataclasses

    from assistant.session import Session

    session = Session(load_card_set())
    display = Written()
    link = DisplayLink(display, BrailleView(40), session)  # type: ignore[arg-type]
    link.render(session.handle("new game Ana Ben Cy babies red pink orange"))
    link.answered(link.view.frames)
    lost = link.lost()
    link.render(dataclasses.replace(lost))
    assert [move.lines[0] for move in link.view.waiting] == list(lost.lines[:1])
    back = dataclasses.replace(link.back())
    assert not link.view.waiting  # overtaken by its return
    link.render(back)
    assert back.lines[0].lower().startswith(display.rows[-1]) and display.rows[-1]  # at once
    link.render(session.handle("tally"))  # her next key before she read it: it waits again, never pushed away
    assert [move.lines[0] for move in link.view.waiting] == list(back.lines[:1])
    link.render(Reply.of("Elsewhere: back.").coming(DISPLAY_BACK))
    assert display.rows[-1] == "elsewhere: back."
