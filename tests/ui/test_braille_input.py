"""Six-key braille entry and Unicode braille in the Textual input, driven with Pilot."""

import asyncio

from fake_speaker import Heard
from textual import events
from textual.app import App

from assistant.core.braille.sixkey import EntryMode
from assistant.core.words.entry import SIXKEY_CHORD_ON, SIXKEY_OFF, SIXKEY_SPACE_ON
from assistant.ui.braille_input import BrailleInput


class KeyClock:
    """The keys' seconds, which pass only when the test moves them on: keys pressed together stay together however
    slowly a busy machine delivers them."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class EntryApp(App):
    """One braille input on a test clock; what it echoes and submits is recorded."""

    def __init__(self, mode, window=0.3):
        super().__init__()
        self.mode, self.window = mode, window
        self.clock = KeyClock()
        self.echoes: list[str] = []
        self.submitted: list[str] = []

    def compose(self):
        yield BrailleInput(id="entry", six_key=self.mode, window=self.window, clock=self.clock)

    def on_braille_input_echoed(self, message: BrailleInput.Echoed) -> None:
        self.echoes.append(message.text)

    def on_input_submitted(self, message) -> None:
        self.submitted.append(message.value)


async def echoed(pilot, app: EntryApp, count: int) -> None:
    """Wait until the input has echoed `count` things (the chord window's timer runs on its own)."""
    for _ in range(500):
        if len(app.echoes) >= count:
            return
        await pilot.pause(0.01)
    raise AssertionError(f"echoed only {app.echoes}")


def drive(app: EntryApp, scenario):
    async def main():
        async with app.run_test() as pilot:
            await scenario(pilot)
            await pilot.pause()

    asyncio.run(main())
    return app


def test_dots_then_space_makes_cells_echoes_letters_and_backspace_deletes():
    async def scenario(pilot):
        await pilot.press("f", "d", "s", "k", "space")  # r
        await pilot.press("f", "space")  # a
        await pilot.press("j", "space")  # dots 4, then deleted
        await pilot.press("backspace")
        await pilot.press("enter")

    app = drive(EntryApp(EntryMode.DOTS_THEN_SPACE), scenario)
    assert app.submitted == ["⠗⠁"]
    assert app.echoes == ["r", "a", "dots 4", "dots 4 deleted"]


def test_chord_mode_keys_together_make_one_cell_and_enter_finishes_the_last():
    app = EntryApp(EntryMode.CHORD, window=0.05)

    async def scenario(pilot):
        await pilot.press("f", "s", "k", "d")  # at one moment on the keys' clock: one chord, r
        assert app.echoes == []  # the window is still open: no cell yet
        app.clock.advance(0.06)  # the window passes: the chord is a cell, said without another key
        await echoed(pilot, app, 1)
        await pilot.press("f", "enter")  # a, finished by Enter

    drive(app, scenario)
    assert app.submitted == ["⠗⠁"]
    assert app.echoes == ["r", "a"]


def test_chord_mode_keys_a_window_apart_make_two_cells():
    app = EntryApp(EntryMode.CHORD, window=0.3)

    async def scenario(pilot):
        await pilot.press("f")
        app.clock.advance(0.31)  # the next key comes after the window: a cell of its own
        await pilot.press("d")
        await pilot.press("enter")

    drive(app, scenario)
    assert app.submitted == ["⠁⠂"]
    assert app.echoes == ["a", "dots 2"]


def test_digits_and_other_keys_still_type_in_six_key_mode():
    async def scenario(pilot):
        await pilot.press("2", "x", "enter")

    app = drive(EntryApp(EntryMode.DOTS_THEN_SPACE), scenario)
    assert app.submitted == ["2x"]


def test_ctrl_b_cycles_the_modes_and_says_each():
    async def scenario(pilot):
        await pilot.press("f", "ctrl+b", "f", "d")  # together on the keys' clock: b, finished by the next Ctrl+B
        await pilot.press("ctrl+b", "f", "space", "ctrl+b", "f", "enter")

    app = drive(EntryApp(None), scenario)
    assert app.submitted == ["f⠃⠁f"]
    assert app.echoes == [SIXKEY_CHORD_ON, "b", SIXKEY_SPACE_ON, "a", SIXKEY_OFF]


def test_the_app_answers_unicode_braille_typed_through_a_braille_layout(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test() as pilot:
            prompt = app.query_one("#prompt")
            for cell in "⠥⠛⠀⠗⠁⠔⠃⠪⠀⠁⠥⠗⠁":  # a braille layout sends characters, which pilot.press cannot
                prompt.post_message(events.Key(cell, cell))
            await pilot.pause()
            assert prompt.value == "⠥⠛⠀⠗⠁⠔⠃⠪⠀⠁⠥⠗⠁"
            await pilot.press("enter")
            await pilot.pause()
            assert str(app.query_one("#answer").render()).splitlines()[0] == "Rainbow Aura"

    asyncio.run(scenario())
    assert spoken[-1].card.id == "rainbow-aura"


def test_the_apps_input_line_takes_six_key_entry_after_ctrl_b(make_app):
    async def main():
        app = make_app(Heard(), "--chord-window", "0.5")
        async with app.run_test() as pilot:
            prompt = app.query_one("#prompt", BrailleInput)
            assert prompt.chord_window == 0.5
            await pilot.press("ctrl+b", "ctrl+b")  # off → chord → dots then Space
            assert prompt.six_key is EntryMode.DOTS_THEN_SPACE
            await pilot.press("f", "s", "j", "k", "l", "space", "f", "space", "f", "s", "j", "k", "l", "space")
            await pilot.pause()
            assert prompt.value == "⠽⠁⠽"
            await pilot.press("enter")
            await pilot.pause()
            assert str(app.query_one("#answer").render()).splitlines()[0] == "Yay"

    asyncio.run(main())


def test_a_burst_of_keys_leaves_the_loop_free_between_keys_and_keeps_their_order():
    """Keys that come all at once (a braille keyboard's contracted word, a fast typist on a busy machine) are taken
    one at a time with the loop free between them, so a reply, the camera's message or a phone's move waits one
    key's work, not the whole burst's; the line and what is submitted stay as typed."""
    line = "new game Ana Ben Cy babies red pink narwhal win 7"
    app = EntryApp(None)

    async def scenario(pilot):
        entry = app.query_one("#entry", BrailleInput)
        seen, done = set(), asyncio.Event()

        async def watch():  # another task on the loop, as the app's other work is
            while not done.is_set():
                seen.add(len(entry.value))
                await asyncio.sleep(0)  # (no wait: lets the loop's other tasks run, as the app's do)

        watcher = asyncio.create_task(watch())
        for key in line:
            entry.post_message(events.Key("space" if key == " " else key, key))
        entry.post_message(events.Key("enter", "\r"))
        await pilot.pause()
        done.set()
        await watcher
        assert app.submitted == [line]
        assert len(seen) >= len(line) // 2, sorted(seen)  # the loop ran between the keys, not once at the end

    drive(app, scenario)


def _burst(text: str) -> list[events.Key]:
    """Keys as a terminal sends a burst: printable ones with their character, named ones (`<left>`) without."""
    keys, rest = [], text
    while rest:
        if rest.startswith("<"):
            name, rest = rest[1:].split(">", 1)
            keys.append(events.Key(name, None))
        else:
            char, rest = rest[0], rest[1:]
            keys.append(events.Key("space" if char == " " else char, char))
    return keys


def test_a_burst_of_edit_keys_and_letters_is_applied_in_the_order_typed():
    """`sper`, Left ×3, `u`, End, ` neigh`, Enter in one write read "sp neureigh": the input took its letters at
    once and its editing keys only once they had gone up to the app and back. Every key goes to the app at once, as
    the terminal's driver sends them."""
    app = EntryApp(None)

    async def scenario(pilot):
        for burst, line in (
            ("sper<left><left><left>u<end> neigh", "super neigh"),
            ("yay<home>play <end>!<backspace>", "play yay"),
            ("ab<left><delete>c<ctrl+a>d<ctrl+e>e", "dace"),
        ):
            for key in [*_burst(burst), events.Key("enter", "\r")]:
                app.post_message(key)
            await pilot.pause()
            assert app.submitted[-1] == line

    drive(app, scenario)
