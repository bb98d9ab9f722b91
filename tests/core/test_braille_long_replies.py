"""Long replies on a 40-cell braille display: the point first (a Herd Bonus says what it does in the first window of
its line, before why it may be used), and a held fact never read twice (the answer after it leaves out what it
said). Whole games played through the session, each reply put on the display's model as the front ends do."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.commands.app import table_session
from assistant.core.braille import celltable
from assistant.core.braille.display import BrailleView, Key, Press, Region
from assistant.core.game.about import Topic, WhichCard
from assistant.core.game.segment import ChainLink, Part, Segment, Verbatim
from assistant.core.language.reply import Question, Reply
from assistant.core.words.audience import Audience
from assistant.core.words.worded import apart_words, held_apart, segment_words, words_for
from assistant.storage.decks import load_card_set
from assistant.ui.braille_display import to_hold
from tests.facts import fact

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = ["llamas_game.txt", "unicorns_four_game.txt"]


def replies(game: str):
    """Every reply of a fixture game, in order."""
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    for line in (FIXTURES / game).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            yield session.handle(line)


def read(view: BrailleView) -> str:
    return celltable.from_cells(view.render()[view.status_cells :].rstrip(celltable.BLANK))


def test_a_herd_bonus_says_what_it_does_in_the_first_window_of_its_line():
    view = BrailleView(40, status_cells=4)
    seen = set()
    for reply in replies("llamas_game.txt"):
        for text in reply.lines:
            if " Herd Bonus: " not in f" {text}":
                continue
            kind, _, rest = text.partition(" Herd Bonus: ")
            seen.add(kind)
            line = view.make_line(text)
            starts = view.windows(line)
            first = starts[1] if len(starts) > 1 else len(line.cells)
            point = f"{kind} Herd Bonus: " + " ".join(rest.split()[:2])  # what it does, begun
            assert len(view.make_line(point).cells) <= first, text
            assert text.index("It may be used with") > len(point), "why it may be used comes after what it does"
    assert seen == {"Alpaca", "Ram", "Goat"}


def reread_pans(view: BrailleView, reply) -> tuple[int, int]:
    """A reader pans through the held fact, then through the answer to its end: (pans, pans that showed only words
    of the fact again)."""
    view.show(reply.lines, to_hold(reply.facts, narrow=False), rest=held_apart(reply.segments, reply.facts))
    fact = " ".join(reply.decisive.casefold().split())
    pans = again = 0
    shown = read(view)
    for _ in range(200):
        before = (bool(view.held), view.line, view.window, view.held.window)
        view.press(Press(Key.PAN_RIGHT))
        if (bool(view.held), view.line, view.window, view.held.window) == before:
            break
        if not view.held and view.line >= len(view.regions[Region.ANSWER]):
            break  # panned past the answer
        last, shown = shown, read(view)
        if shown == last:
            break  # the end: nothing more to read (the held mark gone)
        pans += 1
        shown = " ".join(shown.split())
        if not view.held and len(shown) >= 16 and shown in fact:
            again += 1
    return pans, again


@pytest.mark.parametrize("game", GAMES)
def test_no_pan_re_reads_a_held_fact_in_a_whole_game(game):
    view = BrailleView(40, status_cells=4)
    total = again = held = 0
    for reply in replies(game):
        if not reply.decisive or not reply.lines:
            continue
        held += 1
        pans, repeated = reread_pans(view, reply)
        total, again = total + pans, again + repeated
    assert held > 10 and total > held
    assert again == 0, f"{again} of {total} pans re-read a held fact"


def test_the_answer_after_a_held_fact_leaves_out_what_it_said():
    """By the reply's segments: the fact in its own words left out, a line that says it again inside longer words
    shown in the words its segment gives without it; never by reading the words."""
    view = BrailleView(40)
    duty = fact(Topic.DUTY, "Destroy a Unicorn.", 2, player="Cy")
    chain = "Effect chain: the effect of Unicorn Poison, played by Cy"
    link = ChainLink(1, ("the effect of Unicorn Poison, played by Cy",))  # (held apart: "{chain}.")
    reply = Reply(
        segments=(
            Segment(duty, (duty,), part=Part.FACT),
            Segment(Verbatim("Unicorn Poison is played: it takes effect, then goes to the discard pile.")),
            Segment(
                Verbatim(f"{chain}, which does this: {words_for(duty, Audience.TABLE)}"), repeats=(duty,), link=link
            ),
        ),
    )
    view.show(reply.lines, to_hold(reply.facts, narrow=False), rest=held_apart(reply.segments, reply.facts))
    assert [line.text for line in view.regions[Region.ANSWER]] == [
        "Unicorn Poison is played: it takes effect, then goes to the discard pile.",
        f"{chain}.",
    ]
    win = fact(Topic.WIN, "Ana wins!", 0, player="Ana")
    over = (Segment(win, (win,), part=Part.FACT), Segment(Verbatim("The game is over."), joined=True))
    assert held_apart(over, (win,)) == ("The game is over.",)
    count = fact(Topic.COUNT, "Ana 6 Unicorns.", 0, player="Ana")
    kept = "Ana has 6 Unicorns with Tiny Stable, more than 5: sacrifice a Unicorn card."
    assert held_apart((Segment(count, (count,), part=Part.FACT), Segment(Verbatim(kept))), (count,)) == (kept,)


def test_a_link_of_the_chain_says_its_duty_again_only_where_the_duty_is_not_held():
    """A whole game: each line that says a held duty again inside longer words is shown without it, and the same
    line is whole on the screen and in speech."""
    cut = 0
    for reply in replies("unicorns_four_game.txt"):
        for segment in reply.segments:
            if segment.repeats and set(segment.repeats) <= set(reply.facts):
                cut += 1
                assert (
                    segment_words(segment, Audience.TABLE) in reply.lines
                    and segment_words(segment, Audience.TABLE) in reply.speech
                )
                assert apart_words(segment) in held_apart(reply.segments, reply.facts)
                assert segment_words(segment, Audience.TABLE) not in held_apart(reply.segments, reply.facts)
    assert cut


@pytest.mark.parametrize("names", [("ana", "ben"), ("ZOE", "Max")])
def test_a_line_that_tells_the_held_facts_state_in_other_words_is_known_by_its_states(names):
    """ "Turn 2: ben's turn." after the held "ben's turn.", "ana has 2 Unicorns." after "ana 2 Unicorns.": left out
    by the states the line tells (`Reply.restates`), with any names, not by reading the words."""
    ana, ben = names
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    session.handle(f"new game {ana} {ben} babies red pink win 4")
    session.handle("draw")
    session.handle("play basic red")
    counted = session.handle("resolve")
    turn = session.handle("end turn")
    for reply, line in ((counted, f"{ana} has 2 Unicorns."), (turn, f"Turn 2: {ben}'s turn.")):
        assert reply.lines == (line,) and reply.restates == {line}
        for rest, then in ((held_apart(reply.segments, reply.facts), "the pile is empty"), (None, line.casefold())):
            view = BrailleView(40)
            view.set_region(Region.TABLE, ["The pile is empty."])
            view.show(reply.lines, to_hold(reply.facts, narrow=False), rest=rest)
            view.press(Press(Key.PAN_RIGHT))  # on from the held fact: past the answer, never its state again
            assert not view.held and read(view).startswith(then)


def test_a_held_fact_that_is_the_whole_answer_is_panned_past_and_kept_to_come_back_to():
    view = BrailleView(40)
    view.set_region(Region.TABLE, ["The pile: Ben's Basic Unicorn (Red)."])
    which = WhichCard("Ana", "basic", ("Basic Unicorn (Red)", "Basic Unicorn (Blue)"))
    reply = Reply.asking(which, Question(lambda: Reply.of("")))
    asked = "Which card is basic? 2 matches: 1 Basic Unicorn (Red), 2 Basic Unicorn (Blue). Type a number to choose."
    assert reply.lines == (asked,)
    view.show(reply.lines, to_hold(reply.facts, narrow=False), rest=held_apart(reply.segments, reply.facts))
    windows = [read(view)]
    while view.held:
        view.press(Press(Key.PAN_RIGHT))
        windows.append(read(view))
    assert windows[-1].startswith("the pile: ben")  # on from the question, never through it again
    view.press(Press(Key.PAN_LEFT))
    bare = asked.casefold().replace("(", "").replace(")", "")  # (as the display reads it back)
    assert read(view).startswith("choose.") or bare.endswith(read(view))  # the question, a pan away
