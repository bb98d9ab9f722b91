"""The Textual app: one input line, the latest answer below it, and the history of what was said.

Accessibility rules from ACCESSIBILITY.md: no borders, no animation, no blinking cursor, markup never
interpreted (card texts and QR payloads are shown literally), one fact per line, and the terminal cursor
placed on the line a braille display should show.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from assistant.core import words
from assistant.core.sixkey import DEFAULT_WINDOW
from assistant.session import Reply, Session
from assistant.ui.braille_input import BrailleInput

CSS = """
Screen { background: black; color: white; }
* { scrollbar-size: 0 0; }
#title { height: auto; text-style: bold; }
#prompt { border: none; height: 1; padding: 0; background: black; color: white; }
#answer { height: auto; }
#history { height: 1fr; color: #d0d0d0; }
"""


class SpeechNoticed(Message):
    """The speech service has something to tell the player (posted from its worker thread)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class TableApp(App):
    """The table assistant's screen."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        # Speech keys (docs/speech.md): none of them types a character, so the input line keeps every letter.
        Binding("escape", "speech('stop')", "Stop talking", show=False),
        Binding("f2", "speech('repeat')", "Repeat", show=False),
        Binding("f3", "speech('back')", "Earlier speech", show=False),
        Binding("f4", "speech('forward')", "Later speech", show=False),
        Binding("f5", "speech('mute')", "Mute", show=False),
        Binding("f6", "speech('private')", "Private reading", show=False),
    ]

    def __init__(self, session: Session, title: str, speak=None, camera=None, chord_window: float = DEFAULT_WINDOW):
        """`camera`: a function opening a frame source (`assistant.scanner.live.camera_opener`), or None;
        `chord_window`: seconds within which six-key chord keys make one cell."""
        super().__init__()
        self.chord_window = chord_window
        self.session = session
        self.heading = title
        self.speak = speak
        self.replies: list[Reply] = []
        self.camera = camera
        self.camera_worker = None

    def compose(self) -> ComposeResult:
        yield Static(self.heading, id="title", markup=False)
        yield BrailleInput(
            placeholder="Card name or abbreviation", id="prompt", select_on_focus=False, window=self.chord_window
        )
        yield Static("Type a card name and press Enter. Type help for help.", id="answer", markup=False)
        yield Static("", id="camera", markup=False)
        with VerticalScroll(id="history", can_focus=False):
            yield Static("", id="history-text", markup=False)

    def on_mount(self) -> None:
        prompt = self.query_one("#prompt", Input)
        prompt.cursor_blink = False
        prompt.focus()
        attach = getattr(self.speak, "attach", None)
        if attach is not None:  # the speech worker's notices (a player that failed) come back as messages
            attach(lambda text: self.post_message(SpeechNoticed(text)))
        if self.camera is not None:  # scanning runs on its own thread, which only posts messages
            from assistant.ui.camera import CameraWorker

            self.camera_worker = CameraWorker(self.camera, self.post_message)
            self.camera_worker.start()

    def on_unmount(self) -> None:
        if self.camera_worker is not None:
            self.camera_worker.stop()

    def on_scanner_event(self, message) -> None:
        """What the camera found (`assistant.ui.camera.ScannerEvent`): a card read gets the same reply as typing
        its name; a cue goes on the camera line; a camera lost or back, or a scanner notice, is said once."""
        from assistant.ui.camera import camera_reply

        reply, new_input = camera_reply(self.session, message.event)
        self.show(reply, new_input=new_input)

    def on_speech_noticed(self, message: SpeechNoticed) -> None:
        """A notice from the speech service: shown, and not spoken (it is about the speech itself)."""
        self.show(Reply((message.text,), ""), new_input=False)

    def on_braille_input_echoed(self, message) -> None:
        """A braille cell typed or a six-key mode changed: navigation echo, only the latest one is said."""
        echo = getattr(self.speak, "echo", None)
        if echo is not None:
            echo(message.text)

    def action_speech(self, command: str) -> None:
        """The speech keys: stop, repeat, step back or forward through what was said, mute, private reading."""
        control = getattr(self.speak, "control", None)
        line = control(command) if control is not None else words.NO_SPEECH_KEYS
        self.query_one("#answer", Static).update(line)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A line was typed: answer it, show it, speak it."""
        event.input.value = ""
        if not event.value.strip():
            return
        self.show(self.session.handle(event.value))

    def show(self, reply: Reply, new_input: bool = True) -> None:
        """Show a reply on screen and hand it to speech; the one place both happen. `new_input`: the reply
        answers a line typed or a card scanned, so speech still waiting is stale (False for a notice)."""
        if reply.hint:  # an aiming cue: on the camera line, leaving the answer and the history alone
            self.query_one("#camera", Static).update("\n".join(reply.lines))
            if self.speak is not None:
                self.speak(reply)
            return
        self.replies.append(reply)
        self.query_one("#answer", Static).update("\n".join(reply.lines))
        history = [line for old in reversed(self.replies[-20:-1]) for line in old.lines]
        self.query_one("#history-text", Static).update("\n".join(history))
        if self.speak is not None:
            notice = None if new_input else getattr(self.speak, "notice", None)
            (notice or self.speak)(reply)
