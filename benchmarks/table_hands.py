"""Every hand heard: three phones in real chromium act every 2 to 5 s (two Neighs at once, an Instant, a chain with its
duties) while the blind player types a key every 1.2 s on the laptop; what reaches her ear, from the real app.

Run as `.venv/bin/python -m benchmarks.table_hands` (`--json`, `--games uu-2nd llamas`, `--setups own reader one
plain`, `--interval 1.2`, `--seed N`, `--backend pyttsx3|espeak-ng`, `--keep FOLDER` to keep each run's logs).
The app runs as a player runs it, sharing the table on loopback (`python -m assistant --no-camera --share
127.0.0.1:PORT --deck D`, with `--plain` in the plain set-up), in a pseudo-terminal, through the small wrapper of
`benchmarks/table_pace.py` that notes each reply shown, each utterance begun with the facts and moves it carries by
sentence, and each sentence played (the app's mixer into ALSA's `file` plugin, pacing itself as a sound card plays,
so the next key can cut a sentence); each sentence's sound is kept with its voice (`_note_sounds`). Ben, Cy and
Dee are phone-sized pages in Debian's chromium driven by Playwright, joined by the code the app says; Ana, the
blind player, types on the laptop: her own turns' moves and, between them, what a player asks while others play
(`tally`, `pile`, `turn`, a Stable), one key every `--interval` seconds whatever is being said. Each phone move
comes 2 to 5 s after the one before (drawn from `--seed`, reported), a second Neigh or Instant 0.05 s after the
first.

Measures, per game and set-up (goals from issue 87, checked in `goals`, printed):
- each of Ana's keys: Enter to the first sound of that key's own words (an older fact or another hand's move folded
  before them does not count): median, p90 (goal 150 ms), max; own replies never heard (goal none);
- each phone move: the browser's request to the first audio byte of the sentence that says it (alone, or merged
  with the same player's other moves), all, and apart: tapped while something is said (either voice; goal p90
  1.0 s where the table voice is on) and in silence (goal p90 250 ms); with one voice, every move within 10 s (the
  max); moves never heard (goal none; a turn's end not said once a later move is, is settled by the next turn, as
  the queue means it, and counted apart); every phone turn's end heard (goal all); decisive moves (a card played to
  the pile, a Neigh, an Instant, a destroy or steal: `words.kinds.is_decisive`) heard in full (goal all); moves
  heard out of the order recorded (goal none);
- the win: the winning key or tap to the first sound of the sentence that says it (goal 1.0 s).
- the table's questions said after their answer (a move recorded between the reply that asked and the sentence
  that says the question; goal none: issue 107), in every set-up.
- each phone move said by both voices (hers or her reader's, and the table voice's), and of those said by both at
  once (in plain mode beside her reader: its printed line read while the table voice said it; goal none where the
  table voice is on); in plain mode, the phone moves printed for her reader, whether or not her next Enter stopped
  it before it read them (each one her reader would say while the table voice says it too).
- the phones' taps: dead buttons tapped, a tap on a button whose move the table no longer allows (goal none), and
  the moves the table answered refused or stale; every save "instead" asked of the card's owner on their own phone
  (goal all: Ben's Black Knight Unicorn may save the card Cy destroys in the Unstable Unicorns game).
- the two voices: the seconds hers and the table's played at once, and of those the seconds both were in the middle
  (goal none); each voice's median pitch and words a minute **measured in the sound it played**
  (`benchmarks/voice_measure.py`: her screen reader's stand-in's messages heard to their end, with her questions
  asked once more after the game, each heard to its end (`_heard_whole`), or the own voice's sentences played
  whole; the table voice's sentences played whole, as handed to the mixer: the mixer's one stream adds both
  voices, so one voice cannot be cut out of it where they overlap), and the table voice's over
  hers (goal pitch 1.3 times or more, or 0.77 or less; rate 1.3 times or more).
Each game is played in every set-up of `--setups` in the same run (`SETUPS`; by default `DEFAULT_SETUPS`): her own
voice with the table's voice (the defaults), her screen reader (a real speech-dispatcher standing for it) with the
table's voice, one voice, the plain line mode beside her screen reader (`PlainReader`: its printed lines read by
the reader's stand-in) with the table's voice; and, asked for, the Windows and macOS paths with stand-ins for NVDA
and VoiceOver (NVDA in one voice too), and the player processes before the app's mixer (aplay). Exits 1 when a
goal is missed in any set-up but that last one.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from assistant.core.text import split_sentences
from assistant.core.words.share import new_phone_asks
from benchmarks import logs
from benchmarks.share import CHROMIUM, CHROMIUM_ARGS, SHARED, free_port
from benchmarks.table_pace import App, heard_in_full

ME = "Ana"
PHONES = ("Ben", "Cy", "Dee")
#: What Ana asks between her own moves, in turn.
ASKS = ("tally", "pile", "turn", "stable Ben", "stable Cy")
#: Goals (issue 87): Enter to her key's own words, p90; a phone's tap to the first audio of its move while something
#: is said (both voices on) and in silence, p90; with one voice, every move (max); the table voice apart from hers.
OWN_GOAL_MS = 150.0
MOVE_GOAL_MS = 1000.0
IDLE_GOAL_MS = 250.0
ONE_VOICE_GOAL_MS = 10_000.0
#: One voice with other hands' words at her pause (issue 107): a move's earcon at its player's seat, from the tap, p90.
EARCON_GOAL_MS = 500.0
WIN_GOAL_MS = 1000.0
PITCH_APART = 1.3
RATE_APART = 1.3
#: A second Neigh or Instant after the first.
AT_ONCE_S = 0.05


class Step(NamedTuple):
    """One move: Ana's line typed, or a phone's: ("tap", verb), ("card", verb, search, name), ("table", verb, card),
    ("target", verb, search, name, player), ("save", "yes" or "no", mover): the card's owner answers the save its
    phone is asked (the move recorded then is the mover's)."""

    who: str
    act: tuple[str, ...]
    at_once: bool = False


def _ana(*lines: str) -> list[Step]:
    return [Step(ME, (line,)) for line in lines]


def _turn(player: str, *acts: tuple[str, ...]) -> list[Step]:
    return [Step(player, act) for act in acts]


DRAW, RESOLVE, END = ("tap", "draw"), ("tap", "resolve"), ("tap", "end")

UNICORNS = [
    *_ana("new game Ana Ben Cy Dee win 3", "bring black knight unicorn into Ben", "draw", "play basic red"),
    Step("Ben", ("tap", "neigh")), Step("Cy", ("tap", "neigh"), at_once=True),
    *_ana("resolve", "resolve", "end turn"),
    *_turn("Ben", DRAW, ("card", "play", "orange", "Basic Unicorn (Orange)"), RESOLVE, END),
    *_turn("Cy", DRAW, ("card", "play", "poison", "Unicorn Poison"), RESOLVE,
           ("table", "destroy", "Basic Unicorn (Orange)")),
    Step("Ben", ("save", "no", "Cy")),  # Ben's Black Knight Unicorn may save his card: Ben's phone is asked
    *_turn("Cy", RESOLVE, END),
    *_turn("Dee", DRAW, ("card", "play", "yellow", "Basic Unicorn (Yellow)")),
    Step("Ben", ("tap", "super-neigh")),
    *_turn("Dee", RESOLVE, END),
    *_ana("draw", "play basic green", "resolve", "end turn"),
    *_turn("Ben", DRAW, ("card", "play", "blue", "Basic Unicorn (Blue)"), RESOLVE, END),
    *_turn("Cy", DRAW, ("card", "play", "indigo", "Basic Unicorn (Indigo)")),
    Step("Dee", ("tap", "neigh")), Step("Ben", ("tap", "neigh"), at_once=True),
    *_turn("Cy", RESOLVE, RESOLVE, END),
    *_turn("Dee", DRAW, END),
    *_ana("draw", "play basic purple", "resolve"),
]  # fmt: skip
LLAMAS = [
    *_ana("new game Ana Ben Cy Dee deck llamas addon llamas-farmed win 3", "draw", "play henry huarizo", "resolve",
          "end turn"),
    *_turn("Ben", DRAW, ("card", "play", "llamacorn", "Magical Llamacorn")),
    Step("Cy", ("card", "instant", "spit", "Spit Happens")),
    *_turn("Ben", RESOLVE, END),
    *_turn("Cy", DRAW, ("card", "play", "mother", "Mother Goat")),
    Step("Dee", ("card", "instant", "sundheit", "Goatsundheit")),
    Step("Ben", ("card", "instant", "llama stop", "Llama Stop You Right There"), at_once=True),
    *_turn("Cy", RESOLVE, RESOLVE),
    Step("Ben", DRAW),
    *_turn("Cy", RESOLVE, ("target", "bring", "baby goat", "Baby Goat", "Cy"), RESOLVE, END),
    *_turn("Dee", DRAW, ("card", "play", "basic llama", "Basic Llama"), RESOLVE, END),
    *_ana("draw", "play basic alpaca", "resolve", "end turn"),
    *_turn("Ben", DRAW, END),
    *_turn("Cy", DRAW, ("card", "play", "basic goat", "Basic Goat"), RESOLVE),
]  # fmt: skip
GAMES = {
    "uu-2nd": ("uu-2nd", (), UNICORNS),
    "llamas": ("llamas", ("llamas-farmed",), LLAMAS),
    # The smoke run (`--smoke`): her first keys and one phone's Neigh.
    "smoke": ("uu-2nd", (), UNICORNS[:5]),
}
#: The games a whole run plays.
WHOLE = ["uu-2nd", "llamas"]
#: Seconds between one phone's move and the next (or the next after hers), drawn from `--seed`.
GAPS = (2.0, 5.0)
#: The smoke run's: its phone's one move comes sooner, and both voices speak at their fastest (what a smoke run
#: waits for is mostly the greeting, the new game and the joins being said).
SMOKE_GAPS = (0.5, 1.5)
SMOKE_SPEECH = {"rate": 100, "table_rate": 100}


class Setup(NamedTuple):
    """One way the player hears the table."""

    title: str
    settings: dict[str, Any]
    """The settings over the benchmark's own (`pty_start.write_settings`)."""
    reader: bool = False
    """Her replies through a speech-dispatcher standing for her screen reader (`capture.ReaderStandIn`)."""
    platform: str = ""
    """Windows ("win32") or macOS ("darwin") simulated: the app takes itself for that platform, its engines replaced
    by stand-ins that keep that platform's limits: her screen reader (NVDA, VoiceOver) a reader that queues what it is
    given and never says when it finished, the system voice (SAPI5, NSSpeechSynthesizer) not here, so espeak-ng
    renders the table's voice; what plays is the app's mixer, as there."""
    plain: bool = False
    """The plain line mode (`--plain`) beside her screen reader: its printed lines read by her reader's stand-in as a
    screen reader reads a terminal (`PlainReader`), the table voice through the app's mixer."""
    bursts: bool = False
    """She types in bursts (`BURST_KEYS` keys a burst, a key every `--interval` seconds) and pauses `PAUSES_S`
    between them, as a player does who thinks, rather than a key every `--interval` seconds all game."""


MIXER = {"player": "sounddevice"}
READER = {"speech": "screen-reader", "player": "sounddevice"}
SETUPS = {
    "own": Setup("her own voice and the table voice", {**MIXER, "speech": "own-voice"}),
    "reader": Setup("her screen reader (speech-dispatcher) and the table voice", READER, reader=True),
    "one": Setup("one voice", {**MIXER, "speech": "own-voice", "table_voice": False}),
    "one-bursts": Setup(
        "one voice, her keys in bursts, pauses of 2 to 5 s",
        {**MIXER, "speech": "own-voice", "table_voice": False},
        bursts=True,
    ),
    # one voice with other hands' words said in turn while she types (`others_at_pause = false`: as before issue 107)
    "one-in-turn": Setup(
        "one voice, others' words in turn",
        {**MIXER, "speech": "own-voice", "table_voice": False, "others_at_pause": False},
    ),
    "one-in-turn-bursts": Setup(
        "one voice, others' words in turn, her keys in bursts",
        {**MIXER, "speech": "own-voice", "table_voice": False, "others_at_pause": False},
        bursts=True,
    ),
    "plain": Setup("plain mode beside her screen reader, and the table voice", READER, reader=True, plain=True),
    # (their system voices are not here: espeak-ng renders the table voice, whatever `--backend` says)
    "windows": Setup(
        "Windows stand-ins: NVDA and the table voice", {**READER, "backend": "espeak-ng"}, reader=True, platform="win32"
    ),
    # one voice through the Windows stand-in: other hands' words in her reader too, after her replies (issue 107)
    "windows-one": Setup(
        "Windows stand-ins: NVDA, one voice",
        {**READER, "backend": "espeak-ng", "table_voice": False},
        reader=True,
        platform="win32",
    ),
    "macos": Setup(
        "macOS stand-ins: VoiceOver and the table voice",
        {**READER, "backend": "espeak-ng"},
        reader=True,
        platform="darwin",
    ),
    "aplay": Setup("before: a player process per sentence, two voices", {"speech": "own-voice", "player": "aplay"}),
}
#: The set-ups a whole run plays, side by side (issue 87): the defaults, her screen reader, one voice, plain mode.
DEFAULT_SETUPS = ["own", "reader", "one", "one-bursts", "plain"]
#: Her bursts (`Setup.bursts`): keys a burst, and the pause after one, in seconds (issue 107: 2 to 5 s).
BURST_KEYS = (3, 6)
PAUSES_S = (2.0, 5.0)
#: Each platform's screen reader, as the stand-in calls itself.
READERS = {"win32": "NVDA", "darwin": "VoiceOver"}


class StandInReader:
    """An accessible_output2 output standing for NVDA or VoiceOver: it hands each text to the speech-dispatcher
    standing for her reader and returns at once, and says nothing of when it finished (as they do)."""

    def __init__(self, name: str) -> None:
        import speechd

        self.name = name
        self.client = speechd.SSIPClient("stand-in", autospawn=False)

    def is_system_output(self) -> bool:
        return False

    def is_active(self) -> bool:
        return True

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.client.speak(text)

    def silence(self) -> None:
        self.client.cancel()


def child(log: str, game: str, address: str, setup: str) -> int:
    import functools

    import assistant.speech as speech
    from benchmarks.table_pace import child as noting_child

    platform = SETUPS[setup].platform
    if platform:  # the app as it runs on that platform, with the stand-ins
        from assistant.speech.readers import ScreenReaderBackend

        reader = READERS[platform]
        make_speaker = speech.make_speaker

        def stand_in() -> ScreenReaderBackend:
            return ScreenReaderBackend(loader=lambda: [StandInReader(reader)])

        speech.make_speaker = functools.partial(make_speaker, platform=platform, reader_backend=stand_in)  # type: ignore[assignment]
        speech.speech_route = lambda *args, **kwargs: (speech.SCREEN_READER, reader)  # type: ignore[assignment]
    _note_sounds(Path(log).with_name("sounds.jsonl"))
    _note_earcons(Path(log).with_name("earcons.jsonl"))
    if SETUPS[setup].plain:
        _note_plain_replies(log)
    deck, addons, _ = GAMES[game]
    arguments = ["--deck", deck, *(f"--addon={a}" for a in addons), "--share", address]
    arguments += ["--plain"] if SETUPS[setup].plain else []
    return noting_child(log, arguments, paced=SETUPS[setup].settings.get("player") == "aplay")


def _note_sounds(path: Path) -> None:
    """Keep each sentence's sound as it is handed to its player (the app's mixer, or aplay), with its words, its
    voice ("hers" or "table") and whether it played to its end, in `path` (one JSON line each): the voices are
    measured in it (`benchmarks/voice_measure.py`). Installed before the wrapper of `table_pace.child`, which wraps
    these in turn."""
    import itertools
    import threading

    import assistant.speech as speech
    from assistant.speech import backends

    folder = path.with_name("sounds")
    folder.mkdir(parents=True, exist_ok=True)
    lock, kept, counter = threading.Lock(), {}, itertools.count()
    start, wait, table_voice = backends.WavBackend._start, backends.WavBackend._wait, speech._table_voice

    def marking_table_voice(*args, **kwargs):  # type: ignore[no-untyped-def]
        table = table_voice(*args, **kwargs)
        for backend in table_backends(table):
            backend.bench_voice = "table"
        return table

    def keeping_start(self, player, wav, wanted, label):  # type: ignore[no-untyped-def]
        process = start(self, player, wav, wanted, label)
        if process is not None and not (label.startswith("[") and label.endswith("]")):  # (an earcon's label)
            copy = folder / f"{next(counter)}.wav"
            try:
                shutil.copyfile(wav, copy)
            except OSError:
                return process
            kept[id(process)] = {"voice": getattr(self, "bench_voice", "hers"), "text": label, "sound": str(copy)}
        return process

    def keeping_wait(self, process, player):  # type: ignore[no-untyped-def]
        wait(self, process, player)
        record = kept.pop(id(process), None)
        if record is not None:
            with lock, path.open("a", encoding="utf-8") as out:
                out.write(logs.dumps({**record, "whole": process.returncode == 0}) + "\n")

    speech._table_voice = marking_table_voice  # type: ignore[assignment]
    backends.WavBackend._start = keeping_start  # type: ignore[method-assign]
    backends.WavBackend._wait = keeping_wait  # type: ignore[method-assign]


def table_backends(table: Any) -> list[Any]:
    """The backends the table voice's speech service may say its sentences with (its worker's candidates), to mark
    their sounds as the table voice's; none where there is no table voice."""
    return list(getattr(getattr(table, "_worker", None), "_candidates", []))


def _note_earcons(path: Path) -> None:
    """Note each earcon of a move held to her pause (one voice) as it is handed to the earcon channel, with the
    moves it stands for by their place in the log, in `path` (one JSON line each): the channel's thread starts it on
    the app's mixer at once, its first sample due within the mixer's lead (`mixer.LEAD_S`, 60 ms)."""
    import threading

    from assistant.core.game.about import Topic
    from assistant.speech.worker import SpeechWorker

    lock, known = threading.Lock(), SpeechWorker.known_at_once

    def noting(self, utterance):  # type: ignore[no-untyped-def]
        moves = [p.at for f in (*utterance.tells, *utterance.folded) for p in f.flat() if p.topic is Topic.MOVE]
        with lock, path.open("a", encoding="utf-8") as out:
            out.write(logs.dumps({"at": time.perf_counter(), "moves": moves}) + "\n")
        return known(self, utterance)

    SpeechWorker.known_at_once = noting  # type: ignore[method-assign]


def _note_plain_replies(log: str) -> None:
    """The plain mode's replies noted as the Textual app's are (`table_pace.child`, "shown"), with the lines it
    prints (what her screen reader reads)."""
    import threading

    import assistant.ui.plain as plain
    from assistant.core.game.about import Topic

    show, lock = plain._Shown.show, threading.Lock()

    def noting_show(self, reply):  # type: ignore[no-untyped-def]
        moves = {p.at: [p.player, p.move] for t in reply.tells for p in t.flat() if p.topic is Topic.MOVE}
        record = {"shown": time.perf_counter(), "own": reply.origin.own_key, "speech": reply.speech,
                  "lines": list(reply.lines), "moves": moves,
                  "win": any(f.topic is Topic.WIN for f in reply.facts)}  # fmt: skip
        with lock, open(log, "a", encoding="utf-8") as out:
            out.write(logs.dumps(record) + "\n")
        return show(self, reply)

    plain._Shown.show = noting_show  # type: ignore[method-assign]


class PlainReader:
    """Her screen reader at the plain mode's terminal: each line the app prints, as it comes, is given to the
    speech-dispatcher standing for her reader (`capture.ReaderStandIn`), one message a line, queued as a screen reader
    queues new text; her Enter stops what it is saying first, as Orca, Speakup and NVDA stop speech on a key. What
    she types is not read back (the prompt and the typed line it echoes), nor the terminal's control sequences."""

    CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|[\x00-\x08\x0b-\x1f\x7f]")

    def __init__(self, socket: Path) -> None:
        import threading

        import speechd

        self.client = speechd.SSIPClient("plain-reader", socket_path=str(socket), autospawn=False)
        self.lock = threading.Lock()
        self.pending = ""
        self.typed: list[str] = []
        self.given: list[str] = []
        """Every line handed to her reader, in order (what it says unless her Enter stops it first)."""

    def keyed(self, line: str) -> None:
        """Her line is about to be typed and sent: its echo is not read, and its Enter stops the speech."""
        with self.lock:
            self.typed = [*self.typed[-20:], line.strip()]

    def enter(self) -> None:
        with self.lock:
            self.client.cancel()

    def output(self, chunk: bytes) -> None:
        """What the app wrote to the terminal: each whole line read."""
        text = chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
        with self.lock:
            self.pending += text
            *lines, self.pending = self.pending.split("\n")
            for line in lines:
                words = self._words(line)
                if words:
                    self.given.append(words)
                    self.client.speak(words)

    def _words(self, line: str) -> str:
        """A printed line as read: control sequences and a carriage return's overwritten part gone, the prompt and
        an echo of her own typing left out."""
        drawn = [part for part in line.split("\r") if self.CONTROL.sub("", part).strip()]
        line = self.CONTROL.sub("", drawn[-1]).strip() if drawn else ""
        while line.startswith(">"):  # the prompt, and what is printed after it while it waits
            line = line[1:].strip()
        return "" if line in self.typed else line

    def close(self) -> None:
        with self.lock:
            self.client.close()


class Phones:
    """Ben's, Cy's and Dee's phones: phone-sized pages in one chromium, joined by the code, each let in by the host
    (`admit`, the laptop's `share allow`). Each tap is checked as it is made: a tap on a button whose move the table
    no longer allows (not in the view's `may`, or marked unavailable) is a dead button tapped; a destroy that offers a
    save is counted, and whether the card's owner is the one asked (their page shows "Save it")."""

    def __init__(self, playwright: Any, address: str, code: str, admit: Any, players: tuple[str, ...] = PHONES) -> None:
        self.browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        self.pages: dict[str, Any] = {}
        self.requests: list[tuple[str, Any, float]] = []
        """Each move sent, in order: the player, the request, and the moment before its last click."""
        self.dead: list[str] = []
        """Each tap on a button whose move was not allowed any more: the player and the verb."""
        self.refused: list[str] = []
        """Each move the table answered refused or stale (the page showed a move it could not make)."""
        self.saves_asked = 0
        """Destroys that offered a save "instead" (the mover's phone told the owner is asked, or asked itself)."""
        self.saves_asked_of_owner = 0
        """Of those, the saves the card's owner was asked on their own phone ("Save it", "Do not save it"), and
        the mover's phone not."""
        for player in players:
            page = self.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
            page.goto(f"{address}/?code={code}")
            page.locator("#code-button").click()
            page.locator("#players-to-choose button", has_text=player).first.click()
            admit(player)
            page.locator("#turn").wait_for(state="visible", timeout=60_000)
            self.pages[player] = page

    def _dead(self, page: Any, button: Any, verb: str) -> bool:
        """Whether the move of the button about to be tapped is no longer allowed: not in the table's `may` for this
        phone now (asked of the server, as the page's stream would tell it), or the button marked unavailable."""
        view = page.evaluate("async () => (await (await fetch('/api/state')).json())")
        may = (view.get("game") or {}).get("may", [])
        return verb not in may or button.get_attribute("aria-disabled") == "true"

    def act(self, player: str, act: tuple[str, ...]) -> None:
        """The move made as a player makes it: its button, then the card searched or chosen; the last click sends
        it."""
        page = self.pages[player]
        kind, verb = act[0], act[1]
        if kind == "save":
            self._save(player, verb == "yes", act[2])
            return
        button = page.locator(f'#verbs button[data-verb="{verb}"]')
        button.wait_for(state="visible", timeout=30_000)
        if self._dead(page, button, verb):
            self.dead.append(f"{player} {verb}")
            button.click(force=True)  # (it sends nothing: the page says why)
            return
        last = button
        if kind != "tap":
            button.click()
        if kind in ("card", "target"):
            page.locator("#search").fill(act[2])
            last = page.locator("#search-results button", has_text=act[3]).first
        elif kind == "table":
            last = page.locator("#table-choices button", has_text=act[2]).first
        if kind == "target":
            last.click()
            last = page.locator("#target-choices button", has_text=act[4]).first
        last.wait_for(state="visible", timeout=30_000)
        began = time.perf_counter()
        with page.expect_request("**/api/move") as sent:
            last.click()
        self.requests.append((player, sent.value, began))
        response = sent.value.response()
        body = response.json() if response is not None and response.status in (200, 409) else {}
        if response is not None and response.status == 409 or body.get("status") in ("refused", "stale"):
            self.refused.append(f"{player} {verb}")
        if body.get("status") == "asked" or (body.get("status") == "warning" and body.get("labels")):
            self.saves_asked += 1

    def _save(self, owner: str, yes: bool, mover: str) -> None:
        """The card's owner answers the save on their phone; the answer's tap stands for the mover's move (the move
        is recorded when the owner answers)."""
        from assistant.core.words.share import SAVE_LABELS

        page = self.pages[owner]
        heading = page.locator("#warning-heading")
        try:
            heading.wait_for(state="visible", timeout=10_000)
            asked = heading.inner_text() == SAVE_LABELS["heading"]
        except Exception:  # (never asked on the owner's phone: counted as such)
            asked = False
        if asked and self.pages[mover].locator("#warning").is_hidden():
            self.saves_asked_of_owner += 1
        if not asked:
            return
        began = time.perf_counter()
        with page.expect_request("**/api/answer") as sent:
            page.locator("#warning-yes" if yes else "#warning-no").click()
        self.requests.append((mover, sent.value, began))

    def sent_at(self) -> list[tuple[str, float]]:
        """Each move's player and the moment its request left the browser (the browser's own timing, on this
        process's clock; the moment of the click where the browser has none)."""
        wall_minus_perf = time.time() - time.perf_counter()
        out = []
        for player, request, began in self.requests:
            try:
                request.response()
                start = request.timing["startTime"]
                out.append((player, start / 1000 - wall_minus_perf if start > 0 else began))
            except Exception:  # (a request that never had an answer: its click stands for it)
                out.append((player, began))
        return out

    def close(self) -> None:
        self.browser.close()


def play(
    folder: Path, backend: str, game: str, interval: float, seed: int, setup: str, smoke: bool = False
) -> dict[str, Any]:
    """One game: the phones' moves 2 to 5 s apart, Ana's keys every `interval` seconds, heard as `setup` says
    (`SETUPS`); only the phones of the players who move in it join. The figures. `smoke`: `SMOKE_GAPS` apart,
    `SMOKE_SPEECH`."""
    from playwright.sync_api import sync_playwright

    from benchmarks.capture import AlsaCapture, ReaderStandIn

    steps = GAMES[game][2]
    rng = random.Random(f"{seed}-{game}")
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "played.jsonl"
    address = f"127.0.0.1:{free_port()}"
    how = SETUPS[setup]
    capture = AlsaCapture(folder / "capture")
    reader = ReaderStandIn(capture, folder / "reader") if how.reader else None
    environ = {**reader.environ, "TABLE_ASSISTANT_SCREEN_READER": "Orca"} if reader else {}
    command = ["benchmarks.table_hands", "--child", str(log), "--game", game, "--share", address, "--setup", setup]
    settings = {k: v for k, v in how.settings.items() if k != "table_voice"} | (SMOKE_SPEECH if smoke else {})
    gaps = SMOKE_GAPS if smoke else GAPS
    players = tuple(p for p in PHONES if any(step.who == p for step in steps))
    table_voice = how.settings.get("table_voice", True)
    plain = PlainReader(reader.socket) if how.plain and reader is not None else None
    terminal: dict[str, Any] = {"drawn_when": b"plain mode", "output": plain.output} if plain else {}
    app = App(folder, backend, "normal", game, command, table_voice, capture=capture, settings=settings,
              environ=environ, **terminal)  # fmt: skip
    app.plain_reader = plain  # type: ignore[attr-defined]
    keys: list[float] = []
    said: list[dict] = []
    try:
        app.ready()
        link = _shared(app)
        _type(app, steps[0].act[0], keys)  # the new game, before the phones join
        app.quiet()
        with sync_playwright() as playwright:
            phones = Phones(playwright, *link, admit=lambda player: _admit(app, player, keys), players=players)
            try:
                app.quiet()
                began, game_keys = len(app.records()), len(keys)  # (the new game and the joins before)
                asks, at, now = 0, 1, time.perf_counter()
                next_key, due = now + interval, now + rng.uniform(*gaps)
                pace = random.Random(f"{seed}-{game}-keys")  # (her bursts: their own draws, the phones' unchanged)
                burst = pace.randint(*BURST_KEYS)
                while at < len(steps):
                    step, now = steps[at], time.perf_counter()
                    if step.who != ME and now >= due:
                        phones.act(step.who, step.act)
                        at += 1
                        at_once = at < len(steps) and steps[at].at_once
                        due = time.perf_counter() + (AT_ONCE_S if at_once else rng.uniform(*gaps))
                    elif now >= next_key:  # her key: her move when it is hers, else what she asks
                        if step.who == ME:
                            _type(app, step.act[0], keys)
                            at += 1
                            due = time.perf_counter() + rng.uniform(*gaps)  # the next phone's move after hers
                        else:
                            _type(app, ASKS[asks % len(ASKS)], keys)
                            asks += 1
                        next_key = max(next_key, now) + interval
                        burst -= 1
                        if how.bursts and burst <= 0:  # she stops to think
                            next_key += pace.uniform(*PAUSES_S) - interval
                            burst = pace.randint(*BURST_KEYS)
                    else:
                        time.sleep(max(0.0, min(next_key, due if step.who != ME else next_key) - now))
                app.done_speaking(max(keys[-1], phones.requests[-1][2] if phones.requests else 0.0))
                taps = phones.sent_at()
                taps_checked = {"dead_buttons_tapped": phones.dead, "moves_refused": phones.refused,
                                "saves_asked": phones.saves_asked,
                                "saves_asked_of_owner": phones.saves_asked_of_owner}  # fmt: skip
            finally:
                phones.close()
        if reader is not None:
            _reader_quiet(app, reader, since=keys[-1])  # (one voice: the words held to her pause, handed after it)
        records = app.records()[began:]
        handed = list(plain.given) if plain is not None else []  # (her reader's lines in the game)
        first_bytes = list(app.first_bytes.times)
        calm = time.perf_counter()
        if reader is not None:
            _heard_whole(app, reader)
        said = reader.said() if reader else []
    finally:
        app.close()
        if plain is not None:
            plain.close()
        if reader is not None:
            reader.close()
    offset = time.time() - time.perf_counter()  # (the reader's stand-in notes wall-clock times)
    kept = {"keys": keys, "game_keys_from": game_keys, "taps": taps, "wall_minus_perf": offset}
    (folder / "keys.json").write_text(logs.dumps(kept))
    in_game = [message for message in said if message["start"] < calm]
    heard = plain_records(records, in_game) if plain else [*records, *reader_records(records, in_game)]
    figures = measure(heard, first_bytes, keys, taps, _read_lines(folder / "earcons.jsonl"))
    if plain is not None:  # (whether or not her next Enter stopped her reader before it began them)
        figures["moves_printed_for_her_reader"] = _printed_for_her_reader(records, handed)
    if not table_voice:
        figures["one_voice_bound"] = one_voice_bound(records, keys[game_keys:])
    voices = measure_voices(folder / "sounds.jsonl", said if reader else None, two=table_voice)
    return {"game": game, "setup": setup, "interval_s": interval, "seed": seed, "backend": backend, **figures,
            **voices, **taps_checked}  # fmt: skip


#: Seconds her screen reader's stand-in begins nothing before the game's speech counts as over (`_reader_quiet`).
READER_QUIET_S = 1.5


#: At most this many sentences of a voice are measured (evenly drawn from the run): enough for a median.
VOICE_SENTENCES = 80


def measure_voices(sounds: Path, said: list[dict] | None, *, two: bool) -> dict[str, Any]:
    """Each voice measured in the sound it played (`benchmarks/voice_measure.py`): her voice in her screen reader's
    messages heard to their end (`said`), or in the app's own voice's sentences played whole; the table voice in its
    sentences played whole; and the table voice's pitch and rate over hers (None where it has no voice)."""
    from dataclasses import asdict

    from benchmarks.voice_measure import measure_voice

    played = [logs_line for logs_line in _read_lines(sounds) if logs_line["whole"]]
    if said is not None:
        hers = [(m["text"], Path(m["sound"])) for m in said if m.get("sound")]
    else:
        hers = [(r["text"], Path(r["sound"])) for r in played if r["voice"] == "hers"]
    table = [(r["text"], Path(r["sound"])) for r in played if r["voice"] == "table"] if two else []

    def drawn(sentences: list[tuple[str, Path]]) -> list[tuple[str, Path]]:
        step = max(1, len(sentences) // VOICE_SENTENCES)
        return sentences[::step][:VOICE_SENTENCES]

    her, its = measure_voice(drawn(hers)), measure_voice(drawn(table))
    pitch = round(its.pitch_hz / her.pitch_hz, 2) if its.pitch_hz and her.pitch_hz else None
    faster = its.words_per_minute and her.words_per_minute
    rate = round(its.words_per_minute / her.words_per_minute, 2) if faster else None  # type: ignore[operator]
    return {"her_voice": asdict(her), "table_voice": asdict(its) if two else None, "pitch_ratio": pitch,
            "rate_ratio": rate}  # fmt: skip


def _read_lines(path: Path) -> list[dict]:
    import json

    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def plain_records(records: list[dict], said: list[dict]) -> list[dict]:
    """The plain mode's log as heard: her screen reader's messages (each a line the app printed, or a sentence of it:
    speech-dispatcher's module says a long text sentence by sentence) as utterances of her voice and sentences
    played, each carrying the reply that printed it (the latest shown before it began with those words: its moves,
    its win); the silent speaker's utterances left out (beside her reader the plain mode says
    nothing itself). The table voice's utterances and sentences stay as noted."""
    shown = [r for r in records if "shown" in r]
    out = [r for r in records if not ("full" in r and r.get("voice", "hers") == "hers")]
    questions = {r["question"] for r in records if "full" in r and r.get("question")}  # (the silent speaker's too)
    for n, message in enumerate(said):
        words = message["text"].strip()
        reply = next((r for r in reversed(shown) if r["shown"] <= message["start"] + 0.05
                      and any(words in line for line in r.get("lines", []))), None)  # fmt: skip
        if reply is None:  # (the greeting, the app's notes)
            continue
        number, moves = -1 - n, [int(at) for at in reply["moves"]]
        topic = "win" if reply["win"] else "move" if moves else "reply"
        asked = next((question for question in questions if question in words), None)
        out.append(
            {
                **({"question": asked} if asked else {}),
                "utterance": number,
                "given": message["start"],
                "full": words,
                "other": not reply["own"],
                "voice": "hers",
                "reply_shown": reply["shown"],
                "own_from": 0,
                "pieces": [{"topic": topic, "moves": moves, "start": 0, "end": None, "decisive": False}],
            }
        )
        following = said[n + 1]["start"] if n + 1 < len(said) else message["start"] + message["seconds"]
        end = message["end"] if message["end"] is not None else min(following, message["start"] + message["seconds"])
        out.append({"text": words, "start": message["start"], "end": end, "audio": message["start"],
                    "seconds": message["seconds"], "whole": message["end"] is not None, "of": number,
                    "place": 0.0})  # fmt: skip
    return out


def reader_records(records: list[dict], said: list[dict]) -> list[dict]:
    """The messages her screen reader's stand-in said, as sentences played: each of her utterances whose words hold
    it (the latest one given before it began), its first audio byte as it began to play, cut where no end was noted
    (then it ended where the next began)."""
    hers = [r for r in records if "full" in r and r.get("voice", "hers") == "hers"]
    out = []
    for n, message in enumerate(said):
        words = message["text"].strip()
        # (the stand-in's times are the wall clock's, turned into this clock's: a few milliseconds apart at most)
        owner = next((u for u in reversed(hers) if u["given"] <= message["start"] + 0.05 and words in u["full"]), None)
        if owner is None:
            continue
        following = said[n + 1]["start"] if n + 1 < len(said) else message["start"] + message["seconds"]
        end = message["end"] if message["end"] is not None else min(following, message["start"] + message["seconds"])
        for _ in split_sentences(message["text"])[:1]:  # (a whole utterance given at once: its first sentence first)
            out.append({"text": message["text"], "start": message["start"], "end": end, "audio": message["start"],
                        "seconds": message["seconds"], "whole": message["end"] is not None, "of": owner["utterance"],
                        "place": 0.0})  # fmt: skip
    return out


def _shared(app: App) -> tuple[str, str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for record in app.records():
            found = SHARED.search(record.get("full", ""))
            if found:
                return found[1], found[2].replace(" ", "")
        time.sleep(0.1)
    raise SystemExit("The app never said where the table is shared (60 s).")


def _admit(app: App, player: str, keys: list[float]) -> None:
    """The host lets the phone that waits to join as `player` in (`share allow NAME`, typed on the laptop)."""
    deadline = time.monotonic() + 30
    asked = new_phone_asks(player, "")[: -len(" Let it in?") - 1]  # (then the short name the phone shows)
    while time.monotonic() < deadline and not any(asked in r.get("full", "") for r in app.records()):
        time.sleep(0.05)  # (the app's own process: its question is waited for, then answered)
    _type(app, f"share allow {player}", keys)


def _type(app: App, line: str, keys: list[float]) -> None:
    """A line typed fast, then Enter; the moment of Enter noted (her screen reader at the plain mode's terminal
    stops its speech on it: `PlainReader`)."""
    plain: PlainReader | None = getattr(app, "plain_reader", None)
    if plain is not None:
        plain.keyed(line)
    app.type(line)
    if plain is not None:
        plain.enter()
    keys.append(app.last_key(line))


#: Seconds her screen reader may take to say the answer to one of `_heard_whole`'s questions.
HEARD_WHOLE_S = 15.0


def _reader_quiet(app: App, reader: Any, since: float, longest: float = 120.0) -> None:
    """Wait until the app is done with all it was given after her last key (`since`) and past her pause, then until
    her screen reader's stand-in has begun nothing for `READER_QUIET_S` after the end of what it began (at most
    `longest` seconds). The app is done with an utterance once it is handed (in one voice, held as long as a reader
    takes to say it), but the reader may still be saying it; in one voice the words held to her pause are handed only
    `PAUSE_S` after her last key; and a message being played has no length noted yet (its longest,
    `reader_may_take`, counts). Before, the game's figures ended before the words held to her pause, and a Unicorns
    game through the Windows stand-in counted 17 of 23 moves never heard."""
    from assistant.core.speech.queue import PAUSE_S
    from assistant.core.speech.utterance import reader_may_take

    while time.perf_counter() < since + PAUSE_S:
        time.sleep(0.1)
    app.quiet()
    began = time.perf_counter()
    while time.perf_counter() - began < longest:
        time.sleep(0.2)
        after = [message for message in reader.said() if message["start"] >= since]
        done = max((m["start"] + (m["seconds"] or reader_may_take(m["text"])) for m in after), default=since)
        if time.perf_counter() - done > READER_QUIET_S:
            return


def _heard_whole(app: App, reader: Any) -> None:
    """After the game, her questions once more (`ASKS`), each said by her screen reader to its end before the next:
    her reader's voice is measured on messages heard to their end (`measure_voices`), and at a key every 1.2 s her
    Enter stops nearly all of them (in plain mode one to three a game). Not counted in the game's figures."""
    for line in ASKS:
        typed = time.perf_counter()
        _type(app, line, [])
        while time.perf_counter() < typed + HEARD_WHOLE_S:
            time.sleep(0.2)
            answer = [message for message in reader.said() if message["start"] >= typed]
            ends = [message["end"] for message in answer]
            if answer and None not in ends and time.perf_counter() - max(ends) > 1.0:
                break


def _says_reply(full: str, speech: str) -> bool:
    """Whether an utterance's words (`full`) say a reply of hers (`speech`): whole, with what was folded before it,
    or without the table's question at its end, which a move recorded between her key and the reply's turn to be
    said closed (`SpeechQueue.closed_by`: before, such a reply counted as never heard)."""
    full, speech = full.strip(), speech.strip()
    return speech in full or (bool(full) and speech.startswith(full))


def measure(
    records: list[dict],
    first_bytes: list[float],
    keys: list[float],
    taps: list[tuple[str, float]],
    earcons: list[dict] | None = None,
) -> dict:
    """The figures from the run's log: replies shown, utterances begun and sentences played; `earcons`: each
    move's earcon played at once in one voice while she typed (`_note_earcons`), from the tap."""
    from assistant.core.game.about import MoveKind
    from assistant.core.words.kinds import KINDS

    shown = [r for r in records if "shown" in r]
    utterances = {r["utterance"]: r for r in records if "full" in r}
    played: dict[int, list[dict]] = {}
    for entry in (r for r in records if "text" in r):
        if "audio" not in entry:  # a player process: the first audio byte of its own opening of the device
            entry["audio"] = min((t for t in first_bytes if entry["start"] - 0.005 <= t <= entry["end"] + 0.1),
                                 default=entry["start"])  # fmt: skip
        entry["heard_whole"] = heard_in_full(entry)
        played.setdefault(entry["of"], []).append(entry)

    def sentences(number: int, start: int, end: int | None) -> list[dict]:
        return [e for i, e in enumerate(played.get(number, [])) if i >= start and (end is None or i < end)]

    # Ana's keys: each own reply shown, its key the last one before it; its own words after what was folded in.
    own_ms, never = [], []
    for reply in (r for r in shown if r["own"] and r["speech"].strip()):
        key = max((k for k in keys if k <= reply["shown"]), default=None)
        if key is None:
            continue
        own = next((u for u in utterances.values() if u["given"] >= reply["shown"] and not u["other"]
                    and (u["reply_shown"] == reply["shown"] if "reply_shown" in u
                         else _says_reply(u["full"], reply["speech"]))), None)  # fmt: skip
        heard = sentences(own["utterance"], own["own_from"], None) if own else []
        if heard:
            own_ms.append((heard[0]["audio"] - key) * 1000)
        else:
            never.append(reply["speech"][:60])
    # The phones' moves: each tap's reply (in the order sent), its moves by their place in the log.
    tapped: dict[int, float] = {}  # each phone move by its place in the log: its player's last tap before it
    ends: set[int] = set()
    decisive: set[int] = set()  # a card played to the pile, a Neigh, an Instant, a destroy or steal...
    for reply in (r for r in shown if not r["own"]):
        for at, (player, kind) in reply["moves"].items():
            sent = [moment for who, moment in taps if who == player and moment <= reply["shown"]]
            if sent:
                tapped[int(at)] = sent[-1]
                move = MoveKind[kind]  # (written by its name: `benchmarks.logs`)
                ends.update([int(at)] if move is MoveKind.END else [])
                decisive.update([int(at)] if KINDS[move].decisive else [])
    first: dict[int, float] = {}
    whole: dict[int, bool] = {}
    for number, utterance in utterances.items():
        for piece in utterance["pieces"]:
            carried = [at for at in piece["moves"] if at in tapped]  # (a move of Ana's own is not a phone's)
            if not carried:
                continue
            said = sentences(number, piece["start"], piece["end"])
            if piece["end"] is None:
                said = said[:1]  # a move of its own words: its first sentence ("Ben played Neigh.")
            for at in carried:
                if said:
                    first[at] = min(first.get(at, said[0]["audio"]), said[0]["audio"])
                    whole[at] = whole.get(at, False) or all(e["heard_whole"] for e in said)
    move_ms = [(first[at] - tapped[at]) * 1000 for at in tapped if at in first]
    twice, twice_at_once = _said_twice(utterances, tapped, sentences)
    # a tap while something is said (either voice, her reader), and one in silence; of the first, while the table
    # voice was saying something (its queue), and while only her voice was (the table voice free). An utterance is
    # being said from the moment its worker took it until it was done with it: a tap while its sound is rendered, or
    # between two of its sentences, is not a tap in silence.
    sounding: dict[str, list[tuple[float, float]]] = {"hers": [], "table": []}
    done = {r["utterance_done"]: r["at"] for r in records if "utterance_done" in r}
    for number, entries in played.items():
        voice = utterances.get(number, {}).get("voice", "hers")
        sounding[voice] += [(e["audio"], max(e["end"], e["audio"])) for e in entries]
        if number in utterances and number in done:
            sounding[voice].append((utterances[number]["given"], done[number]))

    def during(voice: str, at: int) -> bool:
        return any(start <= tapped[at] < end for start, end in sounding[voice])

    heard_ms = {at: (first[at] - tapped[at]) * 1000 for at in tapped if at in first}
    busy_ms = [ms for at, ms in heard_ms.items() if during("table", at) or during("hers", at)]
    table_ms = [ms for at, ms in heard_ms.items() if during("table", at)]
    hers_ms = [ms for at, ms in heard_ms.items() if during("hers", at) and not during("table", at)]
    idle_ms = [ms for at, ms in heard_ms.items() if not during("table", at) and not during("hers", at)]
    # a turn's end not said, a later move said (a phone's, or hers: the next turn may be hers): settled by the next
    # turn (`About.settled_by`), as the queue means
    said_any = {at for u in utterances.values() for p in u["pieces"] for at in p["moves"] if played.get(u["utterance"])}
    settled = [at for at in tapped if at not in first and at in ends and any(later > at for later in said_any)]
    order = [first[at] for at in sorted(first)]
    out_of_order = sum(1 for a, b in zip(order, order[1:]) if b < a - 0.001)
    win_ms = None
    won = next((r for r in shown if r["win"]), None)
    if won is not None:
        moment = max(m for m in [*keys, *(t for _, t in taps)] if m <= won["shown"])
        heard_win = [e["audio"] for number, u in utterances.items() if u["given"] >= won["shown"]
                     for piece in u["pieces"] if piece["topic"] == "win"
                     for e in sentences(number, piece["start"], piece["end"])[:1]]  # fmt: skip
        win_ms = round((min(heard_win) - moment) * 1000, 1) if heard_win else None
    overlap, middle = _overlap(utterances, played)
    earcon_ms = _tap_to_earcon_ms(earcons or [], tapped)
    return {
        "questions_after_their_answer": questions_after_answer(records),
        "earcon_moves": len(earcon_ms),
        "tap_to_earcon_ms": _summary(earcon_ms),
        "overlap_s": overlap,
        "overlap_both_middle_s": middle,
        "own_keys": len(own_ms) + len(never),
        "own_words_ms": _summary(own_ms),
        "own_never_heard": never,
        "phone_moves": len(tapped),
        "phone_taps": len(taps),
        "tap_to_first_audio_ms": _summary(move_ms),
        "tap_to_first_audio_busy_ms": _summary(busy_ms),
        "tap_to_first_audio_idle_ms": _summary(idle_ms),
        "tap_to_first_audio_table_speaking_ms": _summary(table_ms),
        "tap_to_first_audio_only_hers_speaking_ms": _summary(hers_ms),
        "phone_turn_ends": len(ends),
        "phone_turn_ends_heard": len(ends & set(first)),
        "moves_never_heard": len(tapped) - len(first) - len(settled),
        "ends_settled_by_the_next_turn": len(settled),
        "decisive_moves": len(decisive),
        "decisive_heard_in_full": sum(1 for at in decisive if whole.get(at)),
        "moves_out_of_order": out_of_order,
        "moves_said_by_both_voices": twice,
        "moves_said_twice_at_once": twice_at_once,
        "win_ms": win_ms,
        "load_1min": round(os.getloadavg()[0], 2),
    }


def questions_after_answer(records: list[dict]) -> list[str]:
    """The table's questions said after they were answered (issue 107): each sentence begun that says the question
    an utterance asks (its "question", `table_pace._pieces`), where a move was recorded or the game won (a reply shown
    that tells one) after the reply that asked it was shown (the latest shown before the utterance was given, of the
    same hand, that says the question; in plain mode the reply that printed it) and before the sentence began: the
    question is open only until the next move is recorded (`Utterance.asks_from`). Each such question's words, in
    the order said."""
    shown = [r for r in records if "shown" in r]
    closing = sorted(r["shown"] for r in shown if r["moves"] or r["win"])
    asking = {r["utterance"]: r for r in records if "full" in r and r.get("question")}
    late = []
    for entry in (r for r in records if "text" in r and r.get("of") in asking):
        utterance = asking[entry["of"]]
        question = utterance["question"]
        if question not in entry["text"]:
            continue
        said = entry.get("audio", entry["start"])
        asked = utterance.get("reply_shown")
        if asked is None:
            replies = [r["shown"] for r in shown if r["shown"] <= utterance["given"] and question in r["speech"]]
            same = [r["shown"] for r in shown if r["shown"] <= utterance["given"] and question in r["speech"]
                    and r["own"] != utterance["other"]]  # fmt: skip
            asked = max(same or replies, default=None)
        if asked is not None and any(asked < moment < said for moment in closing):
            late.append(question)
    return late


def _printed_for_her_reader(records: list[dict], handed: list[str]) -> int:
    """The phone moves whose first line was handed to her reader in plain mode (`PlainReader.given`, in the game), a
    line printed for one of her own replies in the same words ("Ben 1 Unicorn.", her `stable Ben`) not counted."""
    from collections import Counter

    lines = Counter(handed)
    lines.subtract(line for r in records if "shown" in r and r["own"] for line in r["lines"])
    printed = 0
    for reply in (r for r in records if "shown" in r and not r["own"] and r["moves"] and r["lines"]):
        if lines[reply["lines"][0]] > 0:
            lines[reply["lines"][0]] -= 1
            printed += len(reply["moves"])
    return printed


def _said_twice(utterances: dict[int, dict], tapped: dict[int, float], sentences: Any) -> tuple[int, int]:
    """The phone moves said by both voices (her own voice or her reader, and the table voice), and of those the ones
    said by both at once (in plain mode beside her reader: its printed line read while the table voice said it):
    each voice's sentences that carry the move, by the moves each utterance's pieces carry."""
    spans: dict[int, dict[str, list[tuple[float, float]]]] = {}
    for number, utterance in utterances.items():
        voice = utterance.get("voice", "hers")
        for piece in utterance["pieces"]:
            said = [(e["audio"], max(e["end"], e["audio"])) for e in sentences(number, piece["start"], piece["end"])]
            for at in (at for at in piece["moves"] if at in tapped and said):
                spans.setdefault(at, {"hers": [], "table": []})[voice] += said
    both = [by for by in spans.values() if by["hers"] and by["table"]]
    at_once = [
        by for by in both if any(min(a_end, b_end) > max(a, b) for a, a_end in by["hers"] for b, b_end in by["table"])
    ]
    return len(both), len(at_once)


def _tap_to_earcon_ms(earcons: list[dict], tapped: dict[int, float]) -> list[float]:
    """Each phone move's earcon (its first, where its reply was held more than once) from its tap, in ms."""
    chimed: dict[int, float] = {}
    for entry in earcons:
        for at in entry["moves"]:
            chimed.setdefault(int(at), entry["at"])
    return [(chimed[at] - tapped[at]) * 1000 for at in tapped if at in chimed]


def one_voice_bound(records: list[dict], keys: list[float]) -> dict[str, Any]:
    """Why one voice cannot say her own words at once at this pace, whatever the order, from the run's log (`records`)
    and her keys in the game (`keys`, after the phones joined): the seconds other hands' sentences heard took of her
    one voice while she typed (one cut before its last words is not counted), and the gaps between the end of each
    reply's first sentence and her next key. Another hand's sentence goes in such a gap only when the gap is at
    least as long as the shortest of them; else it cuts her reply's first sentence (never: her own words first) or
    holds back the start of a key's reply, and one key holds back at most the gap to the next. So at least
    (`others_voice_s` - `free_s`) / that gap of her keys begin late (`late_keys_at_least`); her own words' p90
    within `OWN_GOAL_MS` allows a tenth (`late_keys_allowed`), for which the moves would have to be said
    `faster_needed_x` times as fast. A reply of hers never begun is taken to last its first sentence's words at her
    voice's pace in the run; a key that showed no reply leaves its gap free.
    """
    utterances = {r["utterance"]: r for r in records if "full" in r}
    played: dict[int, list[dict]] = {}
    for entry in (r for r in records if "text" in r and "of" in r):
        played.setdefault(entry["of"], []).append(entry)
    said = [
        e
        for n, es in played.items()
        if utterances.get(n, {}).get("other")
        for e in es
        if keys and keys[0] <= e["start"] <= keys[-1] and heard_in_full(e)
    ]
    others = [min(e["end"] - e["start"], e["seconds"]) for e in said]
    shortest = min((e["seconds"] for e in said), default=0.0)
    shown = [r for r in records if "shown" in r and r["own"] and r["speech"].strip()]
    hers = [e for n, es in played.items() if not utterances.get(n, {}).get("other", True) for e in es if e["whole"]]
    word_s = sum(e["seconds"] for e in hers) / max(1, sum(len(e["text"].split()) for e in hers))
    gaps = []
    for key, following in zip(keys, keys[1:]):
        own = next((u for u in utterances.values() if not u["other"] and key <= u["given"] < following), None)
        entries = played.get(own["utterance"], []) if own else []
        if own and len(entries) > own["own_from"]:
            first = entries[own["own_from"]]["seconds"]
        else:  # never begun: its first sentence at her pace, from the words of the reply shown
            reply = next((r for r in shown if key <= r["shown"] < following), None)
            sentences = split_sentences(reply["speech"]) if reply else []
            first = word_s * len(sentences[0].split()) if sentences else 0.0
        gaps.append(max(0.0, following - key - first))
    free = sum((gap for gap in gaps if gap >= shortest), 0.0)
    between = statistics.median(b - a for a, b in zip(keys, keys[1:])) if len(keys) > 1 else 0.0
    allowed = len(keys) // 10
    return {
        "others_voice_s": round(sum(others), 1),
        "others_sentences": len(others),
        "shortest_s": round(shortest, 2),
        "gaps_that_fit": sum(1 for gap in gaps if gap >= shortest),
        "gaps": len(gaps),
        "free_s": round(free, 1),
        "late_keys_at_least": math.ceil(max(0.0, sum(others) - free) / between) if between else 0,
        "late_keys_allowed": allowed,
        "keys": len(keys),
        "faster_needed_x": round(sum(others) / (allowed * between + free), 1) if allowed * between + free else None,
    }


def _overlap(utterances: dict[int, dict], played: dict[int, list[dict]]) -> tuple[float, float]:
    """Seconds her voice and the table's played at once, and of those, seconds both were in the middle."""
    spans: dict[str, list[tuple[float, float, float]]] = {"hers": [], "table": []}
    for number, entries in played.items():
        voice = utterances.get(number, {}).get("voice", "hers")
        spans[voice] += [(e["audio"], max(e["end"], e["audio"]), e.get("place", 0.0)) for e in entries]
    both = middle = 0.0
    for start, end, place in spans["hers"]:
        for other_start, other_end, other_place in spans["table"]:
            shared = min(end, other_end) - max(start, other_start)
            if shared > 0:
                both += shared
                middle += shared if abs(place) < 0.05 and abs(other_place) < 0.05 else 0.0
    return round(both, 2), round(middle, 2)


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    p90 = statistics.quantiles(ordered, n=10, method="inclusive")[-1] if len(ordered) > 1 else ordered[0]
    return {"count": len(ordered), "median": round(statistics.median(ordered), 1), "p90": round(p90, 1),
            "max": round(ordered[-1], 1)}  # fmt: skip


def goals(run: dict[str, Any]) -> dict[str, bool]:
    """Each goal of issue 87's "Done when", met or not, and the older ones (the win, decisive moves, order, the
    phones' buttons and saves): every set-up hears every phone move and every phone turn's end, her own words at
    once, a move tapped in silence at once; where the table voice is on, a move tapped while something is said
    within 1 s, and the table voice measured apart from hers (pitch, rate); with one voice, every move within 10 s."""
    own, busy, idle = run["own_words_ms"], run["tap_to_first_audio_busy_ms"], run["tap_to_first_audio_idle_ms"]
    table_voice = SETUPS[run["setup"]].settings.get("table_voice", True)
    at_pause = not table_voice and SETUPS[run["setup"]].settings.get("others_at_pause", True)
    pitch, rate = run.get("pitch_ratio"), run.get("rate_ratio")
    met = {
        "moves never heard 0": run["moves_never_heard"] == 0,
        f"own words p90 <= {OWN_GOAL_MS:.0f} ms": own.get("p90", 0.0) <= OWN_GOAL_MS and not run["own_never_heard"],
        "every phone turn's end heard": run["phone_turn_ends_heard"] == run["phone_turn_ends"],
        "decisive heard in full, in order, the win": run["decisive_heard_in_full"] == run["decisive_moves"]
        and (run["moves_out_of_order"] == 0 or at_pause)  # (one voice at her pause: what concerns her breaks in)
        and run["win_ms"] is not None
        and run["win_ms"] <= WIN_GOAL_MS,
        "never both voices in the middle": run["overlap_both_middle_s"] == 0,
        "no dead button, saves asked of the owner": not run["dead_buttons_tapped"]
        and run["saves_asked_of_owner"] == run["saves_asked"],
        "no question said after its answer": not run["questions_after_their_answer"],
    }
    if idle.get("count"):  # (at a key every 1.2 s something is nearly always being said: not measured then)
        met[f"move tapped in silence p90 <= {IDLE_GOAL_MS:.0f} ms"] = idle["p90"] <= IDLE_GOAL_MS
    if table_voice:
        met[f"move tapped while something is said p90 <= {MOVE_GOAL_MS / 1000:.1f} s"] = (
            busy.get("p90", 0.0) <= MOVE_GOAL_MS
        )
        met[f"table voice's pitch >= {PITCH_APART}x or <= {1 / PITCH_APART:.2f}x hers"] = pitch is not None and (
            pitch >= PITCH_APART or pitch <= 1 / PITCH_APART
        )
        met[f"table voice's rate >= {RATE_APART}x hers"] = rate is not None and rate >= RATE_APART
        met["no move said twice at once"] = run["moves_said_twice_at_once"] == 0
    elif at_pause:  # (one voice: other hands by earcon at once, in words at her pause)
        met[f"a move's earcon p90 <= {EARCON_GOAL_MS:.0f} ms from its tap"] = (
            run["tap_to_earcon_ms"].get("p90", 0.0) <= EARCON_GOAL_MS
        )
    else:
        met[f"every move within {ONE_VOICE_GOAL_MS / 1000:.0f} s (max)"] = (
            run["tap_to_first_audio_ms"].get("max", 0.0) <= ONE_VOICE_GOAL_MS
        )
    return met


def goals_met(run: dict[str, Any]) -> bool:
    """Every goal of `goals` met."""
    return all(goals(run).values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--share", help=argparse.SUPPRESS)
    parser.add_argument("--games", nargs="+", default=WHOLE, choices=list(GAMES))
    parser.add_argument("--interval", type=float, default=1.2, help="seconds between the blind player's keys")
    parser.add_argument("--seed", type=int, default=2026, help="the seed of the phones' gaps")
    parser.add_argument("--setup", help=argparse.SUPPRESS)
    parser.add_argument("--setups", nargs="+", choices=list(SETUPS),
                        help=f"how she hears the table (default: {' '.join(DEFAULT_SETUPS)}; windows, windows-one, "
                        "macos: those platforms' stand-ins; aplay: the path before the app's mixer)")  # fmt: skip
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="pyttsx3",
                        help="the own voice's and the table voice's engine (pyttsx3: the one the app picks where no "
                        "speech-dispatcher is asked for)")  # fmt: skip
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's log in")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: her first four keys and one phone's Neigh (that phone alone joined, 0.5 "
        "to 1.5 s after her), one voice at its fastest (or the set-ups of --setups); exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke and not args.child:
        args.games, args.setups = ["smoke"], args.setups or ["one"]
    args.setups = args.setups or DEFAULT_SETUPS
    if args.child:
        return child(args.child, args.game, args.share, args.setup)
    if not shutil.which("aplay"):
        raise SystemExit("aplay is needed (alsa-utils): it plays into ALSA's file plugin here.")
    if not CHROMIUM.exists():
        raise SystemExit("Debian's chromium is needed: bash scripts/setup.sh --with-tests installs it.")
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-hands-") as folder:
        for game in args.games:
            for setup in args.setups:
                run_folder = Path(folder) / f"{game}-{setup}"
                runs.append(play(run_folder, args.backend, game, args.interval, args.seed, setup, args.smoke))
                runs[-1]["goals"] = goals(runs[-1])
                _print(runs[-1], sys.stderr if args.json else sys.stdout)
                if args.keep:
                    kept = args.keep / run_folder.name
                    kept.mkdir(parents=True, exist_ok=True)
                    for name in ("played.jsonl", "keys.json", "sounds.jsonl", "reader/reader-said.tsv"):
                        if (run_folder / name).exists():
                            shutil.copyfile(run_folder / name, kept / Path(name).name)
    if args.json:
        print(logs.dumps(runs, indent=2))
    return 0 if args.smoke or all(goals_met(run) for run in runs if run["setup"] != "aplay") else 1


def _print(run: dict[str, Any], out: Any) -> None:
    own, moves = run["own_words_ms"], run["tap_to_first_audio_ms"]
    busy, idle = run["tap_to_first_audio_busy_ms"], run["tap_to_first_audio_idle_ms"]
    table_ms, hers_ms = run["tap_to_first_audio_table_speaking_ms"], run["tap_to_first_audio_only_hers_speaking_ms"]
    her, table = run["her_voice"], run["table_voice"] or {}
    voices = SETUPS[run["setup"]].title
    printed = run.get("moves_printed_for_her_reader")
    plain = f", printed for her reader {printed}" if printed is not None else ""
    print(f"{run['game']}, {voices}, a key every {run['interval_s']} s, phones 2 to 5 s apart (seed {run['seed']}, "
          f"load {run['load_1min']}): {run['own_keys']} own keys, Enter to its own words median "
          f"{own.get('median')} ms, p90 {own.get('p90')} ms, max {own.get('max')} ms, never heard "
          f"{len(run['own_never_heard'])}; {run['phone_moves']} phone moves ({run['phone_taps']} taps), tap to first "
          f"audio median {moves.get('median')} ms, p90 {moves.get('p90')} ms, max {moves.get('max')} ms; while "
          f"something is said ({busy.get('count')}) p90 {busy.get('p90')} ms (while the table voice spoke "
          f"({table_ms.get('count')}) p90 {table_ms.get('p90')} ms, max {table_ms.get('max')} ms; while only hers "
          f"({hers_ms.get('count')}) p90 {hers_ms.get('p90')} ms), in silence ({idle.get('count')}) p90 "
          f"{idle.get('p90')} ms; never heard {run['moves_never_heard']} (ends settled "
          f"{run['ends_settled_by_the_next_turn']}); phone turns' ends heard {run['phone_turn_ends_heard']}/"
          f"{run['phone_turn_ends']}; decisive heard in full {run['decisive_heard_in_full']}/{run['decisive_moves']}; "
          f"out of order {run['moves_out_of_order']}; said by both voices {run['moves_said_by_both_voices']}, twice "
          f"at once {run['moves_said_twice_at_once']}{plain}; questions said after their answer "
          f"{len(run['questions_after_their_answer'])}; the win {run['win_ms']} ms after its key; both voices "
          f"at once "
          f"{run['overlap_s']} s, both in the middle {run['overlap_both_middle_s']} s; dead buttons tapped "
          f"{len(run['dead_buttons_tapped'])}, moves refused {len(run['moves_refused'])}; saves asked "
          f"{run['saves_asked']}, of the owner {run['saves_asked_of_owner']}; her voice {her['pitch_hz']} Hz, "
          f"{her['words_per_minute']} words a minute ({her['sentences']} sentences), the table voice "
          f"{table.get('pitch_hz')} Hz, {table.get('words_per_minute')} words a minute ({table.get('sentences')} "
          f"sentences): pitch {run['pitch_ratio']}x, rate {run['rate_ratio']}x hers", file=out, flush=True)  # fmt: skip
    chimes = run.get("tap_to_earcon_ms") or {}
    if run.get("earcon_moves"):
        print(f"  one voice: {run['earcon_moves']} moves known at once by their earcon while she typed, tap to "
              f"earcon median {chimes.get('median')} ms, p90 {chimes.get('p90')} ms, max {chimes.get('max')} ms; "
              "their words at her pause", file=out, flush=True)  # fmt: skip
    for goal, met in run.get("goals", {}).items():
        print(f"  {'met' if met else 'MISSED'}: {goal}", file=out, flush=True)
    bound = run.get("one_voice_bound")
    if bound:
        print(f"  one voice: other hands' {bound['others_sentences']} sentences took {bound['others_voice_s']} s of "
              f"it while she typed; {bound['gaps_that_fit']} of {bound['gaps']} gaps after her replies' first "
              f"sentences fit the shortest ({bound['shortest_s']} s), {bound['free_s']} s: at least "
              f"{bound['late_keys_at_least']} of her {bound['keys']} keys begin late in any order (the goal allows "
              f"{bound['late_keys_allowed']})", file=out)  # fmt: skip
    if not idle.get("count"):
        print(f"  not measured: a move tapped in silence (goal p90 {IDLE_GOAL_MS:.0f} ms): none was", file=out)


if __name__ == "__main__":
    sys.exit(main())
