"""A whole 3-player game in the Textual app, played as a blind player plays it: typed and scanned cards, a Neigh
battle answered with one key, a question, undo and a win. After each reply: the game, the transcript of what was
said, and the terminal cursor on the answer."""

from __future__ import annotations

import asyncio

from assistant.core.scanning.payloads import label_payload
from assistant.core.text import clean_untrusted
from assistant.core.words.screen import stable_lines, status_line
from assistant.scanner.live import CodeAnnounced
from assistant.speech import SpeechService
from assistant.speech.replies import ReplySpeaker
from assistant.speech.transcript import Transcript
from assistant.ui.messages import ScannerEvent
from benchmarks.speech import read_transcript
from tests.recording_backend import RecordingBackend
from tests.ui.on_screen import cursor_on_answer, text

#: The game, step by step: what the player does (a line typed, a key, or "scan" and a card), and what must hold.
SCAN = "scan:"
GAME = [
    "new game Ana Ben Cy babies red pink narwhal win 4",
    "draw",
    "play basic blue",  # a typed card
    "0",  # nobody Neighs
    "end turn",
    "draw",
    "draw",
    "end turn",
    "draw",
    "draw",
    "end turn",
    "draw",
    SCAN + "ginormous-unicorn",  # the camera reads the card: it becomes the subject of "play"
    "play",
    "2",  # Ben Neighs
    "3",  # Cy Neighs Ben's Neigh
    "stable Ana",  # a question while the battle waits
    "0",  # Cy's Neigh resolves and stops Ben's
    "0",  # the Ginormous Unicorn enters: Ana wins
    "undo",
    "0",
]


#: The app's answers to `GAME`, one tuple of lines each, for the plain mode's replay to compare with.
ANSWERS: list[tuple[str, ...]] = []
#: The ordinary line each one-key answer and the scan stand for.
AS_TYPED = {"0": "resolve", "2": "neigh Ben", "3": "neigh Cy", SCAN + "ginormous-unicorn": "ginormous unicorn"}


def test_a_three_player_game_end_to_end_in_the_app(make_app, tmp_path):
    tmp_path.mkdir(parents=True, exist_ok=True)  # (a folder of its own when the plain-mode test runs it)
    path = tmp_path / "said.txt"
    service = SpeechService(RecordingBackend(), transcript=Transcript(path))
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service))
    checked: list[str] = []
    answers: list[tuple[str, ...]] = []

    def said() -> list[str]:
        return [line for _, kind, line in read_transcript(path) if kind.startswith(("message", "important"))]

    async def step(pilot, action: str) -> None:
        before = app.session.said[-1] if app.session.said else None
        if action.startswith(SCAN):  # as the camera worker posts it
            app.post_message(ScannerEvent(CodeAnnounced(label_payload("uu-2nd", action[len(SCAN) :]), 1)))
        elif len(action) == 1:
            await pilot.press(action)  # a one-key answer: the input line is empty
        else:
            await pilot.press(*action, "enter")
        await pilot.pause()
        assert service.wait_idle(5)
        assert app.session.said and app.session.said[-1] is not before, f"{action}: a new answer"
        reply = app.session.said[-1]
        assert text(app, "answer") == "\n".join(reply.lines), action
        assert cursor_on_answer(app), action
        assert said()[-1] == clean_untrusted(reply.speech, 5000), action
        assert app.query_one("#prompt").value == "", action
        game = app.session.game  # the screen says where the game stands, after every step
        assert text(app, "status").splitlines()[0] == status_line(game.table, game.state), action
        assert text(app, "stables").splitlines()[1:] == stable_lines(game.table, game.state)[1:], action
        checked.append(action)
        answers.append(reply.lines)

    async def scenario():
        async with app.run_test(size=(100, 50)) as pilot:
            for action in GAME[:5]:
                await step(pilot, action)
            game = app.session.game
            assert [p.stable for p in game.state.players] == [
                ("baby-unicorn-red", "basic-unicorn-blue"), ("baby-unicorn-pink",), ("baby-narwhal",)
            ]  # fmt: skip
            assert text(app, "status").startswith("Turn 2, Ben's")
            assert "Ana's Stable: Baby Unicorn (Red) and Basic Unicorn (Blue). 2 Unicorns." in text(app, "stables")
            for action in GAME[5:15]:
                await step(pilot, action)
            assert [c.card for c in game.state.pile] == ["ginormous-unicorn", "neigh"]
            assert "Pile, top first: Ben's Neigh and Ana's Ginormous Unicorn." in text(app, "table")
            await step(pilot, GAME[15])
            assert [(c.card, c.player) for c in game.state.pile][-1] == ("neigh", 2)
            await step(pilot, GAME[16])
            assert text(app, "answer") == "Ana's Stable: Baby Unicorn (Red) and Basic Unicorn (Blue). 2 Unicorns."
            await step(pilot, GAME[17])
            assert [c.card for c in game.state.pile] == ["ginormous-unicorn"]
            await step(pilot, GAME[18])
            assert game.state.outcome is not None and game.state.outcome.winner == 0
            assert text(app, "status") == "Ana wins with 4 Unicorns! The game is over."
            assert "Ana's Stable: Baby Unicorn (Red), Basic Unicorn (Blue) and Ginormous Unicorn. 4 Unicorns." in text(
                app, "stables"
            )
            history = text(app, "history-text")
            assert "Ana's Stable: Baby Unicorn (Red) and Basic Unicorn (Blue). 2 Unicorns." in history
            await step(pilot, GAME[19])
            assert game.state.outcome is None and [c.card for c in game.state.pile] == ["ginormous-unicorn"]
            assert text(app, "status").startswith("Turn 4, Ana's Action phase. Any Neigh for Ana's Ginormous")
            await step(pilot, GAME[20])
            assert game.state.outcome is not None and game.state.outcome.winner == 0

    try:
        asyncio.run(scenario())
    finally:
        service.close()
    assert checked == GAME
    ANSWERS[:] = answers
    events = [e.__class__.__name__ for e in app.session.game.log]
    assert events.count("Respond") == 2 and events[-1] == "Resolve"


def test_plain_mode_replays_the_same_game_and_prints_the_same_sentences(cli, tmp_path, make_app):
    if not ANSWERS:  # run alone: play the app's game first
        test_a_three_player_game_end_to_end_in_the_app(make_app, tmp_path / "app")
    script = tmp_path / "game.txt"
    script.write_text("\n".join(AS_TYPED.get(action, action) for action in GAME) + "\n", encoding="utf-8")
    result = cli("--script", str(script), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    blocks: list[list[str]] = []
    for line in result.stdout.splitlines():
        if line.startswith("> "):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    assert len(ANSWERS) == len(GAME) and [tuple(block) for block in blocks] == ANSWERS
