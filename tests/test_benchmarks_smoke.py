"""Every benchmark's smoke run (`--smoke`): its real path end to end on a small set (a few keys, one game, a few
frames), in this process, and its report (`--json`) has its figures. Not whether they meet the goals: the goals
are the benchmarks' own (a smoke run exits 0 once it has figures). A change that breaks a benchmark's path (a
typed value its log cannot write, a function it calls renamed) fails here. docs/benchmarks.md says how to run
each one whole."""

from __future__ import annotations

import importlib
import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks import logs

ROOT = Path(__file__).resolve().parents[1]


def measured(value: object) -> bool:
    """A figure: a finite number (not a flag)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


#: Each benchmark run by the suite, and the figures its smoke report must hold (each a finite number).
FIGURES: dict[str, Callable[[dict | list], list[object]]] = {
    "game": lambda r: [r["event_median_ms"], r["event_p99_ms"], r["resume_median_s"]],
    "imports": lambda r: [r["sheet_bytes"], *(row["median_s"] for row in r["figures"])],
    "braille": lambda r: [r["median ms"], r["p99 ms"], *(row["top-1"] for row in r["kinds"].values())],
    "braille_display": lambda r: [
        r["line key"]["median_ms"],
        r["command typed"]["p90_ms"],
        r["pans (fact left out)"]["re_read"],
    ],  # fmt: skip
    "app": lambda r: [
        r["all_keys"]["median_ms"],
        r["look_up"]["p90_ms"],
        *r["startup_s"],
        *r["first_screen_s"],
        *r["bare_textual_import_s"],
    ],
    "speech": lambda r: [
        r["first_byte_card_name"]["p90_ms"],
        r["interrupt_mid_render"]["p90_ms"],
        r["table_pace"]["slowest_reply_start_ms"],
        r["caller_blocked_max_ms"],
    ],  # fmt: skip
    "table_pace": lambda r: [
        r[0]["own_reply_ms"]["median"],
        r[0]["own_reply_ms"]["p90"],
        r[0]["sentences_played"],
        r[0]["speech_played_s_per_turn"],
    ],  # fmt: skip
    "scanner": lambda r: [
        r["frame_ms"]["median"],
        r["frame_ms"]["p99"],
        *(s["live"]["false_positives"] for s in r["sets"].values()),
    ],  # fmt: skip
    "scanner_load": lambda r: [
        r["720p, card, background thread"]["cpu_s_per_min"],
        r["1080p, card, background thread"]["core_share"],
    ],  # fmt: skip
    "scanner_frames": lambda r: [row["convert_ms"] for row in r["rows"]] + [row["zxing_ms"] for row in r["rows"]],
    "scanner_reads": lambda r: [row["lost"] for rows in r["resolutions"].values() for row in rows.values() if row],
    "share_attacks": lambda r: [
        r["figures"]["move flood"]["cards drawn in 6.2 s"],
        r["figures"]["guessing"]["wrong codes"],
        r["figures"]["own phones"]["let in without the host"],
        r["figures"]["let-in phone's streams"]["other phones answered"],
        r["figures"]["IPv6 neighbours"]["guessing limit, 79 minutes"]["minutes the right code was refused"],
        r["figures"]["renewed code"]["codes made"],
        r["figures"]["dropped questions"]["of them in silence"],
        r["figures"]["reads vs moves"]["real moves through after 24 reads"],
        r["figures"]["headers without bodies"]["a let-in phone"]["real requests answered"],
        r["figures"]["plain mode, fresh addresses at each reopening"]["seconds from her decision to the phone let in"],
        r["figures"]["a holder asking as every player"]["real phones let in by their short names"],
        r["figures"]["a holder asking 3 times as one player, then the real phone"]["real phone's join"],
        r["figures"]["a flooding let-in phone"]["recorded taps"]["most lines in 3 s"],
    ],  # fmt: skip
    "scanner_hand": lambda r: [r["worker"]["announced"], r["worker"]["median_s"], r["thread"]["median_s"]],
    "outages": lambda r: [
        r[0]["reply p99 ms"],
        r[0]["quit s"],
        r[1]["return said"],
        r[1]["reply worst ms"],
        r[2]["reply p99 ms"],
    ],  # fmt: skip
    "share": lambda r: [
        r["tap"]["p90_ms"],
        r["click"]["median_ms"],
        r["typed"]["median_ms"],
        r["idle_cpu_s_per_min"],
        *(r["taps"][kind] for kind in ("join", "play", "neigh", "read")),
        r["keys"]["with_phones"],
    ],  # fmt: skip
    "table_hands": lambda r: [
        r[0]["own_words_ms"]["median"],
        r[0]["tap_to_first_audio_ms"]["p90"],
        r[0]["moves_never_heard"],
        r[0]["decisive_heard_in_full"],
        r[0]["overlap_s"],
    ],  # fmt: skip
    "app_camera": lambda r: [
        r["camera on"]["p90_ms"],
        r["camera off"]["p90_ms"],
        r["difference_ms"]["p90_ms"],
        r["camera on"]["stall_ms"],
    ],  # fmt: skip
    "braille_phones": lambda r: [
        r[0]["moves"],
        r[0]["never_readable"],
        r[0]["keys_typed"],
        r[0]["keys_lost"],
        r[0]["own_answers"],
        r[0]["windows_read"],
    ],  # fmt: skip
    "own_rules": lambda r: [r["uu-dragons"]["played"], r["uu-dragons"]["with_a_rule"]],
    "side_by_side": lambda r: [
        *(run["seconds"] for run in r["runs"]),
        *(figure for row in r["side_by_side"] for _path, *both in row["figures"] for figure in both),
    ],  # fmt: skip
}
#: What a benchmark needs beside the Python packages (the test command's setup installs them all).
NEEDS = {
    "outages": ["espeak-ng"],
    "app": ["aplay"],
    "speech": ["aplay", "soxi"],
    "table_pace": ["aplay", "soxi"],
    "share": ["aplay", "chromium", "espeak-ng"],
    "table_hands": ["aplay", "chromium", "espeak-ng"],
    "app_camera": ["aplay", "espeak-ng"],
    "braille_phones": ["brltty"],
    "side_by_side": ["git", "tar"],
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_a_benchmarks_smoke_run_reports_its_figures(name, capsys):
    missing = [program for program in NEEDS.get(name, []) if shutil.which(program) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    benchmark = importlib.import_module(f"benchmarks.{name}")
    assert benchmark.main(["--smoke", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = FIGURES[name](report)
    assert figures and all(measured(value) for value in figures), figures


def test_every_benchmark_with_a_command_line_has_a_smoke_run_here():
    """A benchmark module with a `main` (its command line) is run here, or named with the reason it is not."""
    # no benchmark of their own
    helpers = {"capture", "camera_model", "frames", "logs", "outage_rig", "pty_start", "voice_measure", "wechat_reader"}
    others = set(NOT_HERE)
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        name = path.stem
        if name == "__init__" or name in helpers:
            continue
        assert "def main(" in path.read_text(encoding="utf-8"), name
        assert name in FIGURES or name in others, f"benchmarks/{name}.py has no smoke run in the suite"


#: Benchmarks with a smoke mode the suite does not run, and why (none today: every one is run above).
NOT_HERE: dict[str, str] = {}


def test_the_logs_write_typed_values_by_their_names():
    """One writing for every benchmark's log: an enum by its name (read back with `Kind[name]`), a dataclass as its
    fields, a set as a list, a mapping's enum keys by their names; a value JSON cannot hold still raises."""
    import dataclasses

    from assistant.core.game.about import MoveKind

    @dataclasses.dataclass(frozen=True)
    class Move:
        kind: MoveKind
        at: int

    written = json.loads(logs.dumps({"moves": {3: [Move(MoveKind.END, 3)]}, "kinds": {MoveKind.PLAY: {MoveKind.END}}}))
    assert written == {"moves": {"3": [{"kind": "END", "at": 3}]}, "kinds": {"PLAY": ["END"]}}
    assert MoveKind[written["moves"]["3"][0]["kind"]] is MoveKind.END
    with pytest.raises(TypeError):
        logs.dumps({"what": object()})
