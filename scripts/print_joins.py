"""How the printed cards join two actions, as facts: `tests/fixtures/print_joins.json`, read by
`tests/core/test_print_joins.py` (docs/card-text-format.md, "then between two actions").

A dependent join makes the second action depend on the first: "then" between two actions (rulebook 002: "you may
only perform the second action if you successfully perform the first") or "if you do". `joins` reads them out of
a text, the printed wording and our own alike; anything else ("and", a full stop) joins with no dependency.

The fixture holds, for each card (and print variant) of a shipped deck that a source below gives in that deck's
print, only the joins the print uses and where they were read: never the printed text. To rebuild it, fetch the
two public repositories (git clones, bare or not) and run from the repository's root

    python scripts/print_joins.py PATH/TO/BOILER-R00M/unstable PATH/TO/trueMiskin/unstable-unicorns

Only repositories whose licence lets their data serve as test data are read: BOILER-R00M/unstable (MIT), a copy
of the fan card database unicornsdatabase.com; trueMiskin/unstable-unicorns (MPL-2.0), which implements the 1st
Edition second print. The other public transcriptions the decks name carry no licence and are not read here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "print_joins.json"

THEN = "then"
IF_YOU_DO = "if you do"
#: "then" anywhere; "if you do", and our texts' "should you do so", which says the same.
_JOIN = re.compile(r"\b(then)\b|\b(?:if you do|should you do so)\b", re.IGNORECASE)
#: A quotation on a card (a name it searches for, a line of flavour) joins no actions.
_QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")


def joins(text: str) -> list[str]:
    """The dependent joins of a card text, in order: `THEN` or `IF_YOU_DO` each."""
    return [THEN if found.group(1) else IF_YOU_DO for found in _JOIN.finditer(_QUOTED.sub("", text))]


#: Each source: its repository, the commit read, its licence, the file, and how it is read.
SOURCES = {
    "BOILER-R00M/unstable": {
        "commit": "a259d548c6801c9cef59578a4d4ed97bde423854",
        "licence": "MIT",
        "path": "unstable-x/src/app/functions/seed-cards.js",
    },
    "trueMiskin/unstable-unicorns": {
        "commit": "b58dc0c0adc06af06298d4cf6eda3f6dc1d870fa",
        "licence": "MPL-2.0",
        "path": "UnstableUnicorn/UnstableUnicornCore/BaseSet",
    },
}

#: Which decks a source's card gives the print of. The card database files each card under its set's code on the
#: card's image ("UU-Adv-012"); its oldest entries carry no code and are the 1st Edition second print. The Base
#: entries are the base game Unicorns Rainbow Apocalypse reprints, in the current print (the 2nd Edition's). Its
#: NSFW entries are the pack's later print, which the NSFW base game reprints; the older images of four Dragons
#: cards are left out (the deck follows the current print, which the database also gives).
DATABASE_SETS = {
    "Adv": ("uu-adventures",),
    "Lgnd": ("uu-legends",),
    "Drag": ("uu-dragons",),
    "Rain": ("uu-rainbow-apocalypse",),
    "Apoc": ("uu-rainbow-apocalypse",),
    "Base": ("uu-2nd", "uu-rainbow-apocalypse"),
    "NSFW": ("uu-nsfw-expansion", "uu-nsfw"),
    "": ("uu-1st",),
}


def _show(repo: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(_git_dir(repo)), "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _git_dir(repo: Path) -> Path:
    return repo / ".git" if (repo / ".git").exists() else repo


_FIELD = r"""{}:\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
_ENTRY = re.compile(
    r"\{\s*"
    + _FIELD.format("title")
    + r",[^{}]*?"
    + _FIELD.format("description")
    + r",[^{}]*?"
    + _FIELD.format("image"),
    re.DOTALL,
)


def _js_string(literal: str) -> str:
    """A JavaScript string literal's value, in double or single quotes."""
    if literal.startswith("'"):
        literal = '"' + literal[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'
    return str(json.loads(literal))


_SET = re.compile(r"UU-([A-Za-z]+)-\d+")


def database_cards(repo: Path) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Each card of the card database: its name, its text and the decks it gives the print of."""
    source = SOURCES["BOILER-R00M/unstable"]
    for entry in _ENTRY.finditer(_show(repo, source["commit"], source["path"])):
        name, text, image = (_js_string(entry.group(i)) for i in (1, 2, 3))
        code = _SET.search(image)
        yield name, text, DATABASE_SETS.get(code.group(1) if code else "", ())


_TEMPLATE = re.compile(r'\.Name\(("(?:[^"\\]|\\.)*")\)(?:\s*\.\w+\([^()]*\))*?\s*\.Text\(("(?:[^"\\]|\\.)*")\)')


def engine_cards(repo: Path) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Each card of the C# engine (the 1st Edition second print): its name, its text and its deck."""
    source = SOURCES["trueMiskin/unstable-unicorns"]
    listing = subprocess.run(
        ["git", "--git-dir", str(_git_dir(repo)), "ls-tree", "--name-only", source["commit"], source["path"] + "/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for path in listing:
        for found in _TEMPLATE.finditer(_show(repo, source["commit"], path)):
            yield json.loads(found.group(1)), json.loads(found.group(2)), ("uu-1st",)


def facts(read: dict[str, Iterator[tuple[str, str, tuple[str, ...]]]]) -> dict[str, dict[str, dict[str, object]]]:
    """Per deck, per card (`id`, or `id (print)` for a print variant whose marks the text holds): the joins of its
    print and the sources read. Sources that disagree on a card are each kept with their joins."""
    sys.path.insert(0, str(ROOT))
    from assistant.core.cards.card import normalize
    from assistant.core.cards.sheet import settled_variant
    from assistant.storage.decks import load_deck

    said: dict[tuple[str, str], dict[str, list[str]]] = {}
    for source, cards in read.items():
        for name, text, deck_ids in cards:
            for deck_id in deck_ids:
                card = next((c for c in load_deck(deck_id).cards if normalize(c.name) == normalize(name)), None)
                if card is not None:
                    variant = settled_variant(card, text)
                    key = f"{card.id} ({variant.print})" if variant else card.id
                    said.setdefault((deck_id, key), {})[source] = joins(text)
    decks: dict[str, dict[str, dict[str, object]]] = {}
    for (deck_id, key), by_source in sorted(said.items()):
        kinds = {tuple(j) for j in by_source.values()}
        entry: dict[str, object] = (
            {"joins": next(iter(by_source.values())), "sources": sorted(by_source)}
            if len(kinds) == 1
            else {"disagree": by_source}
        )
        decks.setdefault(deck_id, {})[key] = entry
    return decks


def build(database: Path, engine: Path) -> None:
    """Write the fixture from the two repositories' snapshots."""
    decks = facts(
        {"BOILER-R00M/unstable": database_cards(database), "trueMiskin/unstable-unicorns": engine_cards(engine)}
    )
    about = (
        "How each printed card joins two actions: the dependent joins of its print ('then', 'if you do'), in order, "
        "and the sources read (never the printed text). Made by scripts/print_joins.py; licences of the sources "
        "read: BOILER-R00M/unstable MIT, trueMiskin/unstable-unicorns MPL-2.0."
    )
    data = {"about": about, "sources": SOURCES, "decks": decks}
    FIXTURE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":  # python scripts/print_joins.py BOILER-R00M/unstable trueMiskin/unstable-unicorns
    build(Path(sys.argv[1]), Path(sys.argv[2]))
