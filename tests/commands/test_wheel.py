"""The built wheel, installed into a fresh virtual environment outside the repository and run from another folder
as a packager's user would run it: it must carry its decks, braille maps and rules.

One wheel and one environment serve the whole module. The environment has no pip and takes its third-party
libraries from the test's own environment through a path file (the same as --system-site-packages would): what is
tested is our package, its data and its entry point, not a download of numpy. The source checkout is never on its
path, which each test checks.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from assistant import __version__
from tests.ui.test_plain_game import SCRIPT  # the same plain game, played by the installed wheel

ROOT = Path(__file__).resolve().parents[2]


def _build(kind: str, out: Path) -> Path:
    """Build the wheel or the sdist with the project's own backend; offline when it is installed here."""
    if kind == "wheel":
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)]
        if importlib.util.find_spec("hatchling") is not None:
            command.insert(4, "--no-build-isolation")
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=300)
        return next(out.glob("table_assistant-*.whl"))
    from hatchling.builders.sdist import SdistBuilder

    return Path(next(SdistBuilder(str(ROOT)).build(directory=str(out), versions=["standard"])))


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, Path]:
    """The wheel installed into a new environment: its python, its `table-assistant` and an empty folder to run in."""
    base = tmp_path_factory.mktemp("wheel")
    wheel = _build("wheel", base / "dist")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The libraries only: a folder named in a .pth file is added to the path, its own .pth files (the editable
    # install's pointer to this checkout) are not read.
    libraries = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "test_libraries.pth").write_text("\n".join(sorted(libraries)) + "\n", encoding="utf-8")
    work = base / "elsewhere"
    work.mkdir()
    return {"python": python, "command": python.parent / "table-assistant", "cwd": work, "wheel": wheel}


def _run(installed: dict[str, Path], *args: str, stdin: str = "", home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TABLE_ASSISTANT_CARD_TEXTS")}
    env["TABLE_ASSISTANT_HOME"] = str(home)
    return subprocess.run(
        [str(installed["command"]), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=installed["cwd"],
    )


def test_the_wheel_carries_the_decks_maps_rules_and_licence(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    for deck in (ROOT / "card_texts").glob("*.toml"):
        assert f"assistant/data/card_texts/{deck.name}" in names
    for braille_map in (ROOT / "braille_map").glob("*.toml"):
        assert f"assistant/data/braille_map/{braille_map.name}" in names
    assert "assistant/core/game/rules.toml" in names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert not any(name.startswith(("tests/", "card_texts/", "braille_map/")) for name in names)


def test_the_wheel_installs_the_man_page_where_man_finds_it(installed):
    """`man table-assistant` with the environment's `bin` on the PATH (man-db looks in ../share/man of each)."""
    venv = installed["python"].parent.parent
    page = venv / "share" / "man" / "man1" / "table-assistant.1"
    assert page.read_text(encoding="utf-8") == (ROOT / "docs" / "table-assistant.1").read_text(encoding="utf-8")
    if shutil.which("man") is None:
        pytest.skip("no man command here to look the page up")
    env = {k: v for k, v in os.environ.items() if k not in ("MANPATH", "MANPAGER", "PAGER")}
    env["PATH"] = f"{installed['python'].parent}{os.pathsep}{env.get('PATH', '')}"
    found = subprocess.run(["man", "-w", "table-assistant"], capture_output=True, text=True, env=env, timeout=60)
    assert found.returncode == 0 and Path(found.stdout.strip()) == page, found


def test_the_installed_package_is_the_wheel_not_this_checkout(installed, tmp_path):
    found = subprocess.run(
        [
            str(installed["python"]),
            "-c",
            "import assistant, assistant.storage.paths as p; "
            "print(assistant.__file__); print(p.card_texts_dir()); print(p.braille_map_dir())",
        ],
        capture_output=True,
        text=True,
        cwd=installed["cwd"],
        check=True,
    ).stdout.splitlines()
    venv = installed["python"].parent.parent
    assert all(Path(line).is_relative_to(venv) for line in found), found
    assert not any(Path(line).is_relative_to(ROOT) for line in found)


def test_version_from_the_installed_wheel(installed, tmp_path):
    result = subprocess.run(
        [str(installed["python"]), "-m", "assistant", "--version"],
        capture_output=True,
        text=True,
        cwd=installed["cwd"],
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"table-assistant {__version__}"


def test_card_and_deck_list_find_the_shipped_decks(installed, tmp_path):
    card = _run(installed, "card", "rainbow aura", home=tmp_path)
    assert card.returncode == 0, card.stderr
    assert card.stdout.splitlines()[0] == "Rainbow Aura"
    decks = _run(installed, "deck", "list", home=tmp_path)
    assert decks.returncode == 0, decks.stderr
    listed = {line.split(":")[0] for line in decks.stdout.splitlines()}
    assert listed == {path.stem for path in (ROOT / "card_texts").glob("*.toml")}


def test_a_scripted_plain_game_is_played_and_saved(installed, tmp_path):
    result = _run(installed, "--plain", stdin=SCRIPT, home=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Ana wins with 3 Unicorns! The game is over." in lines
    assert lines[-1] == "Unicorns: Ana 3, Ben 1, Cy 1. 3 to win."
    state = _run(installed, "state", home=tmp_path)
    assert state.returncode == 0 and "Ana" in state.stdout


def test_labels_then_scan_read_the_sticker_sheet_back(installed, tmp_path):
    sheet = tmp_path / "sheet.png"
    labels = _run(installed, "labels", "uu-dragons", "--out", str(sheet), "--unique", home=tmp_path)
    assert labels.returncode == 0, labels.stderr
    braille = _run(installed, "labels", "uu-dragons", "--braille", str(tmp_path / "labels.txt"), home=tmp_path)
    assert braille.returncode == 0, braille.stderr
    assert "⠠" in (tmp_path / "labels.txt").read_text(encoding="utf-8") or "⠁" in (tmp_path / "labels.txt").read_text(
        encoding="utf-8"
    )
    scan = _run(installed, "scan", str(sheet), "--deck", "uu-dragons", home=tmp_path)
    assert scan.returncode == 0, scan.stderr
    first = scan.stdout.splitlines()[0]
    assert first.startswith(f"{sheet}: ") and " codes: " in first
    assert "Dragon" in first


def test_the_sdist_carries_decks_docs_and_licence(tmp_path):
    pytest.importorskip("hatchling")
    sdist = _build("sdist", tmp_path)
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert "LICENSE" in names and "pyproject.toml" in names and "README.md" in names
    assert {f"card_texts/{p.name}" for p in (ROOT / "card_texts").glob("*.toml")} <= names
    assert {f"braille_map/{p.name}" for p in (ROOT / "braille_map").glob("*.toml")} <= names
    assert {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= names


def test_the_wheel_and_the_sdist_pass_the_package_indexs_own_check(installed, tmp_path):
    """`twine check --strict`: the metadata a package index reads, the README rendered as its page, warnings
    counted as failures."""
    pytest.importorskip("twine")  # (in the test extra: `pip install -e .[test]`)
    sdist = _build("sdist", tmp_path)
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(installed["wheel"]), str(sdist)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout
