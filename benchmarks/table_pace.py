"""Whole four-player games heard at table pace: is each key answered by its own reply at once, and is every decisive
fact heard in full?

Run as `.venv/bin/python -m benchmarks.table_pace` (`--json`, `--games uu-2nd llamas burst`, `--modes brief normal
coaching`, `--intervals 1.2 2.0`, `--backend`, `--keep FOLDER` to keep each run's log of utterances and sentences).
The real app runs in a pseudo-terminal (`python -m assistant --no-camera --deck D [--addon A]`, as
`benchmarks/app.py` runs it) with ALSA's `file` plugin as its sound device (`benchmarks/capture.py`). Its player
is real aplay paced as a sound card plays (`AlsaCapture.paced_player`: aplay into the capture, then the sound's own
length), so a sentence takes its time and the next key can cut it. The app runs in a small wrapper (`--child`) that
notes each utterance the speech worker takes (its whole text, with what was folded into it) and when the worker is
done with it, and, for each sentence played, when its player started, how long its sound is and whether it
played to its end (exit 0) or was cut off (killed); and that shows a typed line beginning with "@" as a move from
another player's device (a reply from another hand, `Reply.origin`): typed lines stand in for the phones here.

The games (`GAMES`): Unstable Unicorns 2nd Edition and Llamas Unleashed with Farmed and Dangerous, four players
each (Neigh battles by one key, a Super Neigh, a chain with its duty, warnings answered, undos, questions by
number, Instants chosen by number, Herd Bonuses, a win while keys keep coming), and `burst`, where other players'
moves arrive `BURST_S` (0.3 s) apart between the player's own keys. Each step's last key (Enter, or the one key)
comes `--intervals` seconds after the one before, whatever is being said, save a step that acts on what the reply
before asked (`_waits_for`: a question's answer, a number from a list, the draw of a turn with a duty), which
comes no sooner than that was heard. A session alongside gives each step's reply (and its decisive fact).

Measures, per game and pace:
- Enter to the first sound of that key's own words: the first audio byte of a sentence of its own reply (an older
  fact folded before them does not count); never "any sound" (median, p90, max; goals `OWN_REPLY_GOALS_MS`: p90
  300 ms at 1.2 s, 150 ms at 2.0 s); an own reply never heard;
- decisive facts heard in full: each sentence of a reply's decisive fact played to its end (or cut in its last
  words, `LAST_WORDS_S`) after its key, alone, within a longer sentence of its reply in other words ("Ana has 2
  Unicorns." for "Ana 2 Unicorns."), or folded into a later reply. A fact is **settled**, and need not be heard,
  when a newer one supersedes it before the player's next own key: a later reply up to and including that key
  says the same state as it now is (a newer turn, a newer count of the same player, a win), takes it back (an
  undo), or, for a fact of no state (a chain's duty), says the chain is resolved (`About.settled_by`, on the
  replies' typed facts). Every other
  fact is still current when the next key comes, and counts as **missed** unless heard in full. A numbered list is
  a question, not counted here;
- questions said after their answer (goal none), and the most replies behind: for each sentence played, how many
  keys came after the one it answers (goal at most 1).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from assistant.core.text import PLAIN, SentenceNames
from benchmarks import logs
from benchmarks.capture import AlsaCapture

ROOT = Path(__file__).resolve().parents[1]

# The games: each step is typed as a keyboard sends it. A line ("draw") is typed and Enter pressed; one character
# ("0", "3", "n") is a one-key answer; "s" and a digit a Super Neigh by one key; "=2" a number typed and Enter (a
# question by number); "@line" a move from another player's device (typed here, shown as a reply that did not come
# from the player's own key: `Reply.origin` another hand's), sent `BURST_S` after the step before.

#: Unstable Unicorns, 2nd Edition, four players to 4 Unicorns: Neigh battles by one key, a question by number, a
#: chain with its duty, a warning answered (Ginormous Unicorn: Cy cannot Neigh), a Super Neigh, undos, a play out
#: of turn warned and answered, a win while keys keep coming, the win undone and made again.
UNICORNS = [
    "new game Ana Ben Cy Dee babies red pink blue yellow win 4",
    "draw", "play basic", "=1", "2", "3", "0", "0", "end turn",
    "draw", "play unicorn poison", "0", "destroy basic red in Ana", "resolve", "end turn",
    "draw", "play ginormous unicorn", "0", "end turn",
    "draw", "play basic blue", "3", "n", "s1", "0", "end turn",
    "draw", "play basic", "=3", "0", "undo", "0", "bring basic yellow into Ana", "end turn",
    "draw", "Ana play basic orange", "n", "play basic indigo", "4", "0", "end turn",
    "draw", "end turn", "draw", "end turn",
    "draw", "play basic purple", "0", "0", "2", "end turn", "undo", "0", "stable Ana",
]  # fmt: skip
#: Llamas Unleashed with Farmed and Dangerous, four players to 5 Animals: Instants chosen by number after a
#: player's one key, a question by number, the Ram Herd Bonus (the add-on's: its text not known) and the Alpaca
#: Herd Bonus at the beginning of a turn, a win brought in while keys keep coming, undone and made again.
LLAMAS = [
    "new game Ana Ben Cy Dee babies alpaca llama goat ram win 5",
    "draw", "play basic alpaca", "2", "7", "0", "0", "end turn",
    "draw", "play basic", "=3", "3", "1", "0", "end turn",
    "draw", "end turn",
    "draw", "play basic ram", "0", "bring basic ram into Dee", "end turn",
    "draw", "play basic alpaca", "0", "bring basic alpaca into Ana", "end turn",
    "end turn", "end turn", "end turn",
    "draw", "play basic alpaca", "0", "bring basic alpaca into Ana", "0", "2", "undo",
    "bring basic alpaca into Ana", "stable Ana",
]  # fmt: skip
#: Other hands at once: a Neigh battle and whole turns from other players' devices, 0.3 s apart, between the
#: player's own keys.
BURST = [
    "new game Ana Ben Cy Dee babies red pink blue yellow win 4",
    "draw", "play basic red", "@neigh Ben", "@neigh Cy", "@super neigh Dee", "@resolve", "@resolve", "end turn",
    "@draw", "@play basic blue", "@resolve", "@end turn",
    "@draw", "@play unicorn poison", "@resolve", "@destroy baby red in Ana", "@resolve", "@end turn",
    "@draw", "@play basic green", "@resolve", "@end turn",
    "draw", "play basic orange", "0", "end turn",
    "@draw", "@bring basic indigo into Ben", "@bring basic purple into Ben",
]  # fmt: skip


class Game(NamedTuple):
    deck: str
    addons: tuple[str, ...]
    steps: list[str]
    turns: int


def lower_names(steps: list[str]) -> list[str]:
    """The same game with the players' names typed in lower case ("new game ana ben cy dee", "stable ana"), as the
    app keeps them: what is folded and settled must not depend on how a name is written."""
    names = ("Ana", "Ben", "Cy", "Dee")
    return [" ".join(w.lower() if w in names else w for w in step.split(" ")) for step in steps]


GAMES = {
    "uu-2nd": Game("uu-2nd", (), UNICORNS, turns=9),
    "uu-2nd-lower": Game("uu-2nd", (), lower_names(UNICORNS), turns=9),
    "llamas": Game("llamas", ("llamas-farmed",), LLAMAS, turns=9),
    "burst": Game("uu-2nd", (), BURST, turns=6),
    # The smoke run (`--smoke`): the burst's first steps, the player's own keys and two moves from other hands.
    "smoke": Game("uu-2nd", (), BURST[:5], turns=1),
}
#: The games a whole run plays.
WHOLE = ["uu-2nd", "uu-2nd-lower", "llamas", "burst"]
#: Seconds between moves from other hands in a burst.
BURST_S = 0.3
QUIET_S = 0.8
#: Goals: the p90 of Enter to the start of that key's own reply, by seconds between keys.
OWN_REPLY_GOALS_MS = {1.2: 300.0, 2.0: 150.0}


def kind(step: str) -> str:
    """ "line", "key" (a one-key answer), "number" (typed and Enter) or "other" (another player's device)."""
    if step.startswith("@"):
        return "other"
    if step.startswith("=") and step[1:].isdigit():
        return "number"
    if len(step) == 1 or (len(step) == 2 and step[0] == "s" and step[1].isdigit()):
        return "key"
    return "line"


def child(log: str, arguments: list[str], *, paced: bool = True) -> int:
    """Run the app (`arguments`: its command line), noting each reply shown (whether it answers the player's own
    key, the moves it tells by their place in the log, whether it tells a win), each utterance begun (its whole
    text: what was folded into it too; the facts and moves it carries, by sentence: `_pieces`; which voice says
    it: "hers" or the table's) and each sentence played through a player: its start, the moment its first sample
    reached the device where the player knows it (the app's mixer), its place, its length, and whether it played to
    its end. `paced`: aplay players are replaced by aplay paced as a sound card plays (the app's mixer paces
    itself). A typed line that begins with "@" stands for a move from another player's device: shown as a reply
    that did not come from the player's own key."""
    import assistant.speech as speech
    from assistant.cli import main as app_main
    from assistant.core.game.about import Topic
    from assistant.core.language.reply import PHONES
    from assistant.core.speech.placement import sentence_places
    from assistant.speech import backends
    from assistant.speech.player import Player
    from assistant.speech.worker import SpeechWorker
    from assistant.ui.app import TableApp

    lock = threading.Lock()
    out = open(log, "a", encoding="utf-8")
    paced_player = Player(("sh", "-c", 'aplay -q "$1" && exec sleep "$(soxi -D "$1")"', "player"))
    start, wait = backends.WavBackend._start, backends.WavBackend._wait
    service_speak, table_voice = SpeechWorker._speak, speech._table_voice
    labels: dict[int, tuple[str, float, float, int, float]] = {}
    counter = itertools.count()

    def write(record: dict) -> None:
        with lock:
            out.write(logs.dumps(record) + "\n")
            out.flush()

    def noting_table_voice(*args, **kwargs):  # type: ignore[no-untyped-def]
        table = table_voice(*args, **kwargs)
        if table is not None:
            table._worker.bench_voice = "table"
        return table

    def noting_speak(self, turn):  # type: ignore[no-untyped-def]
        utterance = turn.utterance
        self.backend.bench_utterance = number = next(counter)
        self.backend.bench_places = sentence_places(utterance, self.seating)
        self.backend.bench_index = 0
        write({"utterance": number, "given": time.perf_counter(), "full": utterance.text, "other": utterance.other,
               "voice": getattr(self, "bench_voice", "hers"), **_pieces(utterance)})  # fmt: skip
        try:
            return service_speak(self, turn)
        finally:  # said, or cut off: the worker is done with it
            write({"utterance_done": number, "at": time.perf_counter()})

    def noting_start(self, player, path, wanted, label):  # type: ignore[no-untyped-def]
        seconds = backends.wav_seconds(Path(path))
        process = start(self, paced_player if paced and player.name == "aplay" else player, path, wanted, label)
        if process is not None:
            index = getattr(self, "bench_index", 0)
            self.bench_index = index + (0 if label.startswith("[") and label.endswith("]") else 1)
            places = getattr(self, "bench_places", ())
            place = places[index] if index < len(places) else 0.0
            labels[id(process)] = (label, time.perf_counter(), seconds, getattr(self, "bench_utterance", -1), place)
        return process

    def noting_wait(self, process, player):  # type: ignore[no-untyped-def]
        wait(self, process, player)
        label, began, seconds, utterance, place = labels.pop(id(process), ("", 0.0, 0.0, -1, 0.0))
        audio = getattr(process, "began", None)  # the app's mixer: when its first sample reached the device
        write({"text": label, "start": began, "end": time.perf_counter(), "seconds": seconds, "place": place,
               "whole": process.returncode == 0, "of": utterance, **({"audio": audio} if audio else {})})  # fmt: skip

    submitted, show = TableApp.on_input_submitted, TableApp.show

    def noting_show(self, reply, *args, **kwargs):  # type: ignore[no-untyped-def]
        own = reply.origin.own_key
        moves = {p.at: [p.player, p.move] for t in reply.tells for p in t.flat() if p.topic is Topic.MOVE}
        write({"shown": time.perf_counter(), "own": own, "speech": reply.speech, "moves": moves,
               "win": any(f.topic is Topic.WIN for f in reply.facts)})  # fmt: skip
        return show(self, reply, *args, **kwargs)

    def other_hand(self, event):  # type: ignore[no-untyped-def]
        if event.value.startswith("@"):  # a move from another player's device
            self.show(self.session.handle(event.value[1:]).coming(PHONES))
        else:
            submitted(self, event)

    SpeechWorker._speak = noting_speak  # type: ignore[method-assign]
    speech._table_voice = noting_table_voice  # type: ignore[assignment]
    backends.WavBackend._start = noting_start  # type: ignore[method-assign]
    backends.WavBackend._wait = noting_wait  # type: ignore[method-assign]
    TableApp.on_input_submitted = other_hand  # type: ignore[method-assign]
    TableApp.show = noting_show  # type: ignore[method-assign]
    return app_main(["--no-camera", *arguments])


def _pieces(utterance) -> dict:  # type: ignore[no-untyped-def]
    """Where an utterance's sentences come from: "own_from", the first sentence of its own words (after the facts
    folded into it); "pieces", each fact and move it carries with the sentences that say it ([start, end), end None
    for the rest of its own words): its topic, the moves' places in the log, whether it is decisive; "question", the
    first sentence of the table's question it asks (`Utterance.asks_from`), where it asks one."""
    from assistant.core.game.about import Topic
    from assistant.core.words.audience import Audience
    from assistant.core.words.kinds import is_decisive
    from assistant.core.words.worded import words_for

    pieces, start = [], 0
    folded = [(f, words_for(f, Audience.BRIEF)) for f in utterance.folded]
    for fact, words in [*folded, *((f, words_for(f, Audience.TABLE)) for f in utterance.facts)]:
        end = start + len(utterance.split(words))  # (split as the app splits it: with the game's names)
        pieces.append((fact, start, end))
        start = end
    own_from = utterance.own_from()
    pieces += [(fact, own_from, None) for fact in utterance.tells]
    asks = utterance.asks_from()
    sentences = utterance.split()
    question = {"question": sentences[asks]} if asks is not None and asks < len(sentences) else {}
    return {"own_from": own_from, **question, "pieces": [
        {"topic": fact.topic.value, "moves": [p.at for p in fact.flat() if p.topic is Topic.MOVE], "start": start,
         "end": end, "decisive": is_decisive(fact)} for fact, start, end in pieces]}  # fmt: skip


class App:
    """The app in a pseudo-terminal, through the child wrapper; its sound in an ALSA capture."""

    def __init__(
        self,
        folder: Path,
        backend: str,
        verbosity: str,
        game: str,
        command: list[str] | None = None,
        table_voice: bool = True,
        *,
        capture: AlsaCapture | None = None,
        settings: dict[str, object] | None = None,
        environ: dict[str, str] | None = None,
        drawn_when: bytes = b"Pile and chain",
        output: Callable[[bytes], None] | None = None,
    ) -> None:
        """`command`: the module and arguments the app runs in (default: this benchmark's child, playing `game`);
        `table_voice`: the setting (other hands' moves in a second voice); `capture`: the sound device (a new one
        in `folder` by default); `settings`: other settings than the benchmark's own (`pty_start.write_settings`);
        `environ`: variables for the app (a speech-dispatcher standing for her screen reader); `drawn_when`: what
        the app writes once it is ready (the Textual app's region heading; the plain mode's greeting); `output`:
        given everything the app writes to its terminal, as it comes (a screen reader's stand-in reads it)."""
        from benchmarks.capture import FirstBytes
        from benchmarks.pty_start import app_env, drain_in_background, start, write_settings

        self.capture = capture or AlsaCapture(folder / "capture")
        self.log = folder / "played.jsonl"
        home = folder / "app-home"
        chosen = {"backend": backend, "verbosity": verbosity, "table_voice": table_voice, **(settings or {})}
        write_settings(home, **chosen)
        env = app_env(self.capture.home, home, environ)
        self.first_bytes = FirstBytes(self.capture)
        command = command or ["benchmarks.table_pace", "--child", str(self.log), "--games", game]
        self.leader, self.process, _ = start([sys.executable, "-m", *command], env)
        self.drawn = threading.Event()
        """Set once the app has drawn its screen (keys typed before that reach no Textual input)."""
        drain_in_background(self.leader, self.drawn, drawn_when, output)

    def ready(self, bound: float = 180.0) -> None:
        """Wait until the screen is drawn and the greeting said: as long as the app runs, at most `bound` seconds (a
        failure's bound: on a machine loaded past its cores, the app's start took more than the 30 s waited before)."""
        deadline = time.monotonic() + bound
        while not self.drawn.wait(0.5):
            if self.process.poll() is not None:
                raise SystemExit(f"The app ended before it drew its screen (code {self.process.returncode}).")
            if time.monotonic() > deadline:
                raise SystemExit(f"The app never drew its screen ({bound:.0f} s).")
        self.quiet()

    def records(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.strip()]

    def played(self) -> list[dict]:
        """Each sentence played: its text, start, end, length, whether whole, and its utterance's number."""
        return [r for r in self.records() if "text" in r]

    def utterances(self) -> dict[int, dict]:
        """Each utterance begun, by its number: its whole text and when the worker took it."""
        return {r["utterance"]: r for r in self.records() if "full" in r}

    def done_speaking(self, since: float, timeout: float = 30.0) -> None:
        """Wait until the worker has taken an utterance after `since` (the last key's reply, at most `timeout`
        seconds), then `quiet()`: the run never ends before the last key's reply is said."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline and not any("full" in r and r["given"] >= since for r in self.records()):
            time.sleep(0.05)
        self.quiet()

    def quiet(self, longest: float = 60.0) -> None:
        """Wait until the speech worker is done with every utterance it took (said, or cut off) and nothing changed
        for `QUIET_S` (at most `longest` seconds). Not from the sounds heard alone: a player killed as it opened the
        device writes no audio byte, so counting first bytes against plays ended took a long sentence still
        playing for silence (the last key's reply was cut off by the end of the run)."""
        seen, changed, began = (-1, -1), time.monotonic(), time.monotonic()
        while time.monotonic() - began < longest:
            time.sleep(0.05)
            records = self.records()
            now = (self.first_bytes.count, len(records))
            if now != seen:
                seen, changed = now, time.monotonic()
                continue
            given = {r["utterance"] for r in records if "full" in r}
            done = {r["utterance_done"] for r in records if "utterance_done" in r}
            if time.monotonic() - changed >= QUIET_S and given <= done:
                return

    def heard(self, sentences: list[str], since: float, timeout: float = 15.0) -> float:
        """When each of `sentences` had been played to its end (within a sentence played after `since`); `since`
        + `timeout` if that never happens."""
        while time.perf_counter() < since + timeout:
            ends = [[p["end"] for p in self.played() if p["start"] >= since and p["whole"] and s in p["text"]]
                    for s in sentences]  # fmt: skip
            if all(ends):
                return max(min(e) for e in ends)
            time.sleep(0.02)
        return since + timeout

    def type(self, step: str) -> None:
        """Everything of a step but its last key (a line's letters, typed fast; the "s" of a Super Neigh)."""
        kind_of = kind(step)
        typed = {"line": step, "other": step, "number": "", "key": step[:-1]}[kind_of]
        if typed:  # (a number is typed with its Enter: typed early, a digit would be a one-key answer)
            os.write(self.leader, typed.encode())

    def last_key(self, step: str) -> float:
        """Its last key (Enter, or the one key); the moment it was sent."""
        moment = time.perf_counter()
        last = {"key": step[-1], "number": f"{step[1:]}\r"}.get(kind(step), "\r")
        os.write(self.leader, last.encode())
        return moment

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.leader)
        self.first_bytes.close()


def shadow_replies(game: str, verbosity: str) -> tuple[list, SentenceNames]:
    """Each step's reply from a session alongside, at the same verbosity: a one-key answer as the app sends it, or
    the app's own answer to a digit that cannot act; and the game's names, which change where its sentences end."""
    from assistant.commands.app import table_session
    from assistant.core.language.reply import Question, Reply
    from assistant.core.words.screen import QUESTION_WAITING_KEY, no_card_for_key, no_player_number
    from assistant.core.words.verbosity import Verbosity
    from assistant.storage.decks import load_card_set
    from assistant.ui.one_key import one_key_answer

    chosen = GAMES[game]
    session = table_session(load_card_set(chosen.deck, list(chosen.addons)), verbosity=Verbosity(verbosity))
    replies: list = []
    for step in chosen.steps:
        kind_of = kind(step)
        if kind_of != "key":
            replies.append(session.handle(step[1:] if kind_of in ("other", "number") else step))
            continue
        line = one_key_answer(session, step[-1], step[:-1])
        if line:
            replies.append(session.handle(line))
            continue
        key, state = step[-1], session.game  # a digit that cannot act: the app says why (`one_key_refusal`)
        if isinstance(session.pending, Question):
            why = QUESTION_WAITING_KEY
        elif state is None or not state.state.pile:
            why = no_card_for_key(key)
        else:
            why = no_player_number(int(key), len(state.setup.players))
        replies.append(Reply.error(why))
    talk = session.lobby.talk
    return replies, talk.names if talk is not None else PLAIN


def _heard(fact: str, text: str) -> bool:
    """A decisive fact's sentence heard within a sentence played, or in the reply's own longer words: a count ("Ana
    2 Unicorns." as "Ana has 2 Unicorns."), a win ("Ana wins!" as "Ana wins with 4 Unicorns!")."""
    count = re.sub(r"^(.+?):? (\d+ [A-Z])", r"\1 has \2", fact)  # (any name: lower case, several words)
    return fact in text or count in text or (fact.endswith(" wins!") and f"{fact[:-1]} with " in text)


def sentences(text: str, names: SentenceNames, reply=None) -> list[str]:  # type: ignore[no-untyped-def]
    """Words in the sentences the app plays them in (`Utterance.split`, the app's own split): with the game's names,
    so that "ana 1 Unicorn. ben destroyed ..." is two sentences, as the app says them, not one (a sentence may begin
    with a name typed in lower case); a reply's words (`reply`) split at its segments too, as the app splits them."""
    from assistant.core.speech.utterance import Utterance

    return Utterance(text, names=names, segments=reply.segments if reply is not None else ()).split()


def _waits_for(reply, names) -> list[str]:  # type: ignore[no-untyped-def]
    """What the player hears before acting on a reply (nobody answers what they have not heard): a question's
    decisive fact (a numbered list up to its last sentence), a turn's duties; nothing for the others."""
    from assistant.core.language.reply import Choice, Question

    if reply is None or not reply.decisive:
        return []
    facts = sentences(reply.decisive, names)
    if isinstance(reply.pending, Choice):
        return facts[:-1]  # ("Type a number to choose." is not needed to choose)
    if isinstance(reply.pending, Question) or "may use" in reply.decisive or "must do" in reply.decisive:
        return facts
    return []


def _until_own_key(steps: list[str], replies: list, n: int) -> list:
    """The replies after step `n` up to and including the player's next own key (moves from other hands between
    them came before the fact could be said)."""
    later = []
    for step, reply in zip(steps[n + 1 :], replies[n + 1 :]):
        later.append(reply)
        if kind(step) != "other":
            break
    return later


def heard_in_full(entry: dict) -> bool:
    """A sentence played (an entry of the log) was heard: played to its end, or cut in its last words
    (`LAST_WORDS_S`, as the queue counts it)."""
    from assistant.core.speech.queue import LAST_WORDS_S

    return bool(entry["whole"] or entry["end"] - entry["start"] >= entry["seconds"] - LAST_WORDS_S)


def play(folder: Path, backend: str, game: str, verbosity: str, interval: float) -> dict:
    """One game at one key every `interval` seconds (moves from other hands `BURST_S` apart). The figures."""
    from assistant.core.language.reply import Choice

    steps = GAMES[game].steps
    replies, names = shadow_replies(game, verbosity)
    app = App(folder, backend, verbosity, game)
    keys: list[float] = []
    try:
        app.ready()  # the screen drawn, the greeting said
        for n, step in enumerate(steps):
            app.type(step)
            gap = BURST_S if kind(step) == "other" else interval
            due = keys[-1] + gap if keys else 0.0
            wanted = _waits_for(replies[n - 1], names) if n else []
            if wanted:
                due = max(due, app.heard(wanted, keys[-1]))
            time.sleep(max(0.0, due - time.perf_counter()))
            keys.append(app.last_key(step))
        app.done_speaking(keys[-1])  # (the last key has no next key: its reply is waited for, not cut by the end)
        records = app.records()
        first_bytes = list(app.first_bytes.times)
        silent = len(app.first_bytes.silent)
    finally:
        app.close()
    kept = {"steps": steps, "keys": keys, "first_bytes": first_bytes, "silent_plays": silent}
    (folder / "keys.json").write_text(logs.dumps(kept), encoding="utf-8")
    played = [r for r in records if "text" in r and r["start"] >= keys[0]]
    utterances = {r["utterance"]: r for r in records if "full" in r and r["given"] >= keys[0]}
    for entry in played:  # the moment its first audio byte reached the device
        entry["audio"] = min((t for t in first_bytes if entry["start"] - 0.005 <= t <= entry["end"] + 0.1),
                             default=entry["start"])  # fmt: skip

    def key_before(moment: float) -> int:
        return max((n for n, key in enumerate(keys) if key <= moment), default=0)

    owner: dict[int, int] = {}  # each utterance begun: the step whose reply it says (its own words end it)
    for number, utterance in utterances.items():
        last = key_before(utterance["given"])
        owner[number] = next((n for n in range(last, -1, -1) if replies[n] is not None and replies[n].speech
                              and utterance["full"].endswith(replies[n].speech.strip())), last)  # fmt: skip
    own_ms, never, decisive, missed, settled, answered_late, behind = [], [], 0, [], [], [], 0
    for n, (step, reply) in enumerate(zip(steps, replies)):
        said = [u for u, r in owner.items() if r == n and utterances[u]["given"] >= keys[n]]
        own = set(
            sentences(reply.speech, names, reply)
        )  # its own words: a fold of an older fact before them does not count
        starts = [e["audio"] for e in played if e["of"] in said and e["text"] in own]
        if kind(step) != "other":
            if starts:
                own_ms.append((min(starts) - keys[n]) * 1000)
            else:
                never.append(f"{n} {step}")
        if reply.decisive and not isinstance(reply.pending, Choice):
            after = [e["text"] for e in played if e["start"] >= keys[n] and heard_in_full(e)]
            facts = sentences(reply.decisive, names)
            if all(any(_heard(f, text) for text in after) for f in facts):
                decisive += 1
            elif any(
                r.settles or all(f.settled_by((*r.facts, *r.tells)) for f in reply.facts)
                for r in _until_own_key(steps, replies, n)
            ):
                settled.append(f"{n} {step}")  # a later reply took it back or said it as it now is, before it was due
            else:
                missed.append(f"{n} {step}: {reply.decisive}")
        if reply.pending is not None and n + 1 < len(steps):  # a question: never said after its answer
            late = [
                e
                for e in played
                if utterances[e["of"]]["given"] >= keys[n + 1]
                and owner.get(e["of"], -1) <= n
                and e["text"] in sentences(reply.speech, names, reply)
            ]  # fmt: skip  (said again after the answer)
            if late:
                answered_late.append(f"{n} {step}")
    for entry in played:  # how many replies behind each sentence is when it begins: keys since its own
        mine = owner.get(entry["of"], -1)
        behind = max(behind, sum(1 for key in keys[mine + 1 :] if key <= entry["start"]))
    ordered = sorted(own_ms)
    return {
        "game": game,
        "verbosity": verbosity,
        "interval_s": interval,
        "steps": len(steps),
        "own_keys": len(own_ms) + len(never),
        "own_reply_ms": {
            "median": round(statistics.median(ordered), 1),
            "p90": round(statistics.quantiles(ordered, n=10, method="inclusive")[-1], 1),
            "max": round(max(ordered), 1),
            "later_than_1s": sum(1 for ms in ordered if ms > 1000),
        },
        "own_reply_ms_each": {
            f"{n} {s}": round(ms, 1)
            for (n, s), ms in zip(
                [(n, s) for n, s in enumerate(steps) if kind(s) != "other" and f"{n} {s}" not in never], own_ms
            )
        },
        "own_reply_never_heard": never,
        "decisive_facts": decisive + len(missed) + len(settled),
        "decisive_heard_in_full": decisive,
        "decisive_settled_by_the_next_key": settled,
        "decisive_missed": missed,
        "questions_said_after_their_answer": answered_late,
        "most_replies_behind": behind,
        "speech_played_s_per_turn": round(sum(e["end"] - e["start"] for e in played) / GAMES[game].turns, 2),
        "sentences_played": len(played),
        "sentences_cut": sum(1 for e in played if not e["whole"]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--games", nargs="+", default=WHOLE, choices=list(GAMES))
    parser.add_argument("--modes", nargs="+", default=["normal"], choices=["brief", "normal", "coaching"])
    parser.add_argument("--intervals", nargs="+", type=float, default=[1.2, 2.0], help="seconds between keys")
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="espeak-ng")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's log in (played.jsonl, keys.json)")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: three keys of the player's and two moves from other hands, a key every "
        "1.2 s; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke and not args.child:
        args.games, args.modes, args.intervals = ["smoke"], ["normal"], [1.2]
    if args.child:
        chosen = GAMES[args.games[0]]
        return child(args.child, ["--deck", chosen.deck, *(f"--addon={a}" for a in chosen.addons)])
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-pace-") as folder:
        for game in args.games:
            for mode in args.modes:
                for interval in args.intervals:
                    run_folder = Path(folder) / f"{game}-{mode}-{interval}"
                    runs.append(play(run_folder, args.backend, game, mode, interval))
                    _print(runs[-1], sys.stderr if args.json else sys.stdout)
                    if args.keep:
                        kept = args.keep / run_folder.name
                        kept.mkdir(parents=True, exist_ok=True)
                        for name in ("played.jsonl", "keys.json"):
                            shutil.copyfile(run_folder / name, kept / name)
    if args.json:
        print(logs.dumps(runs, indent=2))
    failed = False
    for run in runs:
        goal = OWN_REPLY_GOALS_MS.get(run["interval_s"], 300.0)
        failed |= run["own_reply_ms"]["p90"] > goal or bool(run["decisive_missed"] or run["own_reply_never_heard"])
        failed |= bool(run["questions_said_after_their_answer"]) or run["most_replies_behind"] > 1
    return 1 if failed and not args.smoke else 0


def _print(run: dict, out) -> None:  # type: ignore[no-untyped-def]
    own = run["own_reply_ms"]
    print(f"{run['game']}, {run['verbosity']}, a key every {run['interval_s']} s ({run['own_keys']} own keys of "
          f"{run['steps']}): Enter to its own reply median {own['median']} ms, p90 {own['p90']} ms, max "
          f"{own['max']} ms, {own['later_than_1s']} later than 1 s, never heard {run['own_reply_never_heard']}; "
          f"decisive facts heard in full {run['decisive_heard_in_full']}/{run['decisive_facts']} (settled by the "
          f"next key {len(run['decisive_settled_by_the_next_key'])}, missed {run['decisive_missed']}); questions "
          f"said after their answer {run['questions_said_after_their_answer']}; most replies behind "
          f"{run['most_replies_behind']}; speech {run['speech_played_s_per_turn']} s a turn; "
          f"{run['sentences_cut']} of {run['sentences_played']} sentences cut", file=out, flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
