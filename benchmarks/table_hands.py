"""Every hand heard: three phones in real chromium act every 2 to 5 s (two Neighs at once, an Instant, a chain with its
duties) while the blind player types a key every 1.2 s on the laptop; what reaches her ear, from the real app.

Run as `.venv/bin/python -m benchmarks.table_hands` (`--json`, `--games uu-2nd llamas`, `--interval 1.2`, `--seed N`,
`--backend`, `--keep FOLDER` to keep each run's log).
The app runs as a player runs it, sharing the table on loopback (`python -m assistant --no-camera --share
127.0.0.1:PORT --deck D`), in a pseudo-terminal, through the small wrapper of `benchmarks/table_pace.py` that notes
each reply shown, each utterance begun with the facts and moves it carries by sentence, and each sentence played
(real aplay into ALSA's `file` plugin, paced as a sound card plays, so the next key can cut a sentence). Ben, Cy and
Dee are phone-sized pages in Debian's chromium driven by Playwright, joined by the code the app says; Ana, the
blind player, types on the laptop: her own turns' moves and, between them, what a player asks while others play
(`tally`, `pile`, `turn`, a Stable), one key every `--interval` seconds whatever is being said. Each phone move
comes 2 to 5 s after the one before (drawn from `--seed`, reported), a second Neigh or Instant 0.05 s after the
first.

Measures, per game (goals from the issue that asked for it):
- each of Ana's keys: Enter to the first sound of that key's own words (an older fact or another hand's move folded
  before them does not count): median, p90 (goal 300 ms at 1.2 s), max; own replies never heard (goal none);
- each phone move: the browser's request to the first audio byte of the sentence that says it (alone, or merged
  with the same player's other moves), p90 (goal 1.0 s); moves never heard (goal none; a turn's end not said once
  a later move is, is settled by the next turn, as the queue means it, and counted apart); decisive moves (a card
  played to the pile, a Neigh, an Instant, a destroy or steal: `About.decisive`) heard in full (goal all); moves
  heard out of the order recorded (goal none);
- the win: the winning key or tap to the first sound of the sentence that says it (goal 1.0 s).
- the phones' taps: dead buttons tapped, a tap on a button whose move the table no longer allows (goal none), and
  the moves the table answered refused or stale; every save "instead" asked of the card's owner on their own phone
  (goal all: Ben's Black Knight Unicorn may save the card Cy destroys in the Unstable Unicorns game).
- the two voices: the seconds hers and the table's played at once, and of those the seconds both were in the middle
  (goal none).
Each game is played in every set-up of `--setups` in the same run (`SETUPS`): her own voice with the table's voice,
her screen reader (a real speech-dispatcher standing for it) with the table's voice, one voice, the Windows and
macOS paths with stand-ins for NVDA and VoiceOver, and, asked for, the player processes before the app's mixer.
Exits 1 when a goal is missed in any set-up but that last one (a move's p90 only where the table's voice is on).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from assistant.core.words.share import new_phone_asks
from benchmarks import logs
from benchmarks.share import CHROMIUM, CHROMIUM_ARGS, SHARED, free_port
from benchmarks.table_pace import App

ME = "Ana"
PHONES = ("Ben", "Cy", "Dee")
#: What Ana asks between her own moves, in turn.
ASKS = ("tally", "pile", "turn", "stable Ben", "stable Cy")
OWN_GOAL_MS = 300.0
MOVE_GOAL_MS = 1000.0
WIN_GOAL_MS = 1000.0
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
    """The settings over the benchmark's own (`table_pace._write_settings`)."""
    reader: bool = False
    """Her replies through a speech-dispatcher standing for her screen reader (`capture.ReaderStandIn`)."""
    platform: str = ""
    """Windows ("win32") or macOS ("darwin") simulated: the app takes itself for that platform, its engines replaced
    by stand-ins that keep that platform's limits: her screen reader (NVDA, VoiceOver) a reader that queues what it is
    given and never says when it finished, the system voice (SAPI5, NSSpeechSynthesizer) not here, so espeak-ng
    renders the table's voice; what plays is the app's mixer, as there."""


MIXER = {"player": "sounddevice"}
READER = {"speech": "screen-reader", "player": "sounddevice"}
SETUPS = {
    "own": Setup("her own voice and the table voice", {**MIXER, "speech": "own-voice"}),
    "reader": Setup("her screen reader (speech-dispatcher) and the table voice", READER, reader=True),
    "one": Setup("one voice", {**MIXER, "speech": "own-voice", "table_voice": False}),
    "windows": Setup("Windows stand-ins: NVDA and the table voice", READER, reader=True, platform="win32"),
    "macos": Setup("macOS stand-ins: VoiceOver and the table voice", READER, reader=True, platform="darwin"),
    "aplay": Setup("before: a player process per sentence, two voices", {"speech": "own-voice", "player": "aplay"}),
}
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
    deck, addons, _ = GAMES[game]
    arguments = ["--deck", deck, *(f"--addon={a}" for a in addons), "--share", address]
    return noting_child(log, arguments, paced=SETUPS[setup].settings.get("player") == "aplay")


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
    app = App(folder, backend, "normal", game, command, table_voice, capture=capture, settings=settings,
              environ=environ)  # fmt: skip
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
                began = len(app.records())
                asks, at, now = 0, 1, time.perf_counter()
                next_key, due = now + interval, now + rng.uniform(*gaps)
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
                    else:
                        time.sleep(max(0.0, min(next_key, due if step.who != ME else next_key) - now))
                app.done_speaking(max(keys[-1], phones.requests[-1][2] if phones.requests else 0.0))
                taps = phones.sent_at()
                taps_checked = {"dead_buttons_tapped": phones.dead, "moves_refused": phones.refused,
                                "saves_asked": phones.saves_asked,
                                "saves_asked_of_owner": phones.saves_asked_of_owner}  # fmt: skip
            finally:
                phones.close()
        records = app.records()[began:]
        first_bytes = list(app.first_bytes.times)
        said = reader.said() if reader else []
    finally:
        app.close()
        if reader is not None:
            reader.close()
    offset = time.time() - time.perf_counter()  # (the reader's stand-in notes wall-clock times)
    (folder / "keys.json").write_text(logs.dumps({"keys": keys, "taps": taps, "wall_minus_perf": offset}))
    figures = measure([*records, *reader_records(records, said)], first_bytes, keys, taps)
    return {"game": game, "setup": setup, "interval_s": interval, "seed": seed, **figures, **taps_checked}


def reader_records(records: list[dict], said: list[dict]) -> list[dict]:
    """The messages her screen reader's stand-in said, as sentences played: each of her utterances whose words hold
    it (the latest one given before it began), its first audio byte as it began to play, cut where no end was noted
    (then it ended where the next began)."""
    from assistant.core.speech.queue import split_sentences

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
    asked = new_phone_asks(player)
    while time.monotonic() < deadline and not any(asked in r.get("full", "") for r in app.records()):
        time.sleep(0.05)  # (the app's own process: its question is waited for, then answered)
    _type(app, f"share allow {player}", keys)


def _type(app: App, line: str, keys: list[float]) -> None:
    """A line typed fast, then Enter; the moment of Enter noted."""
    app.type(line)
    keys.append(app.last_key(line))


def measure(records: list[dict], first_bytes: list[float], keys: list[float], taps: list[tuple[str, float]]) -> dict:
    """The figures from the run's log: replies shown, utterances begun and sentences played."""
    from assistant.core.game.about import DECISIVE, MoveKind
    from assistant.core.speech.queue import LAST_WORDS_S

    shown = [r for r in records if "shown" in r]
    utterances = {r["utterance"]: r for r in records if "full" in r}
    played: dict[int, list[dict]] = {}
    for entry in (r for r in records if "text" in r):
        if "audio" not in entry:  # a player process: the first audio byte of its own opening of the device
            entry["audio"] = min((t for t in first_bytes if entry["start"] - 0.005 <= t <= entry["end"] + 0.1),
                                 default=entry["start"])  # fmt: skip
        entry["heard_whole"] = entry["whole"] or entry["end"] - entry["start"] >= entry["seconds"] - LAST_WORDS_S
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
                    and reply["speech"].strip() in u["full"]), None)  # fmt: skip
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
                decisive.update([int(at)] if DECISIVE[move] else [])
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
    return {
        "overlap_s": overlap,
        "overlap_both_middle_s": middle,
        "own_keys": len(own_ms) + len(never),
        "own_words_ms": _summary(own_ms),
        "own_never_heard": never,
        "phone_moves": len(tapped),
        "phone_taps": len(taps),
        "tap_to_first_audio_ms": _summary(move_ms),
        "moves_never_heard": len(tapped) - len(first) - len(settled),
        "ends_settled_by_the_next_turn": len(settled),
        "decisive_moves": len(decisive),
        "decisive_heard_in_full": sum(1 for at in decisive if whole.get(at)),
        "moves_out_of_order": out_of_order,
        "win_ms": win_ms,
        "load_1min": round(os.getloadavg()[0], 2),
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


def goals_met(run: dict[str, Any]) -> bool:
    """Every set-up: her own words, every move heard, in order, the win, nothing both in the middle; where the
    table voice is on, a move's first audio byte within its goal."""
    own, moves = run["own_words_ms"], run["tap_to_first_audio_ms"]
    table_voice = SETUPS[run["setup"]].settings.get("table_voice", True)
    return (
        own.get("p90", 0.0) <= OWN_GOAL_MS
        and not run["own_never_heard"]
        and (not table_voice or moves.get("p90", 0.0) <= MOVE_GOAL_MS)
        and run["overlap_both_middle_s"] == 0
        and run["moves_never_heard"] == 0
        and run["decisive_heard_in_full"] == run["decisive_moves"]
        and run["moves_out_of_order"] == 0
        and run["win_ms"] is not None
        and run["win_ms"] <= WIN_GOAL_MS
        and not run["dead_buttons_tapped"]
        and run["saves_asked_of_owner"] == run["saves_asked"]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--share", help=argparse.SUPPRESS)
    parser.add_argument("--games", nargs="+", default=WHOLE, choices=list(GAMES))
    parser.add_argument("--interval", type=float, default=1.2, help="seconds between the blind player's keys")
    parser.add_argument("--seed", type=int, default=2026, help="the seed of the phones' gaps")
    parser.add_argument("--setup", help=argparse.SUPPRESS)
    parser.add_argument("--setups", nargs="+", default=[n for n in SETUPS if n != "aplay"], choices=list(SETUPS),
                        help="how she hears the table (aplay: the path before the app's mixer)")  # fmt: skip
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="espeak-ng")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's log in")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: her first four keys and one phone's Neigh (that phone alone joined, 0.5 "
        "to 1.5 s after her), one voice at its fastest; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke and not args.child:
        args.games, args.setups = ["smoke"], ["one"]
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
                _print(runs[-1], sys.stderr if args.json else sys.stdout)
                if args.keep:
                    kept = args.keep / run_folder.name
                    kept.mkdir(parents=True, exist_ok=True)
                    for name in ("played.jsonl", "keys.json", "reader/reader-said.tsv"):
                        if (run_folder / name).exists():
                            shutil.copyfile(run_folder / name, kept / Path(name).name)
    if args.json:
        print(logs.dumps(runs, indent=2))
    return 0 if args.smoke or all(goals_met(run) for run in runs if run["setup"] != "aplay") else 1


def _print(run: dict[str, Any], out: Any) -> None:
    own, moves = run["own_words_ms"], run["tap_to_first_audio_ms"]
    voices = SETUPS[run["setup"]].title
    print(f"{run['game']}, {voices}, a key every {run['interval_s']} s, phones 2 to 5 s apart (seed {run['seed']}, "
          f"load {run['load_1min']}): {run['own_keys']} own keys, Enter to its own words median "
          f"{own.get('median')} ms, p90 {own.get('p90')} ms, max {own.get('max')} ms, never heard "
          f"{len(run['own_never_heard'])}; {run['phone_moves']} phone moves ({run['phone_taps']} taps), tap to first "
          f"audio median {moves.get('median')} ms, p90 {moves.get('p90')} ms, max {moves.get('max')} ms, never "
          f"heard {run['moves_never_heard']} (ends settled {run['ends_settled_by_the_next_turn']}); decisive heard "
          f"in full {run['decisive_heard_in_full']}/{run['decisive_moves']}; out of order "
          f"{run['moves_out_of_order']}; the win {run['win_ms']} ms after its key; both voices at once "
          f"{run['overlap_s']} s, both in the middle {run['overlap_both_middle_s']} s; dead buttons tapped "
          f"{len(run['dead_buttons_tapped'])}, moves refused {len(run['moves_refused'])}; saves asked "
          f"{run['saves_asked']}, of the owner {run['saves_asked_of_owner']}",
          file=out, flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
