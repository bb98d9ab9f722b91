"""The Textual app: a table screen read top to bottom, one fact a line (`assistant/commands/app.py` is the same app
in the command line's layer: the command that builds and opens it).

Regions, top to bottom: the status line (turn, player, phase, what may be done; six-key braille when on; the
speech keys' feedback), the input line, the answer (the newest reply), the camera line, the shared table's address
and join code (`share_panel.py`, which shows the QR code alone on F10), the pile and the effect chain, each player's
Stable, and the history of answers. The texts come from the game through `assistant.core.words`; the screen only
places them.

Accessibility rules (docs/user-guide.md): no borders or box drawing (the quit hint included), no animation, no
blinking cursor, markup never interpreted (card texts and QR payloads are shown literally), nothing by colour alone,
and the terminal cursor placed on the line a braille display should show: the start of the newest answer after
each reply (what F2, F3, F4 and F7 say goes there too); Up and Down move it through the regions; Page Up and Page
Down through the answer's lines.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, assert_never

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.driver import Driver
from textual.geometry import Size
from textual.reactive import Reactive
from textual.visual import VisualType
from textual.widgets import Input, Static

from assistant.core.braille.display import QUIT_WORDS
from assistant.core.braille.sixkey import DEFAULT_WINDOW
from assistant.core.game.about import About, Topic
from assistant.core.language.reply import DIGEST, Choice, FrontEnd
from assistant.core.words.screen import (
    HISTORY_HEADING,
    LIST_CLOSED,
    NO_REPLY_YET,
    QUIT_HINT,
    SCREEN_KEYS,
    SIX_KEY_MODES,
    held_fact,
    one_key_coaching,
    region_echo,
    region_names,
    table_regions,
)
from assistant.core.words.voice import NO_SPEECH_KEYS
from assistant.core.words.worded import texts
from assistant.session import Control, Reply, Session, Verbosity
from assistant.ui.braille_input import BrailleInput
from assistant.ui.braille_messages import DisplayKeys, listen_in
from assistant.ui.messages import Echoed, ScannerEvent, SpeechNoticed
from assistant.ui.one_key import card_waits, line_after_answer, one_key_answer, one_key_refusal, vocabulary_of
from assistant.ui.regions import REGION_IDS, HistoryRegion, RegionCursor
from assistant.ui.share_panel import QR_ONLY, SharePanel

if TYPE_CHECKING:
    from assistant.core.game.history import Game
    from assistant.scanner.sources import FrameSource
    from assistant.ui.braille_display import DisplayLink
    from assistant.ui.camera import CameraWorker

CSS = """
Screen { background: black; color: white; }
* { scrollbar-size: 0 0; }
#status { height: auto; text-style: bold; }
#prompt { border: none; height: 1; padding: 0; background: black; color: white; }
#answer { height: auto; }
#camera { height: auto; }
#table { height: auto; }
#stables { height: auto; }
#history-text { height: 1fr; color: #d0d0d0; }
"""
# While the QR code is shown alone (F10): the input line, the camera line and the QR code (`SharePanel`).
CSS += ", ".join(f"Screen.{QR_ONLY} #{name}" for name in ("status", "answer", "table", "stables", "history-text"))
CSS += " { display: none; }"


class TextRegion(Static):
    """A region of plain text, as tall as its text (the history: the rest of the screen). Its size is known once it
    is laid out: a new size asks for no second layout pass (Textual lays the whole screen out again when a widget's
    virtual size changes; for these regions, which hold no scrolling of their own, that second pass changes nothing
    and costs the loop a reply's whole layout again)."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show new text: the same text again does nothing, and text as tall as the region at its width is drawn
        without laying the screen out. A reply changes one region or two, and seldom their height; a
        layout pass measures and draws every region again."""
        if content == self.content:
            return
        width, height = self.content_size
        super().update(content, layout=False)
        if not layout or not (self.styles.height is None or self.styles.height.is_auto):
            return  # (the history: the rest of the screen, whatever its text)
        if not width or self.get_content_height(self.size, self.size, width) != height:
            self.refresh(layout=True)


class Speaker(FrontEnd, Protocol):
    """What the app needs of the thing that speaks: `assistant.speech.replies.ReplySpeaker` (tests pass fakes). As
    a front end (`render`) it says a reply as its origin asks (`Reply.origin`)."""

    def __call__(self, reply: Reply) -> None:
        """Speak a reply to new input (a line typed, a card scanned): what still waits to be said is stale."""

    def echo(self, text: str) -> None:
        """Navigation echo: a region's name and first line, a braille cell typed, a six-key mode changed."""

    def control(self, command: str) -> str:
        """Run a speech key (stop, repeat, back, forward, mute, private); the line to show."""

    def attach(self, on_notice: Callable[[str], object]) -> None:
        """Send the speech service's own notices (a player that failed) to `on_notice`, which posts a message."""


def settle(session: Session) -> None:
    """Before the screen is first drawn: what the first look-up would build is built, then what the app made to
    start is kept out of full collections (`settle_memory`). Done after the first frame, it held a key typed as the
    screen showed up to 110 ms; before it, the screen shows about 60 ms later and answers at once."""
    session.card_desk.prepare()
    settle_memory()


def settle_memory() -> None:
    """Once the app has started: what it took to start (the decks, Textual, the libraries: most of what
    the process holds) is left out of the garbage collector's full collections from now on (`gc.freeze`). A full
    collection went over all of it and held the event loop up to 43 ms, at a reply (docs/benchmarks.md)."""
    gc.collect()
    gc.freeze()


class TableApp(DisplayKeys):
    """The table assistant's screen. A braille display's keys, loss and return are answered by `DisplayKeys`."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+c", "quit_hint", "Quit hint", show=False, priority=True),
        # Speech keys (docs/speech.md): none of them types a character, so the input line keeps every letter.
        # Priority bindings run as the key arrives, in the order of the keys: a plain binding runs only once the
        # key has gone through the input line, after the keys that came behind it, so Escape then 0 stopped the
        # answer to the 0.
        Binding("escape", "speech('stop')", "Stop talking", show=False, priority=True),
        Binding("f2", "speech('repeat')", "Repeat", show=False, priority=True),
        Binding("f3", "speech('back')", "Earlier speech", show=False, priority=True),
        Binding("f4", "speech('forward')", "Later speech", show=False, priority=True),
        Binding("f5", "speech('mute')", "Mute", show=False, priority=True),
        Binding("f6", "speech('private')", "Private reading", show=False, priority=True),
        Binding("f7", "verbosity", "Verbosity", show=False, priority=True),
        # Her voice's dials, a step each (the lines faster, slower, louder, softer, higher, lower).
        Binding("ctrl+up", "line('faster')", "Faster", show=False, priority=True),
        Binding("ctrl+down", "line('slower')", "Slower", show=False, priority=True),
        Binding("shift+up", "line('louder')", "Louder", show=False, priority=True),
        Binding("shift+down", "line('softer')", "Softer", show=False, priority=True),
        Binding("ctrl+shift+up", "line('higher')", "Higher", show=False, priority=True),
        Binding("ctrl+shift+down", "line('lower')", "Lower", show=False, priority=True),
        Binding("f1", "help", "Help", show=False, priority=True),
        Binding("f8", "missed", "What other hands did", show=False, priority=True),
        Binding("f9", "share", "Share the table", show=False, priority=True),
        Binding("f10", "share('qr')", "The QR code alone", show=False, priority=True),
        Binding("pageup", "answer_line(-1)", "Previous line of the answer", show=False, priority=True),
        Binding("pagedown", "answer_line(1)", "Next line of the answer", show=False, priority=True),
        Binding("up", "region(-1)", "Previous region", show=False),
        Binding("down", "region(1)", "Next region", show=False),
    ]

    def __init__(
        self,
        session: Session,
        title: str,
        speak: Speaker | None = None,
        camera: Callable[[], FrameSource] | None = None,
        chord_window: float = DEFAULT_WINDOW,
        notes: Sequence[str] = (),
        clock: Callable[[], float] = time.monotonic,
        braille: DisplayLink | None = None,
        share: str | None = None,
        scan_repeat: float = 0,
    ):
        """Build it with `assistant.commands.app.make_app`, as the command does. `title`: said (by the command, before
        the app opens) and shown first, with the `notes` after it (shown, not said); `camera`: a function opening a
        frame source (`assistant.scanner.live.camera_opener`), or None; `chord_window`: seconds within which
        six-key chord keys make one cell; `clock`: seconds, the camera scanner's time (how long a card lying in view
        stays unrepeated, how often a cue is said), so a test can pass a clock of its own; `braille`: the braille
        display (`assistant.ui.braille_display`), which shows every reply too and whose keys come as messages;
        `share`: share the table as the app opens (`--share`: "" for the local-network address, or ADDRESS:PORT);
        `scan_repeat`: seconds after which a card lying still before the camera is said again (0: once)."""
        super().__init__()
        self.clock = clock
        self.chord_window = chord_window
        self.session = session
        self.crashed: BaseException | None = None
        """An exception no handler caught, which ended the app (`_handle_exception`)."""
        self.heading = title
        """What is said as the app opens."""
        self.speak = speak
        self.replies: list[Reply] = [Reply.of(" ".join([title, *notes]), NO_REPLY_YET)]
        """The answers shown, oldest first; the first is the greeting (said by the command before the app opens)."""
        self.feedback = ""
        """The speech keys' last feedback (or a notice), on the status line until the next reply."""
        self._word_rest = ""
        """After y or n answered a question as one key: the rest of "yes" or "no", not typed if it follows."""
        self._answered_key = ""
        """The y or n that just answered a question as one key, until the next line is sent: put back in front of
        that line when the player was typing a command with it (`line_after_answer`)."""
        self.held_facts: tuple[About, ...] = ()
        """The last decisive facts (`Reply.facts`), on the status line until the next ones; a question's only while
        it waits."""
        self.answer_from = 0
        """The line of the answer the answer region starts at (Page Up and Page Down)."""
        self.answer_read: tuple[str, ...] = self.replies[0].reader_lines
        """The answer region's lines as a screen reader is given them, beside what it shows: a reply's made from its
        segments (`Reply.reader_lines`: a new join code in other words, `Part.PRIVATE`), a speech key's as shown."""
        self.camera = camera
        self.scan_repeat = scan_repeat
        self.camera_worker: CameraWorker | None = None
        self.braille = braille
        self.share_at = share
        self.share = SharePanel(session, self.show)
        """The shared table's part: its region, its server, the phones' moves (`assistant/ui/share_panel.py`)."""
        self.cursor = RegionCursor(self, self.share)
        """The terminal cursor on a region, where a braille display follows it (`assistant/ui/regions.py`)."""
        self.history = HistoryRegion(self)
        """The history region: earlier answers and the speech keys' feedback, newest first."""
        self.front_ends: tuple[FrontEnd, ...] = tuple(
            end for end in (AnswerPane(self), SpeechKeys(self), braille, self.share.phones) if end is not None
        )
        """Every reply is rendered on each, in this order (`show`): the screen, the speech, a braille display, the
        phones; each decides from the reply's values what to do with it (its origin, its hint, its control). To add
        a front end, add one object with a `render(reply)` here."""

    def _handle_exception(self, error: Exception) -> None:
        """An exception no handler caught. Textual's own last resort draws its traceback, with every local
        variable, on the terminal as the app exits (megabytes, read out by a screen reader) and exits with 1; here
        it is kept (`crashed`) for the command line's last guard, which writes it to the crash log and says one
        sentence (`assistant/cli.py`), and the app exits with 70. Pilot still raises it at the end of a test.
        (A method of Textual's own, not public: tests/ui/test_app.py holds it to what Textual does with it.)"""
        self.crashed = error
        if getattr(self, "_exception", None) is None:  # what `run_test` raises when a test's app ends
            self._exception = error
            self._exception_event.set()
        self.exit(return_code=70)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform; on a POSIX terminal and on the Windows console, one where Escape never
        turns the next key into Alt+key. Chosen here, at run time: the POSIX driver cannot even be imported on
        Windows (no `termios`), nor the Windows one elsewhere (no `msvcrt`)."""
        chosen = super().get_driver_class()  # the headless one, one named by TEXTUAL_DRIVER: as it is
        where = (chosen.__module__, chosen.__name__)
        if where == ("textual.drivers.windows_driver", "WindowsDriver"):
            from assistant.ui.windows_driver import EscapeAloneWindowsDriver

            return EscapeAloneWindowsDriver
        if where != ("textual.drivers.linux_driver", "LinuxDriver"):
            return chosen
        from assistant.ui.posix_driver import EscapeAloneDriver

        return EscapeAloneDriver

    def compose(self) -> ComposeResult:
        yield TextRegion("", id="status", markup=False)
        yield BrailleInput(
            placeholder="Card name, abbreviation or command",
            id="prompt",
            select_on_focus=False,
            window=self.chord_window,
        )
        yield TextRegion("\n".join(self.replies[0].lines), id="answer", markup=False)
        yield TextRegion("", id="camera", markup=False)
        yield TextRegion("", id="table", markup=False)
        yield TextRegion("", id="stables", markup=False)
        yield self.share  # (below the table: never between an answer and the table; alone with the QR code, on F10)
        yield TextRegion(HISTORY_HEADING, id="history-text", markup=False)

    def on_mount(self) -> None:
        prompt = self.query_one("#prompt", BrailleInput)
        prompt.cursor_blink = False
        prompt.shortcut = self.one_key
        prompt.focus()
        self.query_one("#camera").display = False  # no blank line until the camera has something to say
        if self.share_at is not None:
            self.share.control(self.share_at)
        self.refresh_table()
        self.call_after_refresh(self.cursor.place)
        # After every layout, not only after the refresh a reply asks for: the callback of that refresh could run
        # before the layout of the reply's texts, leaving the cursor where the answer had been (a status line one
        # or two lines shorter moves it up), and a braille display on the wrong line until the next reply.
        self.screen.screen_layout_refresh_signal.subscribe(self, self.cursor.follow_layout, immediate=True)
        if self.speak is not None:  # the speech worker's notices (a player that failed) come back as messages
            self.speak.attach(lambda text: self.post_message(SpeechNoticed(text)))
        if self.camera is not None:  # scanning runs on its own thread, which only posts messages
            from assistant.ui.camera import CameraWorker

            # The decks in play are asked for on the scanner's thread each time: they change as a card is learnt.
            worker = self.camera_worker = CameraWorker(
                self.camera,
                self.post_message,
                lambda: self.session.cards.decks,
                clock=self.clock,
                repeat=self.scan_repeat,
            )
            worker.start()
        if self.braille is not None:  # the display's keys are read on its own thread, which only posts messages
            self.braille.render(self.replies[0])  # the greeting, as on the screen
            listen_in(self, self.braille)
        settle(self.session)  # (before the first frame: a key she types once it shows never waits for it)

    async def on_unmount(self) -> None:
        gc.unfreeze()  # what the app made becomes collectable again (a test runs many apps in one process)
        if self.camera_worker is not None:
            self.camera_worker.stop()
        if self.braille is not None:
            self.braille.close()

    @property
    def held(self) -> str:
        """The words of the decisive facts held (`held_facts`)."""
        return texts(self.held_facts)

    # The regions and the cursor.

    def refresh_table(self) -> None:
        """Rewrite the status line, the pile and chain, and the Stables from the game as it stands."""
        status, pile, stables = table_regions(self.session.game, vocabulary_of(self.session))
        prompt = self.query_one("#prompt", BrailleInput)
        mode = prompt.six_key
        status_lines = [status + (f" {SIX_KEY_MODES[mode.value]}" if mode is not None else "")]
        game = self.session.game
        if self.held_facts and not status_tells(game, self.held_facts):
            status_lines.append(held_fact(self.held))
        if self.feedback:
            status_lines.append(self.feedback)
        self.query_one("#status", Static).update("\n".join(status_lines))
        self.query_one("#table", Static).update("\n".join(pile))
        self.query_one("#stables", Static).update("\n".join(stables))

    def action_region(self, step: int) -> None:
        """Up and Down: the cursor to the region above or below, and its name and first line said."""
        index = max(0, min(len(REGION_IDS) - 1, self.cursor.region + step))
        self.cursor.place(index)
        widget = self.cursor.widget(index)
        # a new join code's line (the answer, the history) is said in its private words, made from the reply's
        # segments (`Reply.reader_lines`, `Part.PRIVATE`), never found by its words
        match REGION_IDS[index]:
            case "answer":
                lines = list(self.answer_read)
            case "history-text":
                lines = self.history.reader_lines()
            case _:
                lines = (str(widget.value) if isinstance(widget, Input) else str(widget.render())).splitlines()
        if self.speak is not None:
            self.speak.echo(region_echo(region_names(vocabulary_of(self.session))[index], lines))

    def action_answer_line(self, step: int) -> None:
        """Page Up and Page Down: the answer read line by line. The answer region starts at the line reached, so
        the cursor (and a braille display) is on it however long the answer; the line is said."""
        lines = self.replies[-1].lines if self.replies else ()
        if not lines:
            return
        self.answer_from = max(0, min(len(lines) - 1, self.answer_from + step))
        self.query_one("#answer", Static).update("\n".join(lines[self.answer_from :]))
        self.answer_read = self.replies[-1].reader_lines[self.answer_from :]
        self.cursor.on_answer()
        if self.speak is not None:  # (a new join code's line is said in its private words: `Part.PRIVATE`)
            self.speak.echo(self.replies[-1].reader_lines[self.answer_from])

    def show_said(self, text: str) -> None:
        """What a speech key says (F2, F3, F4) or F7 sets: in the answer region, under the cursor, as it is said;
        and in the history. The answer itself is kept (`replies`) and comes back with Page Up."""
        self.feedback = ""
        self.answer_from = 0
        self.query_one("#answer", Static).update(text)
        self.answer_read = tuple(text.splitlines())
        self.refresh_table()
        self.history.add(extra=text.splitlines())
        self.cursor.on_answer()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Something typed takes the cursor back to the input line (the input line puts it there itself).
        The input line as it is now decides, not the change: "s" then a number typed fast (a Super Neigh)
        empties it before the change of "s" arrives, and the cursor stays on the answer."""
        if event.input.value:
            self.cursor.place(REGION_IDS.index("prompt"))
        if self.braille is not None and event.input.id == "prompt":  # the display follows the keyboard's typing
            self.braille.follow(event.input.value)

    def one_key(self, character: str, typed: str) -> bool:
        """A key typed into the input line: when it is a one-key answer (`one_key_answer`), send its ordinary line
        through the session (saved like any typed line) and say so; else let it type."""
        rest, self._word_rest = self._word_rest, ""
        if rest and not typed and character.lower() == rest[0]:
            self._word_rest = rest[1:]  # "yes" typed in full after y answered: the rest of the word is not typed
            return True
        line = one_key_answer(self.session, character, typed)
        if line is None:
            return False
        if line in ("y", "n"):
            self._word_rest = "es" if line == "y" else "o"
        self._answered_key = character if line in ("y", "n") else ""
        if self.braille is not None:  # new input: a fact held on the display is acknowledged
            self.braille.acknowledge()
        self.query_one("#prompt", Input).value = ""
        if not line:  # a digit that cannot act: why, and nothing typed
            self.show(Reply.error(one_key_refusal(self.session, character)))
        else:
            self.show(self.session.handle(line))
        return True

    # Messages from the camera, the speech and the input.

    def on_scanner_event(self, message: ScannerEvent) -> None:
        """What the camera found (posted by the camera thread): a card read gets the same reply as typing
        its name; a cue goes on the camera line; a camera lost or back, or a scanner notice, is said once."""
        from assistant.ui.camera import camera_reply

        if not self.query("#answer"):  # the app is closing: a message the camera posted before it was stopped
            return
        self.show(camera_reply(self.session, message.event))

    def on_speech_noticed(self, message: SpeechNoticed) -> None:
        """A notice from the speech service (a sound failure): on the status line and in the history, once, and
        not spoken (it is about the speech itself)."""
        self.note(message.text)

    def on_braille_input_echoed(self, message: Echoed) -> None:
        """A braille cell typed or a six-key mode changed: navigation echo, only the latest one is said."""
        self.refresh_table()  # the status line says whether six-key braille is on
        if self.speak is not None:
            self.speak.echo(message.text)

    def action_speech(self, command: str) -> None:
        """The speech keys: stop, repeat, step back or forward through what was said, mute, private reading.
        Their feedback goes on the status line and into the history; the answer stays."""
        line = self.speak.control(command) if self.speak is not None else NO_SPEECH_KEYS
        if command == "stop" and isinstance(self.session.pending, Choice):
            self.session.pending = None  # Escape closes a list: the next digit is not taken as a choice
            line = f"{line} {LIST_CLOSED}"
        if command in ("repeat", "back", "forward"):
            self.show_said(line)  # the braille line follows what is said
        else:
            self.note(line)

    def action_verbosity(self) -> None:
        """F7: the next level of how much is said (the line "verbosity"); said, and shown on the status line."""
        reply = self.session.handle("verbosity")
        self.show_said("\n".join(reply.lines))
        if self.speak is not None:
            self.speak(reply)

    def action_line(self, line: str) -> None:
        """A key that does what a line does (Control and Up: the line "faster"): answered as that line."""
        self.show(self.session.handle(line))

    def action_help(self) -> None:
        """F1: the short help, as the line "help" gives it."""
        self.show(self.session.handle("help"))

    def action_missed(self) -> None:
        """F8: what other hands did since the player's last move or since she last asked (the line "missed"); on a
        braille display its digest first, never a fact held before it (`Source.DIGEST`)."""
        self.show(self.session.handle("missed").coming(DIGEST))

    def action_share(self, argument: str = "") -> None:
        """F9: share the table with phones, or say its address and join code again (the line "share"); F10: the QR
        code alone on the screen, or the table back (the line "share qr")."""
        self.share.control(argument)

    def action_quit_hint(self) -> None:
        """Control C: how to quit, on the status line and said (no dialog drawn)."""
        self.note(QUIT_HINT)
        if self.speak is not None:
            self.speak(Reply.of(QUIT_HINT, important=True))

    def note(self, text: str) -> None:
        """Feedback that is not an answer: on the status line and in the history, never over the answer."""
        self.feedback = text
        self.refresh_table()
        self.history.add(extra=text.splitlines())
        if self.braille is not None:  # on the display too: with speech off, nothing is lost
            self.braille.render(Reply.of(*text.splitlines()))
        self.call_after_refresh(self.cursor.place)  # the status line grew: the region it is on moved down

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A line was typed: answer it, show it, speak it."""
        key, self._answered_key = self._answered_key, ""
        if not event.value.strip():  # (the input line emptied itself when it sent the line)
            self.cursor.place()
            return
        if event.value.strip().lower() in QUIT_WORDS:  # as in the plain mode: never looked up as a card
            self.exit()
            return
        if self.braille is not None:  # a line sent: a fact held on the display, and read there, is acknowledged
            self.braille.acknowledge()
        self.show(self.session.handle(line_after_answer(self.session, key, event.value)))

    def show(self, reply: Reply) -> None:
        """Show a reply on screen and hand it to speech, a braille display and the phones: the one place all happen.
        Each front end (`front_ends`) renders it as its origin asks (`Reply.origin`: her own key, a notice, an
        answer at once, another hand's move), and does itself what its control asks of it (`Reply.control`: the
        speech stops or runs a speech key, the phones' part shares the table); an aiming cue (`Reply.hint`) goes to
        each too, each treating it as a hint (the screen on its camera line, the speech when nothing else is said).
        The app adds its own keys to the help and to coaching."""
        if self.camera_worker is not None and not reply.hint:
            self.camera_worker.quiet()  # the reply's screen and speech first (`camera.REPLY_QUIET_S`)
        if reply.help:  # the command table: the app's own keys after it
            reply = reply.after(*SCREEN_KEYS)
        game = self.session.game
        coaching = self.session.verbosity is Verbosity.COACHING and not reply.hint and not reply.control.runs
        if coaching and reply.lines and game and card_waits(self.session):
            keys = one_key_coaching(game.table)  # for learners: the keys, said with each question of the pile
            reply = reply.after(keys)
        for front_end in self.front_ends:
            front_end.render(reply)

    def on_resize(self, event: events.Resize) -> None:
        """A taller terminal shows more of the history; a smaller one may no longer fit the QR code shown alone."""
        if self.query("#history-text"):
            self.history.draw(event.size.height)
            self.share.fit(event.size)


class SpeechKeys:
    """The speech as the app's front end (`FrontEnd`): a speech key typed (`stop`, `mute`, `private`) is run as its
    key is (Escape, F5, F6: `TableApp.action_speech`, which answers that there is no speech when there is none);
    every other reply is said as its origin asks (the speaker's own `render`)."""

    def __init__(self, app: TableApp) -> None:
        self.app = app

    def render(self, reply: Reply) -> None:
        match reply.control:
            case Control.STOP:
                self.app.action_speech("stop")
            case Control.SPEECH:
                self.app.action_speech(reply.argument)
            case Control.SHARE | Control.SAID:  # (the phones' part runs it; a speech key's answer was said)
                pass
            case Control.NONE | Control.REPEAT:
                if self.app.speak is not None:
                    self.app.speak.render(reply)
            case never:
                assert_never(never)


class AnswerPane:
    """The app's screen as a front end (`FrontEnd`): the answer region, the history under it, and the decisive
    facts held on the status line."""

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.asked: tuple[About, ...] = ()
        """The decisive facts of the last reply that asked a question: held until it is answered."""

    def render(self, reply: Reply) -> None:
        """The reply's lines in the answer region (the one before them into the history), its decisive facts on
        the status line; an aiming cue's (`Reply.hint`) on the camera line, leaving the answer and the history
        alone."""
        app = self.app
        if reply.hint:
            camera = app.query_one("#camera", Static)
            camera.update("\n".join(reply.lines))
            camera.display = bool(reply.lines)
            return
        if reply.control is Control.STOP:  # `stop` typed: nothing new in the answer, the cursor on it
            app.cursor.place(REGION_IDS.index("answer"))
            return
        if reply.control.runs:  # (a speech key's answer is on the status line; a `share` line's comes on its own)
            return
        if not reply.lines and not reply.facts and not reply.origin.her_key:
            return  # words said only, of moves shown in their time (`PhoneDesk.say_held`): the screen stays as it is
        if app.replies and reply.lines:
            app.history.add(extra=list(app.replies[-1].lines), read=list(app.replies[-1].reader_lines))
        if reply.lines:
            app.replies.append(reply)
            app.answer_from = 0
            app.query_one("#answer", Static).update("\n".join(reply.lines))
            app.answer_read = reply.reader_lines
        if reply.facts:
            app.held_facts = reply.facts
        elif app.held_facts and app.held_facts == self.asked and app.session.pending is None:
            app.held_facts = ()  # the question was answered
        self.asked = reply.facts if reply.pending is not None else self.asked
        app.feedback = ""
        app.refresh_table()
        app.cursor.on_answer()


def status_tells(game: Game | None, facts: tuple[About, ...]) -> bool:
    """The status line already tells these decisive facts, by their states: whose turn while the game goes on
    ("Turn 3: Ben's turn." for "Ben's turn."), and at its end the outcome ("Ana wins with 4 Unicorns!" for "Ana
    wins!"). Else they are held on a line of their own."""
    if game is not None and game.state.outcome is not None:
        return Topic.WIN in {fact.topic for fact in facts}
    told = {(Topic.TURN, None)} if game is not None else set()
    return all(fact.states and fact.states <= told for fact in facts)
