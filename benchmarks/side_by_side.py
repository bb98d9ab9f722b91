"""A benchmark run on the code of an earlier commit and on this tree, alternately, in one run.

`python -m benchmarks.side_by_side --before COMMIT --module table_hands --part "--games uu-2nd --setups own"
--part "--games llamas --setups own" [--keep FOLDER] [--timeout S] [--json]`

The commit is exported whole (`git archive`, its own `assistant` and its own `benchmarks`) into a temporary
folder; each part (the benchmark's own options) is then run once on the code before and once on this tree, before
then now, one part after the other, so that both meet the same load in turn. Each run is the benchmark's own
command line (`python -m benchmarks.MODULE PART --json`, from the tree it measures, with that tree first on
`PYTHONPATH`), with `--keep FOLDER/<side>-<part>` when a folder is given, stopped after `--timeout` seconds. For each
run it notes the start and the end (UTC) and the load average (`/proc/loadavg`, 1, 5 and 15 minutes) at each, and
its exit code; its JSON report is kept as it came. Printed: every numeric figure both reports hold at the same key
(a dotted path into the JSON, list items by their index), before and now side by side, with each run's times and
loads. A part the code before does not know (an option it lacks) fails there alone: its exit code says so.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import logs

ROOT = Path(__file__).resolve().parents[1]
SIDES = ("before", "now")


def export(commit: str, into: Path, repo: Path = ROOT) -> Path:
    """The tree of `commit` in `repo`, written under `into` (`git archive | tar -x`); raises CalledProcessError
    when git does not know the commit."""
    archive = subprocess.run(["git", "-C", str(repo), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (`/proc/loadavg`); empty where the system has no such file."""
    try:
        return [float(field) for field in Path("/proc/loadavg").read_text(encoding="ascii").split()[:3]]
    except OSError:
        return []


def now_utc() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_part(tree: Path, module: str, part: list[str], keep: Path | None, timeout_s: float) -> dict[str, Any]:
    """One run of `benchmarks.<module>` from `tree` with the options `part` and `--json`: its times, loads, exit
    code (None when stopped at `timeout_s`) and its JSON report (None when it printed none)."""
    command = [sys.executable, "-m", f"benchmarks.{module}", *part, "--json"]
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        command += ["--keep", str(keep)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run: dict[str, Any] = {"command": shlex.join(command), "start": now_utc(), "load_start": load_average()}
    began = time.monotonic()
    try:
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout_s)
        run["exit_code"], out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as stopped:
        run["exit_code"] = None
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else (stopped.stdout or "")
        err = stopped.stderr.decode() if isinstance(stopped.stderr, bytes) else (stopped.stderr or "")
    run["seconds"] = round(time.monotonic() - began, 1)
    run["end"], run["load_end"] = now_utc(), load_average()
    try:
        run["report"] = json.loads(out)
    except ValueError:
        run["report"] = None
        run["stderr_tail"] = err[-2000:]
    return run


def figures(report: Any, prefix: str = "") -> dict[str, float]:
    """Every finite number in a JSON report by its dotted path (`0.own_words_ms.p90`); flags are left out."""
    found: dict[str, float] = {}
    if isinstance(report, dict):
        items: Any = report.items()
    elif isinstance(report, list):
        items = enumerate(report)
    else:
        if isinstance(report, int | float) and not isinstance(report, bool) and math.isfinite(report):
            found[prefix] = report
        return found
    for key, value in items:
        found.update(figures(value, f"{prefix}.{key}" if prefix else str(key)))
    return found


def side_by_side(before: Any, now: Any) -> list[tuple[str, float, float]]:
    """The figures both reports hold at the same path, in the order of the report now: (path, before, now)."""
    old, new = figures(before), figures(now)
    return [(path, old[path], value) for path, value in new.items() if path in old]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="HEAD", help="the commit of the code before (default HEAD)")
    parser.add_argument("--module", default="game", help="the benchmark, as benchmarks.MODULE (default game)")
    parser.add_argument("--part", action="append", default=[], help="one part's options, quoted; repeatable")
    parser.add_argument("--keep", type=Path, default=None, help="a folder for each run's --keep folder")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds before a run is stopped")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="benchmarks.game's smoke run, once a side")
    args = parser.parse_args(argv)
    if args.smoke:
        args.module, args.part = "game", ["--smoke"]
    parts = [shlex.split(part) for part in args.part] or [[]]
    with tempfile.TemporaryDirectory(prefix="side-by-side-") as tmp:
        trees = {"before": export(args.before, Path(tmp)), "now": ROOT}
        runs = []
        for index, part in enumerate(parts):
            for side in SIDES:
                keep = args.keep / f"{side}-{index}" if args.keep else None
                run = run_part(trees[side], args.module, part, keep, args.timeout)
                runs.append({"part": index, "options": part, "side": side, **run})
    rows = []
    for index, part in enumerate(parts):
        before, now = (next(r for r in runs if r["part"] == index and r["side"] == side) for side in SIDES)
        rows.append({"part": index, "options": part, "figures": side_by_side(before["report"], now["report"])})
    if args.json:
        print(logs.dumps({"before": args.before, "module": args.module, "runs": runs, "side_by_side": rows}, indent=2))
    else:
        for run in runs:
            print(
                f"part {run['part']} {run['side']}: {run['start']} to {run['end']}, load {run['load_start']} to "
                f"{run['load_end']}, exit {run['exit_code']}"
            )
        for row in rows:
            print(f"\npart {row['part']} ({shlex.join(row['options'])}): figure, before, now")
            for path, old, new in row["figures"]:
                print(f"  {path}: {old} {new}")
    return 0 if all(run["report"] is not None for run in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
