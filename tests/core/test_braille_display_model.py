"""The braille display's model on its own: what a window shows, panning, the line keys, routing, status cells, held
decisive facts and typing, with the built-in grade-1 table (pure, no display)."""

from __future__ import annotations

import pytest

from assistant.core.braille import celltable
from assistant.core.braille.display import (
    CHOICE_CELL,
    HELD_CELL,
    Act,
    Action,
    BrailleView,
    Key,
    Press,
    Region,
    Status,
)
from assistant.core.braille.held import Fact, Held
from tests.facts import fact as about

LONG = "Rainbow Aura is played: it enters Ana's Stable, and her Unicorns cannot be destroyed while it stays there."


#: The display sizes the app is made for: 40 cells is the common desktop size, 14 and 20 portable, 80 large.
SIZES = (14, 20, 40, 80)


def fact(text: str, held: Held = Held.OTHER, *of: object) -> Fact:
    """A fact to hold: `of`, the game's values that make it this fact (a stand-in per fact: its words, unless
    given)."""
    return Fact(held, text, of or (text,))


def read(view: BrailleView) -> str:
    """What the window reads as, in print (the status cells left out): drawn on a display that answers."""
    cells = view.render()
    view.answered(view.frames)
    return celltable.from_cells(cells[view.status_cells :].rstrip(celltable.BLANK))


def pan_through(view: BrailleView) -> list[str]:
    """Every window of the line shown, panning right until the next line begins."""
    windows = [read(view)]
    line = view.line
    for _ in range(100):
        before = (view.line, view.window)
        view.press(Press(Key.PAN_RIGHT))
        if view.line != line or (view.line, view.window) == before:
            return windows
        windows.append(read(view))
    raise AssertionError("panning never ended")


@pytest.mark.parametrize("width", SIZES)
def test_every_size_shows_the_outcome_first_and_pans_to_the_end(width):
    view = BrailleView(width)
    view.show([LONG, "Ana has 3 Unicorns."])
    assert len(view.render()) == width
    windows = pan_through(view)
    assert LONG.lower().startswith(windows[0].strip())
    assert "".join(windows).replace(" ", "") == LONG.lower().replace(" ", "")
    assert "ana has 3 unicorns.".startswith(read(view))  # the next line after the last window


def test_windows_break_between_words_when_they_can():
    view = BrailleView(20)
    view.show([LONG])
    for window in pan_through(view)[:-1]:
        assert not window.endswith(("rainb", "destro")), window


def test_line_keys_go_through_the_answer_the_table_the_stables_and_the_history():
    view = BrailleView(40)
    view.set_region(Region.TABLE, ["Pile: empty."])
    view.set_region(Region.STABLES, ["Stables:", "Ana: Baby Unicorn, red."])
    view.set_region(Region.HISTORY, ["History:", "Ana drew a card."])
    view.show(["Ben played Neigh."])
    seen = [read(view)]
    for _ in range(6):
        view.press(Press(Key.LINE_DOWN))
        seen.append(read(view))
    assert seen == [
        "ben played neigh.",
        "pile: empty.",
        "stables:",
        "ana: baby unicorn, red.",
        "history:",
        "ana drew a card.",
        "ana drew a card.",  # the last line stays
    ]
    view.press(Press(Key.REGION_PREVIOUS))
    assert read(view) == "history:"
    view.press(Press(Key.REGION_PREVIOUS))
    assert read(view) == "stables:"
    view.press(Press(Key.TOP))
    assert read(view) == "ben played neigh."
    view.press(Press(Key.BOTTOM))
    assert read(view) == "ana drew a card."


def test_a_routing_key_on_a_card_name_asks_for_that_card():
    view = BrailleView(40)
    view.set_names(["Rainbow Aura", "Baby Unicorn (Red)", "Neigh"])
    view.show(["Ana: Rainbow Aura; Ben: Neigh."])
    cells = view.render()
    aura = cells.index(celltable.to_cells("rainbow"))
    assert view.press(Press(Key.ROUTE, aura + 3)).text == "Rainbow Aura"
    neigh = cells.index(celltable.to_cells("neigh"))
    assert view.press(Press(Key.ROUTE, neigh)).text == "Neigh"
    assert view.press(Press(Key.ROUTE, 1)).act is Act.NONE  # "ana": no card


def test_a_routing_key_counts_the_status_cells_and_the_window_panned_to():
    view = BrailleView(20, status_cells=4)
    view.set_names(["Rainbow Aura"])
    view.show(["Ana drew a card and then she played Rainbow Aura."])
    while celltable.to_cells("rainbow") not in view.render():
        view.press(Press(Key.PAN_RIGHT))
    cell = view.render().index(celltable.to_cells("rainbow"))
    assert view.press(Press(Key.ROUTE, cell)) == view.press(Press(Key.ROUTE, cell + 1))
    assert view.press(Press(Key.ROUTE, cell)).text == "Rainbow Aura"


def test_status_cells_show_whose_turn_the_phase_and_a_question():
    view = BrailleView(40, status_cells=4)
    view.status = Status("Ben", "Action phase", question=True)
    view.show(["Ben drew a card."])
    cells = view.render()
    assert cells[:4] == celltable.to_cells("b") + celltable.to_cells("a") + celltable.cell([2, 3, 6]) + celltable.BLANK
    assert celltable.from_cells(cells[4:].rstrip(celltable.BLANK)) == "ben drew a card."
    view.status = Status("Ben", "Action phase")
    assert view.render()[2] == celltable.BLANK


def test_a_decisive_fact_is_held_until_the_line_typed_over_it_is_sent():
    view = BrailleView(20)
    view.show(["Ginormous Unicorn enters Ben's Stable.", "Ben wins with 3 Unicorns! The game is over."],
              fact("Ben wins with 3 Unicorns! The game is over."))  # fmt: skip
    assert read(view) == "ben wins with 3"
    view.press(Press(Key.PAN_RIGHT))  # panning reads the held fact on
    assert read(view) == "unicorns! the game"
    view.press(Press(Key.PAN_LEFT))
    assert read(view) == "ben wins with 3"
    pressed = view.press(Press(Key.CHARACTER, "d"))
    assert not pressed.acknowledged and view.held  # a character typed never acknowledges it
    assert read(view) == "d"  # the typing is shown, never hidden under the fact
    for character in "raw":
        view.press(Press(Key.CHARACTER, character))
    assert read(view) == "draw"
    sent = view.press(Press(Key.ENTER))  # the line sent acknowledges it
    assert sent == Action(Act.SUBMIT, "draw", "Ben wins with 3 Unicorns! The game is over.") and not view.held
    assert read(view) == "ginormous unicorn"  # the answer, from its start


def test_a_review_key_only_acknowledges_a_held_fact():
    view = BrailleView(40)
    view.show(["Turn 2: Ben's turn.", "Ben has 3 cards."], fact("Turn 2: Ben's turn."), rest=["Ben has 3 cards."])
    assert view.press(Press(Key.LINE_DOWN)) == Action(Act.ACKNOWLEDGED, "Turn 2: Ben's turn.", "Turn 2: Ben's turn.")
    assert read(view) == "ben has 3 cards." and view.line == 0  # the answer, without the fact just read


def test_a_digit_on_a_held_numbered_choice_chooses():
    view = BrailleView(40)
    asked = "Which Instant does Ben play? 1 Neigh, 2 Super Neigh. Type a number to choose."
    view.show([asked], fact(asked))
    assert read(view).startswith("which instant")
    assert not view.press(Press(Key.CHARACTER, "1")).acknowledged
    assert view.press(Press(Key.ENTER)) == Action(Act.SUBMIT, "1", asked)


def test_dots_and_requests_on_a_held_fact_are_not_lost():
    view = BrailleView(40)
    view.show(["Turn 2: Ben's turn."], fact("Turn 2: Ben's turn."))
    assert read(view) == "turn 2: ben's turn."
    assert not view.press(Press(Key.DOTS, 0b11001)).acknowledged  # dots 1 4 5: d, typed and shown
    assert view.input.text == celltable.cell([1, 4, 5]) and view.render().startswith(celltable.cell([1, 4, 5]))
    assert view.press(Press(Key.ENTER)).acknowledged == "Turn 2: Ben's turn."
    view.show(["Ben wins!"], fact("Ben wins!"))
    assert view.press(Press(Key.WHERE)) == Action(Act.WHERE, "", "Ben wins!")


def test_a_status_cell_shows_a_fact_is_held_the_question_or_the_choice_waiting():
    view = BrailleView(40, status_cells=4)
    view.status = Status("Ben", "Action phase")
    view.show(["Turn 2: Ben's turn."], fact("Turn 2: Ben's turn."))
    assert view.render()[2] == HELD_CELL
    view.press(Press(Key.LINE_DOWN))
    assert view.render()[2] == celltable.BLANK
    view.status = Status("Ben", "Action phase", choice=True)
    assert view.render()[2] == CHOICE_CELL  # (the "?" showed only for yes or no)
    view.status = Status("Ben", "Action phase", question=True)
    assert view.render()[2] == celltable.cell([2, 3, 6])


def test_the_computer_keyboard_is_followed_and_its_lines_sent_acknowledge_a_held_fact():
    view = BrailleView(40)
    view.show(["Ben drew a card.", "Turn 3: Cy's turn."], fact("Turn 3: Cy's turn."))
    view.show(["Cy wins!"], fact("Cy wins!"))
    assert read(view) == "turn 3: cy's turn."
    for typed in ("t", "ta", "tal"):  # each character typed: shown, and no fact acknowledged
        view.input.follow(typed)
        assert read(view) == typed and len(view.held) == 2
    view.input.follow("ta")
    assert read(view) == "ta"
    view.input.clear()  # the line sent
    assert view.held.line_sent() == "Turn 3: Cy's turn." and read(view) == "cy wins!"  # the next held fact waits
    assert view.held.line_sent() == "Cy wins!"  # (read above)
    assert view.held.line_sent() == ""


def test_a_held_fact_never_on_the_display_is_not_acknowledged_by_a_line_sent():
    view = BrailleView(40)
    view.input.follow("tal")  # typing on the keyboard when the win arrives: the typing stays shown
    view.show(["Ana wins with 2 Unicorns!"], fact("Ana wins with 2 Unicorns!"))
    assert read(view) == "tal"
    view.input.clear()
    assert view.held.line_sent() == "" and view.held  # never read: it stays
    assert read(view) == "ana wins with 2 unicorns!"
    assert view.held.line_sent() == "Ana wins with 2 Unicorns!"


def test_decisive_facts_wait_in_order():
    view = BrailleView(40)
    view.show(["Record it anyway? Say yes or no."], fact("Record it anyway? Say yes or no."))
    view.show(["Turn 2: Ben's turn."], fact("Turn 2: Ben's turn."))
    assert read(view) == "record it anyway? say yes or no."
    assert view.press(Press(Key.LINE_DOWN)).text == "Record it anyway? Say yes or no."
    assert read(view) == "turn 2: ben's turn."
    assert view.press(Press(Key.BOTTOM)).act is Act.ACKNOWLEDGED
    assert read(view) == "turn 2: ben's turn."
    assert not view.held


def test_a_fact_is_held_once_by_what_it_is_not_by_its_words():
    """The same question asked of two cards is two facts in the same words: both are held, and read in turn. The
    same fact handed again (another reply that still tells it) is held once."""
    view = BrailleView(40)
    asked = "Any Neigh? Say neigh or go on."
    first, second = fact(asked, Held.OTHER, "question", 12), fact(asked, Held.OTHER, "question", 15)
    view.show([asked], first)
    view.show(["Ben played Neigh.", asked], first)
    assert [line.fact for line in view.held] == [first]
    view.show(["Cy played Neigh.", asked], second)
    assert [line.fact for line in view.held] == [first, second]
    assert view.press(Press(Key.LINE_DOWN)).acknowledged == asked
    assert [line.fact for line in view.held] == [second] and read(view) == asked.lower()


def test_typing_on_the_display_shows_the_line_and_enter_sends_it():
    view = BrailleView(14)
    view.show(["Ana drew a card."])
    for character in "end turn":
        view.press(Press(Key.CHARACTER, character))
    assert read(view) == "end turn"
    view.press(Press(Key.BACKSPACE))
    assert view.input.text == "end tur"
    view.press(Press(Key.CHARACTER, "n"))
    assert view.press(Press(Key.ENTER)) == view.press(Press(Key.ENTER)).__class__(Act.SUBMIT, "end turn")
    assert read(view) == "ana drew a"  # the answer again (its first window); an empty Enter sends nothing


def test_dot_keys_type_cells():
    view = BrailleView(40)
    for dots in ([1, 4, 5], [1, 2, 3, 5], [1], [2, 4, 5, 6]):  # d r a w
        view.press(Press(Key.DOTS, sum(1 << (dot - 1) for dot in dots)))
    action = view.press(Press(Key.ENTER))
    assert action == action.__class__(Act.SUBMIT, celltable.to_cells("draw"))


def test_six_key_entry_on_the_display_keyboard():
    view = BrailleView(40, six_key=True)
    for at, key in enumerate("fj fjk "):  # dots 1 4, space; dots 1 4 5, space: "cd"
        view.press(Press(Key.CHARACTER, key), at=float(at))
    assert view.input.text == celltable.to_cells("cd")
    view.press(Press(Key.CHARACTER, "2"))  # not a dot key: typed as it is (a numbered choice)
    assert view.press(Press(Key.ENTER)).text == celltable.to_cells("cd") + "2"


def test_whose_turn_and_help_keys_ask_the_front_end():
    view = BrailleView(40)
    assert view.press(Press(Key.WHERE)).act is Act.WHERE
    assert view.press(Press(Key.HELP)).act is Act.HELP


def test_too_small_a_display_is_refused():
    with pytest.raises(ValueError):
        BrailleView(4)


def test_the_cursor_is_at_the_typing_point_and_off_otherwise():
    view = BrailleView(14, status_cells=0)
    view.show(["Ben drew a card."])
    assert view.cursor() is None
    for character in "play":
        view.press(Press(Key.CHARACTER, character))
    assert view.cursor() == 4  # the cell after the last one typed
    for character in " ginormous unicorn":
        view.press(Press(Key.CHARACTER, character))
    assert view.cursor() == 13 and read(view).endswith("unicorn")  # the end of a long line, a cell to type in
    view.show(["Turn 2: Ben's turn."], fact("Turn 2: Ben's turn."))
    assert view.cursor() == 13 and read(view).endswith("unicorn")  # the typing stays, a held fact above it
    wide = BrailleView(40, status_cells=4)
    wide.input.follow("dr")
    assert wide.cursor() == 4 + 2


def test_quit_typed_on_the_display_ends_the_app_and_is_never_looked_up():
    view = BrailleView(40)
    for character in "Quit":
        view.press(Press(Key.CHARACTER, character))
    assert view.press(Press(Key.ENTER)) == Action(Act.QUIT, "Quit")
    for character in "quite nice":
        view.press(Press(Key.CHARACTER, character))
    assert view.press(Press(Key.ENTER)) == Action(Act.SUBMIT, "quite nice")


def test_typing_in_grade_2_is_contracted_as_it_grows():
    from assistant.braille.translate import Grade, Translator

    translator = Translator()
    if not translator.has_liblouis:
        pytest.skip("contracted braille needs liblouis")
    view = BrailleView(40, lambda text: translator.to_cells(text, Grade(2)) or "")
    for character in "play rainbow aura":
        view.press(Press(Key.CHARACTER, character))
    shown = view.render().rstrip(celltable.BLANK)
    assert shown == translator.to_cells("play rainbow aura", Grade(2))  # 15 cells, not 26 letter by letter
    assert len(shown) == 15 and view.cursor() == 15
    view.press(Press(Key.DOTS, 0b1))  # a cell typed on the dot keys stays as it is
    assert view.render().rstrip(celltable.BLANK).endswith(celltable.cell([1]))


# Other hands' moves (a phone's): they wait behind what is being read, counted, and are read in turn.

BURST = [
    ("Ben drew a card.",),
    ("Ben played Rainbow Aura.", "Neigh?"),
    ("Cy played Neigh.", "Neigh?"),
    ("Ben, from a phone: ended the turn. Turn 3: Cy's turn.",),
]


def test_other_hands_moves_wait_behind_what_is_being_read_and_never_replace_it():
    view = BrailleView(40, status_cells=4)
    view.show(["Ana has 3 Unicorns.", "Ana: Baby Unicorn Red, Rainbow Aura."])
    clock = 0.0
    for number, move in enumerate(BURST, start=1):  # a burst, a move every 0.4 s, no key pressed
        clock += 0.4
        assert view.show(move, waits=True) is False
        assert read(view) == "ana has 3 unicorns." and view.render()[3] == celltable.to_cells("abcd"[number - 1])
    view.press(Press(Key.PAN_RIGHT), at=clock)  # the player reads on: the answer's next line first
    assert read(view) == "ana: baby unicorn red, rainbow aura."
    seen = []
    for _ in BURST:
        view.press(Press(Key.PAN_RIGHT), at=clock)  # the end of the answer: the next move waiting, whole
        seen.append(read(view))
        while view.line + 1 < len(view.regions[Region.ANSWER]) or view.window + 1 < len(
            view.windows(view.lines[view.line])
        ):
            view.press(Press(Key.PAN_RIGHT))
    assert seen == [
        "ben drew a card.",
        "ben played rainbow aura.",
        "cy played neigh.",
        "ben, from a phone: ended the turn.",
    ]
    assert not view.waiting and view.render()[3] == celltable.BLANK
    view.press(Press(Key.PAN_RIGHT))  # nothing waits: panning goes on to the table, as before
    assert view.line == len(view.regions[Region.ANSWER])


def test_a_move_waiting_is_shown_whole_and_its_fact_never_held():
    view = BrailleView(40)
    view.show(["Ana drew a card."])
    view.show(BURST[3], fact("Cy's turn."), waits=True)
    assert not view.held  # its fact is not held over what is being read
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view) == "ben, from a phone: ended the turn. turn"
    view.press(Press(Key.PAN_RIGHT))
    assert read(view) == "3: cy's turn."


def test_the_next_unread_key_reads_the_next_move_from_anywhere_and_the_history_keeps_what_was_read():
    view = BrailleView(40, history_heading="History:")
    view.set_region(Region.TABLE, ["Pile: empty."])
    view.show(["Ana drew a card."])
    view.show(["Ben drew a card."], waits=True)
    view.show(["Cy drew a card."], waits=True)
    view.press(Press(Key.LINE_DOWN))
    assert read(view) == "pile: empty."  # reviewing: the moves still wait
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view) == "ben drew a card." and len(view.waiting) == 1
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view) == "cy drew a card." and not view.waiting
    assert view.press(Press(Key.NEXT_UNREAD)) == Action() and read(view) == "cy drew a card."
    view.press(Press(Key.BOTTOM))
    assert read(view) == "ana drew a card."  # the earliest answer, at the foot of the history
    view.press(Press(Key.REGION_PREVIOUS))
    assert read(view) == "history:"
    view.press(Press(Key.LINE_DOWN))
    assert read(view) == "ben drew a card."  # newest first


def test_the_players_own_answer_is_shown_at_once_and_the_moves_wait_behind_it():
    view = BrailleView(40, status_cells=4)
    view.show(["Ana drew a card."])
    view.show(["Ben drew a card."], waits=True)
    for character in "tally":  # typing: a move never hides the line being typed
        view.press(Press(Key.CHARACTER, character))
    view.show(["Cy drew a card."], waits=True)
    assert read(view) == "tally" and view.render()[3] == celltable.to_cells("b")
    assert view.press(Press(Key.ENTER)).text == "tally"
    view.show(["Ana: 0 Unicorns. Ben: 0 Unicorns."])  # the answer to her key, at once
    assert read(view) == "ana: 0 unicorns. ben: 0 unicorns."
    assert [move.lines[0] for move in view.waiting] == ["Ben drew a card.", "Cy drew a card."]


def test_a_move_with_nothing_on_the_display_is_shown_at_once():
    view = BrailleView(40)
    assert view.show(["Ben drew a card."], waits=True) is True
    assert read(view) == "ben drew a card."


@pytest.mark.parametrize(("waiting", "cell"), [(0, celltable.BLANK), (1, "⠁"), (9, "⠊"), (10, "⠿"), (40, "⠿")])
def test_the_last_status_cell_counts_the_moves_unread(waiting, cell):
    for width, status_cells in ((40, 4), (14, 1)):
        view = BrailleView(width, status_cells=status_cells)
        view.status = Status("Ben", "Action phase")
        view.show(["Ana drew a card."])
        for _ in range(waiting):
            view.show(["Ben drew a card."], waits=True)
        assert view.render()[status_cells - 1] == cell
        assert read(view).startswith("ana drew")  # the text where it was, whatever the count


def test_a_display_taken_back_at_another_size_is_drawn_at_that_size():
    view = BrailleView(40, status_cells=4)
    view.show([LONG])
    view.press(Press(Key.PAN_RIGHT))
    view.resize(20, 1)
    assert len(view.render()) == 20 and view.window == 0
    assert LONG.lower().startswith(read(view))


# A fact is read only once the display has shown it: BRLTTY answered after the frame it was in.


def test_a_held_fact_drawn_is_read_only_once_brltty_answered_after_it():
    view = BrailleView(40)
    view.show(["Ben wins!"], fact("Ben wins!"))
    drawn = view.render()  # written to a BRLTTY that has stopped: nothing says it was shown
    assert celltable.from_cells(drawn.rstrip(celltable.BLANK)) == "ben wins!"
    assert view.held.line_sent() == "" and view.held  # `tally` sent meanwhile: the win stays held
    view.answered(view.frames - 1)  # an answer to a round trip begun before the win was drawn
    assert view.held.line_sent() == "" and view.held
    view.render()
    view.answered(view.frames)
    assert view.held.line_sent() == "Ben wins!"


def test_a_display_back_shows_the_newest_win_first_then_the_rest_in_order():
    view = BrailleView(40, status_cells=4)
    view.show(["Ana wins!"], fact("Ana wins!", Held.WIN))  # (then taken back by an undo, and Ben won)
    view.show(["Turn 2: Ben's turn."], fact("Turn 2: Ben's turn."))
    view.show(["Ben wins!"], fact("Ben wins!", Held.WIN))
    view.show(["Record it anyway? Say yes or no."], fact("Record it anyway? Say yes or no."))
    view.render()  # drawn while BRLTTY was stopped: never read
    view.newest_first()
    assert read(view) == "ben wins!" and view.render()[2] == HELD_CELL  # the newest of the two wins
    assert view.held.line_sent() == "Ben wins!"
    assert read(view) == "ana wins!"  # then the rest in the order held, the older win first of them
    assert view.held.line_sent() == "Ana wins!"
    assert read(view) == "turn 2: ben's turn."
    assert view.held.line_sent() == "Turn 2: Ben's turn."
    assert read(view) == "record it anyway? say yes or no."
    without_win = BrailleView(40)
    without_win.show(["Turn 2: Ben's turn."], fact("Turn 2: Ben's turn."))
    without_win.show(["Turn 3: Cy's turn."], fact("Turn 3: Cy's turn."))
    without_win.newest_first()
    assert read(without_win) == "turn 3: cy's turn."


@pytest.mark.parametrize(("width", "status_cells"), [(40, 4), (14, 1)])
def test_a_display_back_shows_a_phones_win_that_came_meanwhile_first_and_its_move_still_waits(width, status_cells):
    view = BrailleView(width, status_cells=status_cells)
    view.show(["Turn 4: Dee's turn."], fact("Turn 4: Dee's turn."))
    view.render()  # drawn while BRLTTY was stopped: never read
    view.show(["Ana drew a card."], waits=True)
    won = ["Cy, from a phone: Ana wins with 3 Unicorns! The game is over."]
    view.show(won, fact("Ana wins!", Held.WIN), waits=True, points=["Ana wins!"])
    view.show(["Unicorns: Ana 3, Ben 1, Cy 1, Dee 1."])  # her tally, answered while BRLTTY was stopped
    view.newest_first()
    assert read(view) == "ana wins!"  # the newest decisive fact: the win
    assert view.held.line_sent() == "Ana wins!"
    assert read(view) and "turn 4: dee's turn.".startswith(read(view))  # the rest after it
    view.held.line_sent()
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view) and "ana wins! cy, from a phone: ana wins with 3".startswith(read(view))  # the move, whole


def test_the_notice_that_the_display_stopped_is_overtaken_when_it_is_back_waiting_or_drawn_unread():
    stopped = "The braille display stopped answering."
    view = BrailleView(40)
    view.show(["Unicorns: Ana 1, Ben 1."])
    view.show([stopped], waits=True, away=True)  # (behind the answer: it waits)
    view.show(["Ben drew a card."], waits=True, move=True)
    view.newest_first()
    view.show(["The braille display is back."], notice=True)
    assert [move.lines for move in view.waiting] == [("Ben drew a card.",)]
    alone = BrailleView(40)
    alone.show([stopped], waits=True, away=True)  # nothing shown: drawn on the stopped BRLTTY, never read
    alone.newest_first()
    alone.show(["The braille display is back."], notice=True)
    assert not alone.waiting and read(alone) == "the braille display is back."


@pytest.mark.parametrize(("width", "status_cells"), [(40, 4), (14, 1)])
def test_a_waiting_win_is_read_first_and_marked(width, status_cells):
    view = BrailleView(width, status_cells=status_cells)
    view.show(["Ana drew a card."])
    view.show(["Ben drew a card."], waits=True)
    won = ["Ben played Ginormous Unicorn.", "Ben wins! The game is over."]
    view.show(won, fact("Ben wins!", Held.WIN), waits=True, points=["Ben wins!"])
    view.show(["The game is over."], waits=True)
    if status_cells == 4:  # the mark, and the count
        assert view.render()[2] == HELD_CELL and view.render()[3] == celltable.to_cells("c")
    else:  # the mark in the count's cell: the one mark not to miss
        assert view.render()[0] == HELD_CELL
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view).startswith("ben wins!"[: width - status_cells].rstrip())
    assert HELD_CELL not in view.render()[:status_cells]
    view.press(Press(Key.NEXT_UNREAD))
    assert "ben drew a card.".startswith(read(view))


def test_a_phone_moves_first_window_says_its_point_the_attribution_after_it():
    from assistant.core.game.about import MoveKind, Topic
    from assistant.core.words.pace import move_point

    facts = (about(Topic.TURN, "Ben's turn.", 1, player="Ben"),)
    tells = (about(Topic.MOVE, "Ana's turn ended.", 0, player="Ana", move=MoveKind.END),)
    points = move_point("Ana", facts, tells)
    for width, status_cells, first in ((40, 4, "ana: ben's turn. ana, from a phone:"), (14, 1, "ben's turn.")):
        view = BrailleView(width, status_cells=status_cells)
        view.show(["Ana drew a card."])
        ended = ["Ana, from a phone: ended the turn. Turn 2: Ben's turn."]
        view.show(ended, fact("Ben's turn."), waits=True, points=points)
        view.press(Press(Key.NEXT_UNREAD))
        assert read(view) == first
        view.press(Press(Key.PAN_RIGHT))
        assert read(view).startswith("ana" if width == 14 else "ended the turn")


def test_a_move_with_nothing_decisive_has_no_point_added():
    from assistant.core.game.about import MoveKind, Topic
    from assistant.core.words.pace import move_point

    assert move_point("Ana", (), (about(Topic.MOVE, "Ana drew a card.", 0, player="Ana", move=MoveKind.DRAW),)) == ()
    stole = about(Topic.MOVE, "Ana stole Ben's Narwhal.", 0, player="Ana", move=MoveKind.STEAL, card="Narwhal", owner=1)
    assert move_point("Ana", (), (stole,)) == ("Ana stole Ben's Narwhal.",)
    assert move_point("Ana", (about(Topic.WIN, "Ana wins!", 0, player="Ana"),), (stole,)) == ("Ana wins!",)


def test_the_digest_of_what_other_hands_did_is_shown_first_never_a_fact_held_before_it():
    view = BrailleView(40, status_cells=4)
    view.show(["Ana's turn ended. Turn 2: Ben's turn."], fact("Ben's turn."))
    view.show(["Ben played Neigh. Cy's turn."])  # F8's digest
    assert view.digest_said(whole=True, win=False) == ("Ben's turn.",)
    assert read(view) == "ben played neigh. cy's turn." and view.render()[2] == celltable.BLANK


# A phone's move taken from the queue is read only once BRLTTY answered after a frame that showed it.


def test_a_move_the_pan_took_under_the_keyboards_line_still_waits_after_her_answer():
    """A pan pressed at the end of the answer reaches the app just after she began typing on the keyboard: the move
    it takes is under the line she types, never shown; her answer takes its place, and the move waits again."""
    view = BrailleView(14, status_cells=1)
    view.show(["Unicorns: Ana 1."])
    view.show(["Ana, from a phone: discarded a card."], waits=True)
    view.press(Press(Key.PAN_RIGHT))
    assert read(view) == "1."  # the end of the answer, read
    view.input.follow("d")  # she types `draw` on the keyboard
    view.press(Press(Key.PAN_RIGHT))  # pressed at the end of the answer, before the typing began
    view.input.follow("draw")
    assert read(view) == "draw"
    view.held.line_sent()
    view.input.follow("")
    view.show(["Dee drew Narwhal."])  # her answer, at once
    assert read(view) == "dee drew"
    assert view.render()[0] == celltable.to_cells("a")  # the move still waits, counted
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view) == "ana, from a"


def test_a_move_drawn_on_a_stopped_brltty_waits_again_when_her_answer_replaces_it():
    view = BrailleView(40, status_cells=4)
    view.show(["Unicorns: Ana 1."])
    view.show(["Ben drew a card."], waits=True)
    view.show(["Ben wins! The game is over."], fact("Ben wins!", Held.WIN), waits=True, points=["Ben wins!"])
    view.press(Press(Key.NEXT_UNREAD))
    view.render()  # written to a BRLTTY that has stopped: nothing says it was shown
    view.show(["Unicorns: Ana 1, Ben 3."])  # her `tally`, answered meanwhile
    assert [move.lines[0] for move in view.waiting] == ["Ben wins! Ben wins! The game is over.", "Ben drew a card."]
    view.press(Press(Key.NEXT_UNREAD))
    cells = view.render()
    view.answered(view.frames)  # shown: read
    assert celltable.from_cells(cells[4:].rstrip(celltable.BLANK)).startswith("ben wins!")
    view.show(["Unicorns: Ana 1, Ben 3."])
    assert [move.lines[0] for move in view.waiting] == ["Ben drew a card."]  # the one read is not shown again


def test_a_move_her_typing_covered_before_brltty_answered_waits_again_and_one_answered_while_shown_is_read():
    """The next-unread key reaches the app just before she types on the keyboard: the move is drawn, and her typing
    covers it before BRLTTY answers; the answer is for the frame with her typing, so the move was never read."""
    view = BrailleView(40, status_cells=4)
    view.show(["Unicorns: Ana 1."])
    view.show(["Ana, from a phone: discarded a card."], waits=True)
    view.press(Press(Key.NEXT_UNREAD))
    view.render()  # the move, written
    view.input.follow("d")
    view.render()  # her typing over it, written before BRLTTY answered
    view.answered(view.frames)
    view.input.follow("")
    view.show(["Dee drew Narwhal."])
    assert [move.lines[0] for move in view.waiting] == ["Ana, from a phone: discarded a card."]
    view.press(Press(Key.NEXT_UNREAD))
    assert read(view) == "ana, from a phone: discarded a card."  # BRLTTY answered while it showed it: read
    view.input.follow("draw")
    view.render()
    view.input.follow("")
    view.show(["Dee drew Narwhal."])
    assert not view.waiting


@pytest.mark.parametrize("status_cells", [1, 2, 3])
def test_on_a_small_display_the_count_cell_marks_an_open_question(status_cells):
    """At 14 cells (one status cell, the count) a question open, or a numbered choice, is marked in the count's cell
    (it used to be blank: nothing said a question waited); a win waiting unread still outranks it."""
    view = BrailleView(16, status_cells=status_cells)
    view.status = Status("Cy", "Action phase", question=True)
    view.show(["A new phone asks to join: Dee. Let it in?"])
    assert view.render()[status_cells - 1] == celltable.cell([2, 3, 6])
    view.status = Status("Cy", "Action phase", choice=True)
    assert view.render()[status_cells - 1] == celltable.cell([3, 4, 5, 6])
    view.show(
        ["Ben played Ginormous Unicorn.", "Ben wins!"], fact("Ben wins!", Held.WIN), waits=True, points=["Ben wins!"]
    )
    assert view.render()[status_cells - 1] == HELD_CELL


def test_the_next_unread_key_on_the_last_held_fact_acknowledges_it_and_shows_the_next_move():
    """Delete (the next-unread key) on a held fact with a phone's move waiting: one key acknowledges the fact and
    shows the move (it used to only acknowledge it, one extra key)."""
    view = BrailleView(40)
    view.show(["Ana's turn ended.", "Ben's turn."], fact("Ben's turn.", Held.TURN))
    view.show(["Ben, from a phone: drew a card."], waits=True)
    action = view.press(Press(Key.NEXT_UNREAD))
    assert action.acknowledged == "Ben's turn." and not view.held
    assert read(view) == "ben, from a phone: drew a card."
    assert not view.waiting


def test_a_digest_tells_the_moves_of_its_stretch_only_and_a_part_of_it_the_win_alone():
    """F8's digest (`digest_said`): whole, the moves since her own last move wait no longer, those before it and
    the notices still do; a part of it (more to come) that said the win takes the win's move alone."""
    view = BrailleView(40)
    view.show(["Tally: Ana 1."])
    view.show(["Ana drew a card."], waits=True, move=True)  # before her own move: not in the next digest
    view.show(["Ana: Ben's turn."], fact("Ben's turn."))  # her own move
    view.waiting.new_news()
    view.show(["Ben drew a card."], waits=True, move=True)
    view.show(["The camera is unplugged."], waits=True)  # a notice: no digest tells it
    view.show(["Since your last move: Ben drew a card."])
    view.digest_said(whole=True, win=False)
    assert [move.lines[0] for move in view.waiting] == ["Ana drew a card.", "The camera is unplugged."]
    view.show(["Cy drew a card."], waits=True, move=True)
    view.show(["Ben wins!"], fact("Ben wins!", Held.WIN), waits=True, move=True, points=["Ben wins!"])
    view.show(["Since your last move: Ben wins!", "More: say missed again."])
    view.digest_said(whole=False, win=True)
    assert [move.lines[0] for move in view.waiting] == [
        "Ana drew a card.",
        "The camera is unplugged.",
        "Cy drew a card.",
    ]


def test_a_held_win_drops_every_held_turn_of_the_game_it_ended():
    """A held win kept the held turn of the game it ended as the very next window (11 of 11): once the win was read,
    "Turn 9: Cy's turn." of a game over came next. Held when the win comes, or begun by a move that waited while the
    display was away, no turn of that game is held after it."""
    view = BrailleView(40, status_cells=4)
    view.show(["Turn 9: Cy's turn."], fact("Turn 9: Cy's turn.", Held.TURN, "turn", 9))
    view.show(["Record it anyway? Say yes or no."], fact("Record it anyway? Say yes or no."))
    view.show(["Cy wins!"], fact("Cy wins!", Held.WIN))
    assert [line.held for line in view.held] == [Held.OTHER, Held.WIN]
    assert view.press(Press(Key.BOTTOM)).act is Act.ACKNOWLEDGED  # the question read
    assert read(view) == "cy wins!" and view.held.line_sent() == "Cy wins!"
    assert not view.held

    away = BrailleView(40, status_cells=4)
    away.show(["Turn 9: Cy's turn."], fact("Turn 9: Cy's turn.", Held.TURN, "turn", 9))
    away.show(["Ben ended the turn."], waits=True, turn=fact("Turn 10: Cy's turn.", Held.TURN, "turn", 10))
    away.show(["Cy wins!"], fact("Cy wins!", Held.WIN))
    away.render()  # drawn while BRLTTY was stopped: never read
    away.newest_first()
    assert [line.text for line in away.held] == ["Cy wins!"]
