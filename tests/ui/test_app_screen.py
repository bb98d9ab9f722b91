"""The table screen: its regions from the game, the cursor on the newest answer, keys that move it."""

import asyncio

from fake_speaker import Heard
from textual import events

from assistant.core.words.screen import (
    HISTORY_HEADING,
    NO_GAME_STATUS,
    NO_GAME_TABLE,
    ONE_KEY_COACHING,
    PILE_HEADING,
    QUIT_HINT,
    SCREEN_KEYS,
    no_card_for_key,
    no_player_number,
    region_echo,
)
from assistant.core.words.voice import NO_SPEECH_KEYS, verbosity_set
from tests.ui.on_screen import cursor_on_answer, text


def test_the_screen_shows_status_pile_stables_and_keeps_the_cursor_on_the_answer(make_app):
    async def scenario():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert text(app, "status") == NO_GAME_STATUS
            assert cursor_on_answer(app)
            await pilot.press(*"new game Ana Ben Cy babies red pink narwhal", "enter")
            await pilot.pause()
            assert text(app, "answer").startswith("New game: Ana, Ben and Cy")
            assert text(app, "status").startswith("Turn 1, Ana's")
            stables = text(app, "stables").splitlines()
            assert stables[0] == "Stables, 7 Unicorns to win:"
            assert stables[1].startswith("Ana's Stable: Baby Unicorn (Red). 1 Unicorn.")
            assert cursor_on_answer(app)
            await pilot.press(*"draw", "enter")
            await pilot.press(*"play ginormous unicorn", "enter")
            await pilot.pause()
            assert "Pile, top first: Ana's Ginormous Unicorn." in text(app, "table")
            assert "Any Neigh for" in text(app, "status")
            assert text(app, "history-text").splitlines()[0] == HISTORY_HEADING
            assert cursor_on_answer(app)
            await pilot.press("up")
            await pilot.pause()
            prompt = app.query_one("#prompt")
            assert app.cursor_position.y == prompt.region.y
            await pilot.press("down", "down")
            await pilot.pause()
            assert app.cursor_position.y == app.query_one("#table").content_region.y

    asyncio.run(scenario())


def test_the_status_line_names_the_six_key_braille_mode(make_app):
    async def scenario():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("ctrl+b")
            await pilot.pause()
            assert text(app, "status") == f"{NO_GAME_STATUS} Six-key braille: chord."
            await pilot.press("ctrl+b")
            await pilot.pause()
            assert text(app, "status") == f"{NO_GAME_STATUS} Six-key braille: dots then Space."
            await pilot.press("ctrl+b")
            await pilot.pause()
            assert text(app, "status") == NO_GAME_STATUS

    asyncio.run(scenario())


def test_control_c_says_how_to_quit_on_the_status_line_without_a_dialog(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test() as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert text(app, "status").endswith(QUIT_HINT)

    asyncio.run(scenario())
    assert spoken[-1].speech == QUIT_HINT


def test_one_key_answers_send_the_ordinary_lines_only_while_a_card_waits(make_app):
    async def scenario():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            for line in ("new game Ana Ben Cy babies red pink narwhal win 3", "draw", "play ginormous unicorn"):
                await pilot.press(*line, "enter")
            await pilot.pause()
            game = app.session.game
            await pilot.press("2")  # Ben Neighs
            await pilot.pause()
            assert [c.card for c in game.state.pile][-1] == "neigh" and app.query_one("#prompt").value == ""
            assert "Ben" in text(app, "answer") and cursor_on_answer(app)
            await pilot.press("7")  # no seventh player: said, nothing recorded, nothing typed
            await pilot.pause()
            assert text(app, "answer") == no_player_number(7, 3) and len(game.state.pile) == 2
            await pilot.press("s", "3")  # Cy: a Super Neigh, in two keys
            await pilot.pause()
            assert [c.card for c in game.state.pile][-1] == "super-neigh"
            assert app.query_one("#prompt").value == ""
            assert text(app, "answer").startswith("Cy played Super Neigh.") and cursor_on_answer(app)
            for _ in range(2):  # 0 resolves the pile, top first: the Super Neigh stops Ben's Neigh, then the Unicorn
                await pilot.press("0")
                await pilot.pause()
            assert not game.state.pile and app.query_one("#prompt").value == ""
            assert game.state.players[0].stable == ("baby-unicorn-red", "ginormous-unicorn")
            assert text(app, "status").startswith("Ana wins with 3 Unicorns")
            await pilot.press("0")  # no card waits: said why, and the digit is not typed (it would make "0end turn")
            await pilot.pause()
            assert app.query_one("#prompt").value == "" and text(app, "answer") == no_card_for_key("0")

    asyncio.run(scenario())


def test_escape_then_a_key_is_escape_then_that_key_never_alt():
    from assistant.ui.keyparser import EscapeAloneParser

    parser = EscapeAloneParser()
    assert [k.key for k in parser.feed("\x1b1")] == ["escape", "1"]
    assert [k.key for k in parser.feed("\x1bf")] == ["escape", "f"]
    assert [k.key for k in parser.feed("\x1b[A")] == ["up"]
    assert [k.key for k in parser.feed("\x1bOQ")] == ["f2"]


def test_the_app_reads_the_terminal_with_that_parser(make_app):
    import sys

    from assistant.ui.posix_driver import EscapeAloneDriver

    if sys.platform.startswith("linux"):
        assert make_app(None).get_driver_class() is EscapeAloneDriver


def test_keys_that_come_together_leave_the_cursor_on_the_answer_once_the_status_line_shrinks(make_app):
    """Escape and 0 sent at once, as a terminal delivers them: the 0 answers the question held on the status line,
    which shrinks, and the answer moves up. The cursor moves with it (it was left where the answer had been, and a
    braille display that follows it on the wrong line until the next reply)."""

    async def scenario():
        app = make_app(Heard())
        async with app.run_test(size=(100, 30)) as pilot:
            for line in ("new game Ana Ben Cy babies red pink narwhal", "draw", "play basic blue"):
                await pilot.press(*line, "enter")
            await pilot.pause()
            assert cursor_on_answer(app)
            for key, character in (("escape", "\x1b"), ("0", "0")):  # posted as the terminal driver posts keys
                app.post_message(events.Key(key, character))
            for _ in range(5):
                await pilot.pause()
            assert app.replies[-1].speech == "Ana has 2 Unicorns."  # 0: no Neigh, the Unicorn resolved
            assert cursor_on_answer(app), (app.cursor_position, app.query_one("#answer").content_region)

    asyncio.run(scenario())


def test_typed_stop_and_repeat_keep_the_answer_and_f7_is_read_under_the_cursor(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"yay", "enter")
            await pilot.pause()
            shown = text(app, "answer")
            assert shown.startswith("Yay")
            await pilot.press(*"stop", "enter")
            await pilot.pause()
            assert text(app, "answer") == shown and cursor_on_answer(app)
            assert text(app, "status").endswith(NO_SPEECH_KEYS)
            await pilot.press(*"repeat", "enter")
            await pilot.pause()
            assert text(app, "answer") == shown and spoken[-1].speech.startswith("Yay")
            await pilot.press("f7")
            await pilot.pause()
            assert app.session.verbosity.value == "coaching"
            assert text(app, "answer") == verbosity_set("coaching") and cursor_on_answer(app)  # what is said
            await pilot.press("pageup")  # the answer is still there, from its first line
            await pilot.pause()
            assert text(app, "answer") == shown and cursor_on_answer(app)

    asyncio.run(scenario())


def test_help_in_the_app_names_its_keys_and_the_arrows_say_each_region(make_app):
    echoed = []
    speak = Heard(echo=echoed.append)

    async def scenario():
        app = make_app(speak)
        async with app.run_test(size=(100, 60)) as pilot:
            await pilot.press(*"help commands all", "enter")
            await pilot.pause()
            shown = text(app, "answer").splitlines()
            assert shown[-len(SCREEN_KEYS) :] == list(SCREEN_KEYS)
            assert cursor_on_answer(app)
            await pilot.press("down")
            await pilot.pause()
            assert echoed[-1] == region_echo("Pile and chain", [PILE_HEADING, NO_GAME_TABLE])
            assert echoed[-1] == f"Pile and chain: {NO_GAME_TABLE}"  # the heading once, then what it holds
            await pilot.press("up", "up", "up")
            await pilot.pause()
            assert echoed[-1] == region_echo("Status line", [NO_GAME_STATUS]) == f"Status line: {NO_GAME_STATUS}"
            assert app.cursor_position.y == app.query_one("#status").content_region.y

    asyncio.run(scenario())


def test_coaching_says_the_one_key_answers_with_each_neigh_question(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test(size=(100, 40)) as pilot:
            for line in ("verbosity coaching", "new game Ana Ben", "draw", "play basic blue"):
                await pilot.press(*line, "enter")
            await pilot.pause()
            assert spoken[-1].speech.endswith(ONE_KEY_COACHING)
            assert text(app, "answer").splitlines()[-1] == ONE_KEY_COACHING
            await pilot.press("0")
            await pilot.pause()
            assert ONE_KEY_COACHING not in spoken[-1].speech

    asyncio.run(scenario())


def test_a_llamas_game_heads_its_fields_once_in_its_words(make_app):
    echoed = []
    speak = Heard(echo=echoed.append)

    async def scenario():
        # the app on the default deck: the game chooses Llamas Unleashed on its own line
        app = make_app(speak)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben Cy deck llamas", "enter")
            await pilot.pause()
            stables = text(app, "stables").splitlines()
            assert stables[0] == "Fields, 7 Animals to win:"
            assert stables[1].startswith("Ana's Field:")
            await pilot.press("down", "down")
            await pilot.pause()
            assert echoed[-1].startswith("Fields, 7 Animals to win: Ana's Field:")  # the heading once, then the Fields
            assert echoed[-1].count("Fields") == 1
            await pilot.press(*"m ginrammy", "enter")
            await pilot.pause()
            assert text(app, "answer").startswith("Gin Rammy")

    asyncio.run(scenario())


def test_a_reply_lays_the_screen_out_once_and_a_typed_key_not_at_all(make_app):
    """The loop's work on the player's path: a reply lays the screen out once (not again because its regions
    changed size) and redraws only what changed, never the whole screen to move the cursor; a key typed redraws
    the input line and lays nothing out. Each layout pass and each whole-screen frame is a turn of the loop a key,
    a reply or the camera's messages wait behind."""

    async def scenario():
        app = make_app(Heard())
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            passes, whole = [], []
            lay_out, render_whole = screen._refresh_layout, screen._compositor.render_full_update
            screen._refresh_layout = lambda *a, **k: (passes.append(1), lay_out(*a, **k))[1]
            screen._compositor.render_full_update = lambda *a, **k: (whole.append(1), render_whole(*a, **k))[1]
            await pilot.press(*"draw")
            await pilot.pause()
            assert (passes, whole) == ([], []), "a typed key laid the screen out or redrew all of it"
            for line in ("rainbow aura", "new game Ana Ben Cy babies red pink narwhal", "draw", "play basic blue"):
                prompt = app.query_one("#prompt")
                prompt.value = line  # the line arrives at once, as a terminal delivers a paste
                passes.clear()
                await pilot.press("enter")
                for _ in range(3):
                    await pilot.pause()
                assert app.replies[-1].lines and len(passes) == 1, (line, len(passes))  # each answer a new height
                assert whole == [], line
                assert cursor_on_answer(app), line

    asyncio.run(scenario())


def drawn(app) -> str:
    """The screen as the compositor draws it now (no layout done for it)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def test_a_reply_as_tall_as_the_last_is_drawn_without_laying_the_screen_out(make_app):
    """A reply changes the answer and the history, seldom a region's height: text as tall as its region's is drawn
    where it is, and regions whose text did not change are not touched. The screen shows the new answer."""

    async def scenario():
        app = make_app(Heard())
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*"basic unicorn red", "enter")
            await pilot.pause()
            screen = app.screen
            passes, touched = [], []
            lay_out = screen._refresh_layout
            screen._refresh_layout = lambda *a, **k: (passes.append(1), lay_out(*a, **k))[1]
            for region in ("status", "table", "stables"):
                widget = app.query_one(f"#{region}")
                widget.refresh = lambda *a, _region=region, _refresh=widget.refresh, **k: (
                    touched.append(_region), _refresh(*a, **k))[1]  # fmt: skip
            await pilot.press(*"basic unicorn blue", "enter")
            for _ in range(3):
                await pilot.pause()
            assert passes == [] and touched == []
            assert "Basic Unicorn (Blue)" in drawn(app).split(HISTORY_HEADING)[0]
            assert "Basic Unicorn (Red)" in drawn(app).split(HISTORY_HEADING)[1]
            assert cursor_on_answer(app)

    asyncio.run(scenario())


def test_the_history_holds_no_more_lines_than_the_terminal_has_rows_and_more_once_it_is_taller(make_app):
    """Lines below the screen's last row could never be seen, and each is wrapped and drawn at every reply."""

    async def scenario():
        app = make_app(Heard())
        async with app.run_test(size=(100, 14)) as pilot:
            for name in ("rainbow aura", "unicorn poison", "glitter bomb", "back kick", "yay", "neigh"):
                await pilot.press(*name, "enter")
            await pilot.pause()
            kept = [line for entry in app.history.entries for line in entry]
            assert len(kept) > 14
            assert text(app, "history-text").splitlines() == [HISTORY_HEADING, *kept[:14]]
            await pilot.resize_terminal(100, 40)
            await pilot.pause()
            assert text(app, "history-text").splitlines() == [HISTORY_HEADING, *kept[:40]]

    asyncio.run(scenario())


def test_the_starts_work_is_done_before_the_first_frame(make_app, monkeypatch):
    """What the first look-up would build and the memory settled (`settle`) come before the screen is first drawn:
    a key typed once the screen shows never waits for them (after the first frame they held her first key up to
    110 ms, docs/benchmarks.md, "Outages of the sound device")."""
    import gc

    import assistant.ui.app as app_module
    from assistant.ui.app import TableApp

    order: list[str] = []
    settle, display = app_module.settle, TableApp._display

    def settled(session):
        order.append("settled")
        settle(session)

    def drawn(self, screen, renderable):
        if renderable is not None:
            order.append("frame")
        display(self, screen, renderable)

    monkeypatch.setattr(app_module, "settle", settled)
    monkeypatch.setattr(TableApp, "_display", drawn)

    async def scenario():
        app = make_app(Heard(lambda reply: None))
        async with app.run_test() as pilot:
            await pilot.pause()
            assert gc.get_freeze_count() > 0

    asyncio.run(scenario())
    assert "frame" in order and order.index("settled") < order.index("frame")
