"""At table pace, in the Textual app with Pilot: a decisive fact (the win) is still heard when keys keep coming
(folded into the next key's reply) and stays held on the status line; a one-key answer that cannot act says why
and types nothing; y and n answer a question as one key; a stray digit typed before a command is left out, with a
word about it."""

from __future__ import annotations

import asyncio

from fake_speaker import Heard

from assistant.core.words.gameplay import END_TAKEN_BACK
from assistant.core.words.screen import QUESTION_WAITING_KEY, held_fact, no_card_for_key
from assistant.speech import SpeechService
from assistant.speech.replies import ReplySpeaker
from tests.core.talking import asks
from tests.recording_backend import RecordingBackend
from tests.ui.on_screen import cursor_on_answer, text

WIN = "Ana wins with 2 Unicorns!"


def typed(app) -> str:
    return app.query_one("#prompt").value


def run(scenario) -> None:
    asyncio.run(scenario())


def test_a_win_reached_while_keys_keep_coming_is_still_said_and_held(make_app):
    backend = RecordingBackend()
    service = SpeechService(backend)
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service))

    async def scenario():
        async with app.run_test() as pilot:
            for line in ("new game Ana Ben babies red pink win 2", "draw", "play basic blue"):
                await pilot.press(*line, "enter")
                await pilot.pause()
                assert service.wait_idle(5)
            backend.hold = True  # from now on each utterance is "being said" until released or cut off
            started = len(backend.started)
            await pilot.press("0")  # nobody Neighs: the Basic Unicorn enters and Ana wins
            await pilot.pause()
            assert backend.wait_started(started + 1)  # the win's reply is being said
            assert backend.started[-1].startswith(WIN)
            await pilot.press("1")  # the next key cuts it: the win leads that key's own reply
            await pilot.pause()
            assert backend.wait_started(started + 2)
            backend.release(1)  # that reply is heard
            assert service.wait_idle(5)
            for key in ("0", "2"):  # keys keep coming
                await pilot.press(key)
                await pilot.pause()
            backend.release(20)
            assert service.wait_idle(5)
            assert WIN in text(app, "status")  # held until the next decisive fact (the end: for good)
            assert typed(app) == ""

    run(scenario)
    service.close()
    # The next key cuts the win's reply at once (its own reply first), and the win is folded into that reply, said
    # first in its short form ("Ana wins! No card waits ..."): heard in full, and not a third time.
    won = [r for r in backend.records if r.text.startswith(WIN) or r.text.startswith("Ana wins! ")]
    assert [r.kind for r in won] == ["cut", "said"]
    assert won[0].text.startswith(WIN) and won[1].text.startswith("Ana wins! ")
    assert len([said for said in backend.started if WIN in said or "Ana wins! " in said]) == 2


def test_a_cut_turn_is_folded_into_the_next_reply_in_its_short_form_and_an_undone_win_not_at_all(make_app):
    backend = RecordingBackend()
    service = SpeechService(backend)
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service))

    async def enter(pilot, line: str) -> None:
        await pilot.press(*line, *(["enter"] if len(line) > 1 else []))
        await pilot.pause()

    async def cut(pilot, line: str, key: str) -> None:
        """`line`, then `key` while its reply is being said."""
        backend.hold_again()
        started = len(backend.started)
        await enter(pilot, line)
        assert backend.wait_started(started + 1)
        await enter(pilot, key)
        backend.release(20)
        backend.hold = False
        assert service.wait_idle(5)

    async def scenario():
        async with app.run_test() as pilot:
            for line in ("new game Ana Ben babies red pink win 2", "draw"):
                await enter(pilot, line)
                assert service.wait_idle(5)
            await cut(pilot, "end turn", "tally")  # a question of the player's own, not a move that says the turn
            await enter(pilot, "draw")
            assert service.wait_idle(5)
            await enter(pilot, "play basic blue")
            assert service.wait_idle(5)
            await cut(pilot, "0", "undo")  # 0 resolves: Ben wins, and the undo takes it back at once
            assert END_TAKEN_BACK in text(app, "status")  # the win is no longer held

    run(scenario)
    service.close()
    said = backend.started
    folded = [s for s in said if s.startswith("Ben's turn. Unicorns:")]
    assert len(folded) == 1, said  # the cut turn, short, leads the next key's own reply: "Ben's turn. Unicorns: ..."
    assert not any(s == "Ben's turn." for s in said)  # not replayed on its own before it
    won = [s for s in said if "Ben wins with 2 Unicorns!" in s]
    assert len(won) == 1, said  # cut by the undo, and not said again: no win now


def test_a_digit_with_no_card_on_the_pile_is_explained_and_not_typed(make_app):
    heard = []
    app = make_app(Heard(heard.append))

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"new game Ana Ben babies red pink", "enter", *"draw", "enter")
            await pilot.pause()
            await pilot.press("0", "0")  # the double 0: nothing typed, nothing recorded
            await pilot.pause()
            assert typed(app) == ""
            assert heard[-1].speech == no_card_for_key("0") and heard[-2].speech == no_card_for_key("0")
            await pilot.press(*"end turn", "enter")
            await pilot.pause()
            assert app.session.game.state.current == 1  # the turn ended: no "0end turn"

    run(scenario)


def test_a_digit_while_a_question_waits_is_explained_and_y_answers_it_as_one_key(make_app):
    heard = []
    app = make_app(Heard(heard.append))

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"new game Ana Ben babies red pink", "enter", *"draw", "enter")
            await pilot.press(*"Ben play basic blue", "enter")  # not Ben's turn: a warning asks
            await pilot.pause()
            question = heard[-1]
            assert asks(question) and question.decisive
            assert held_fact(question.decisive) in text(app, "status")
            for key in "5220":
                await pilot.press(key)
            await pilot.pause()
            assert typed(app) == "" and [r.speech for r in heard[-4:]] == [QUESTION_WAITING_KEY] * 4
            assert app.session.pending is not None  # still asked
            await pilot.press("y")  # one key, no Enter
            await pilot.pause()
            assert typed(app) == "" and app.session.pending is None
            assert app.session.game.state.pile  # recorded: Ben's card is on the pile
            assert held_fact(question.decisive) not in text(app, "status")  # answered: no longer held

    run(scenario)


def test_n_declines_a_question_as_one_key(make_app):
    heard = []
    app = make_app(Heard(heard.append))

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"new game Ana Ben babies red pink", "enter", *"draw", "enter")
            await pilot.press(*"Ben play basic blue", "enter")
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert typed(app) == "" and app.session.pending is None and not app.session.game.state.pile

    run(scenario)


def test_f3_moves_the_cursor_onto_the_text_it_speaks(make_app):
    backend = RecordingBackend()
    service = SpeechService(backend)
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service))

    async def scenario():
        async with app.run_test(size=(100, 50)) as pilot:
            await pilot.press(*"new game Ana Ben babies red pink", "enter", *"draw", "enter")
            await pilot.press(*"end turn", "enter")
            await pilot.pause()
            assert service.wait_idle(5)
            await pilot.press("f3")  # one step back: the answer to "draw"
            await pilot.pause()
            assert service.wait_idle(5)
            said = backend.said[-1]
            assert said.startswith("Ana drew a card.")
            assert text(app, "answer") == said and cursor_on_answer(app)  # under the cursor, not the status line
            assert said not in text(app, "status")
            await pilot.press("f2")  # repeat: the last answer, under the cursor
            await pilot.pause()
            assert service.wait_idle(5)
            assert backend.said[-1] == "Turn 2: Ben's turn." == text(app, "answer") and cursor_on_answer(app)

    run(scenario)
    service.close()


def test_a_long_answer_is_read_line_by_line_with_page_down(make_app):
    echoed = []
    app = make_app(Heard(echo=echoed.append))

    async def scenario():
        async with app.run_test(size=(100, 50)) as pilot:
            await pilot.press(*"help commands all", "enter")
            await pilot.pause()
            lines = app.replies[-1].lines
            assert len(lines) > 20
            for _ in range(3):
                await pilot.press("pagedown")
            await pilot.pause()
            assert echoed[-1] == lines[3]
            assert text(app, "answer").splitlines()[0] == lines[3] and cursor_on_answer(app)  # the line under it
            await pilot.press("pageup")
            await pilot.pause()
            assert echoed[-1] == lines[2] and text(app, "answer").splitlines()[0] == lines[2]

    run(scenario)


def test_f1_gives_the_short_help(make_app):
    heard = []
    app = make_app(Heard(heard.append))

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press("f1")
            await pilot.pause()
            assert heard[-1].lines[0] == "Help: F1 or help. Control Q quits."
            assert len(heard[-1].speech.split()) <= 75 and typed(app) == ""
            assert "instants" in heard[-1].lines[-1]  # every topic, the game's Instants too

    run(scenario)
