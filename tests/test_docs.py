"""What the README and the user guide tell a player, tried: the examples they give work, the keys they list are the
app's keys, the commands they give run as written, the settings they name exist, the package's metadata claims
only what is tested."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from assistant.commands.app import table_session
from assistant.storage.decks import DEFAULT_DECK, load_card_set

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
PLATFORMS = (ROOT / "docs" / "platforms.md").read_text(encoding="utf-8")


def test_the_guides_abbreviation_example_names_its_card():
    said = re.search(r"as letters, like (.+?) for\s+(.+?) \(", GUIDE)
    assert said is not None, "the guide gives an abbreviation typed as letters, and the card it names"
    typed, card = said.group(1), said.group(2)
    reply = table_session(load_card_set(DEFAULT_DECK)).handle(typed)
    assert reply.card is not None and reply.card.name == card, reply.speech  # the card itself, not a list


def test_the_readmes_search_examples_find_cards_in_the_default_deck():
    example = re.search(r'mention the words \("([^"]+)", "([^"]+)"', README)
    assert example is not None
    session = table_session(load_card_set(DEFAULT_DECK))
    for words in example.groups():
        reply = session.handle(f"search {words}")
        assert "mention" in reply.speech and not reply.speech.startswith("No card"), (words, reply.speech)


def test_the_guide_gives_each_command_as_it_runs_from_the_project_folder():
    """After the set-up, the command is `.venv/bin/table-assistant` (the README's PATH link is the player's own
    choice): the guide never tells a player to type a bare `table-assistant`."""
    bare = [m.start() for m in re.finditer(r"(?<!/)\btable-assistant\b", GUIDE)]
    assert bare == [], [GUIDE[i - 40 : i + 30] for i in bare]


def test_the_readmes_keys_table_has_every_key_of_the_app():
    from assistant.ui.app import TableApp
    from assistant.ui.braille_input import BrailleInput

    table = "\n".join(
        line.split("|")[1] for line in README.split("## Keyboard")[1].splitlines() if line.startswith("|")
    )
    spelled = {"ctrl": "Ctrl", "escape": "Escape", "pageup": "Page Up", "pagedown": "Page Down", "up": "Up"}
    spelled |= {"down": "Down", "shift": "Shift", **{f"f{n}": f"F{n}" for n in range(1, 13)}}
    for binding in [*TableApp.BINDINGS, *BrailleInput.BINDINGS]:
        key = binding.key  # type: ignore[union-attr]
        name = "+".join(spelled.get(part, part.upper()) for part in key.split("+"))
        assert name in table, f"{key} ({binding.description}) is not in the README's keys table"  # type: ignore[union-attr]


def test_the_camera_can_be_turned_off_in_the_settings_as_the_guide_says(private_home):
    from assistant.cli import build_parser
    from assistant.commands.app import make_app
    from assistant.core.speech.settings import SpeechSettings
    from assistant.storage.settings import save_settings

    assert "set camera = false in the settings" in " ".join(GUIDE.split())
    assert make_app(build_parser().parse_args([])).camera is not None  # by default the app looks for one
    save_settings(SpeechSettings(camera=False))
    assert make_app(build_parser().parse_args([])).camera is None
    assert make_app(build_parser().parse_args(["--no-camera"]), settings=SpeechSettings()).camera is None


def test_the_classifiers_name_only_the_python_versions_that_are_tested():
    """The lowest dependency versions (scripts/test-minimums.sh) have no wheels for the newest Pythons: the
    metadata names the versions docs/platforms.md says the suite runs on, no more."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    claimed = {c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if re.fullmatch(r".*Python :: 3\.\d+", c)}
    tested = re.search(r"The suite runs on Python ([\d., and]+)\.", PLATFORMS)
    assert tested is not None, "docs/platforms.md says which Python versions the suite runs on"
    assert claimed == set(re.findall(r"3\.\d+", tested.group(1)))


def test_the_classifiers_name_only_the_operating_systems_the_app_was_run_on():
    """An operating system docs/platforms.md says the app never ran on ("Never run on Windows itself") is not
    claimed in the package's metadata; Linux, where the suite runs, is."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    claimed = {c.split(" :: ")[1] for c in project["classifiers"] if c.startswith("Operating System ::")}
    never_run = {"Microsoft": "Never run on Windows", "MacOS": "Never run on macOS"}
    assert "POSIX" in claimed
    for system, sentence in never_run.items():
        assert (system in claimed) is not (sentence in PLATFORMS), system


def test_the_screen_reader_library_comes_with_the_app_on_windows_and_macos_and_not_on_linux():
    """Without accessible_output2 the app cannot see NVDA, JAWS or VoiceOver, and its own voice talks over them: it
    is a dependency there, not an extra to know about. On Linux the screen readers speak through speech-dispatcher."""
    from packaging.markers import Marker

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {}
    for dependency in project["dependencies"]:
        requirement, _, marker = dependency.partition(";")
        if requirement.strip().startswith("accessible_output2"):
            for platform in ("win32", "darwin", "linux"):
                wanted[platform] = not marker.strip() or Marker(marker).evaluate({"sys_platform": platform})
    assert wanted == {"win32": True, "darwin": True, "linux": False}
