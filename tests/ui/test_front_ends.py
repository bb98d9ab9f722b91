"""The app and the plain mode are one program: a line means the same in both (the session decides, contracted
braille included), and the app under test is built by the command's own factory, saving games and learning cards
as the app players open does."""

from __future__ import annotations

import asyncio

import pytest
from fake_speaker import Heard

from assistant.braille.translate import Translator
from assistant.commands.app import table_session
from assistant.scanner.live import CodeAnnounced
from assistant.storage.decks import load_card_set
from assistant.ui.messages import ScannerEvent

#: Lines typed in braille cells, and the same line in letters when it is a command.
BRAILLE_LINES = [
    ("new game Ana Ben", "new game Ana Ben"),
    ("⠙⠗⠁⠺", "draw"),  # uncontracted
    ("⠢⠙⠀⠞⠥⠗⠝", "end turn"),  # contracted: the sign of "en", and a blank cell between the words
    ("⠙⠊⠎⠉⠜⠙ ⠽⠁⠽", "discard yay"),  # contracted: the sign of "ar", and a space between the words
    ("⠗⠁⠔⠃⠪", None),  # rainbow, contracted: a card's name, looked up as a card
]


def text(app, widget_id: str) -> str:
    return str(app.query_one(f"#{widget_id}").render())


def cursor_on_answer(app) -> bool:
    region = app.query_one("#answer").content_region
    return (app.cursor_position.x, app.cursor_position.y) == (region.x, region.y)


def app_answers(make_app, lines: list[str]) -> list[str]:
    """The app's answer to each line, typed on its input line (braille cells as a braille keyboard sends them)."""
    answers: list[str] = []

    async def scenario():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            for line in lines:
                app.query_one("#prompt").value = line
                await pilot.press("enter")
                await pilot.pause()
                answers.append(text(app, "answer"))

    asyncio.run(scenario())
    return answers


def plain_answers(cli, home, lines: list[str]) -> list[str]:
    """The plain mode's answer to each line, replayed from a script through its real loop in a new process."""
    script = home / "lines.txt"
    home.mkdir(parents=True)
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("--script", str(script), "--no-speech", home=home)
    assert result.returncode == 0, result.stderr
    blocks: list[list[str]] = []
    for line in result.stdout.splitlines():
        if line.startswith("> "):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    return ["\n".join(block) for block in blocks]


@pytest.mark.skipif(not Translator().has_liblouis, reason="contracted braille needs liblouis")
def test_commands_typed_in_contracted_braille_get_the_same_reply_in_the_app_and_in_plain_mode(cli, make_app, tmp_path):
    lines = [cells for cells, _ in BRAILLE_LINES]
    in_app = app_answers(make_app, lines)
    in_plain = plain_answers(cli, tmp_path / "plain", lines)
    assert in_app == in_plain
    session = table_session(load_card_set())  # the same commands, typed in letters
    for (cells, letters), answer in zip(BRAILLE_LINES, in_app):
        if letters is not None:
            assert answer == "\n".join(session.handle(letters).lines), cells
    assert in_app[2] == "Turn 2: Ben's turn." and in_app[3] == "Ben discarded Yay."
    assert "Rainbow Aura" in in_app[4] and "Type a number" in in_app[4]  # candidates, as for any look-up


def test_a_game_started_in_the_app_is_saved_and_offered_by_the_next_app(make_app):
    async def start():
        app = make_app(None)
        assert app.session.store is not None
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben Cy", "enter")
            await pilot.press(*"draw", "enter")
            await pilot.pause()
            assert app.session.game is not None

    async def come_back():
        app = make_app(None)  # as `table-assistant` opens next time: the saved game is offered with the heading
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert app.session.game is None
            assert "Ana, Ben and Cy" in text(app, "answer") and "Say yes to continue it" in app.heading
            assert cursor_on_answer(app)
            await pilot.press(*"yes", "enter")
            await pilot.pause()
            assert app.session.game is not None and app.session.game.setup.players == ("Ana", "Ben", "Cy")
            assert text(app, "status").startswith("Turn 1, Ana's Action phase")
            assert cursor_on_answer(app)

    async def resume():
        app = make_app(None, "--resume")  # `table-assistant --resume`: continued at once
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert app.session.game is not None and text(app, "status").startswith("Turn 1, Ana's Action phase")

    asyncio.run(start())
    asyncio.run(come_back())
    asyncio.run(resume())


def test_the_app_learns_a_card_its_deck_lacks(make_app):
    """The app's session can learn: a full card text read by the camera is offered, yes adds it to the owner's
    deck in the data directory, and the card is then looked up like any other."""
    from assistant.storage.paths import imported_decks_dir

    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append), "--deck", "llamas")
        async with app.run_test(size=(100, 40)) as pilot:
            app.post_message(ScannerEvent(CodeAnnounced("Wool Gathering: Magic card. Draw two cards.", frame=1)))
            await pilot.pause()
            assert text(app, "answer").startswith("A card this deck does not have: Wool Gathering, Magic card.")
            await pilot.press(*"yes", "enter")
            await pilot.pause()
            assert "Wool Gathering is now in your deck, as a Magic card." in text(app, "answer")
            await pilot.press(*"wool gathering", "enter")
            await pilot.pause()
            assert spoken[-1].card is not None and spoken[-1].card.text == "Draw two cards."

    asyncio.run(scenario())
    assert "Wool Gathering" in (imported_decks_dir() / "llamas-learned.toml").read_text()
