"""How the printed cards join two actions, as facts: `tests/fixtures/print_joins.json`, read by
`tests/core/test_print_joins.py` (docs/card-text-format.md, "then between two actions").

A dependent join makes the second action depend on the first: "then" between two actions (rulebook 002: "you may
only perform the second action if you successfully perform the first") or "if you do". `joins` reads them out of
a text, the printed wording and our own alike; anything else ("and", a full stop) joins with no dependency.

The fixture holds, for each card (and print variant) of a shipped deck that a source below gives in that deck's
print, only the joins the print uses and where they were read: never the printed text. To rebuild it, fetch the
three public repositories (git clones, bare or not) and run from the repository's root

    python scripts/print_joins.py BOILER-R00M/unstable trueMiskin/unstable-unicorns doahuang/unstable-unicorns

(each argument the path of that repository's clone). Only repositories whose licence lets their data serve as test
data are read (`SOURCES`): BOILER-R00M/unstable (MIT), a copy of the fan card database unicornsdatabase.com;
trueMiskin/unstable-unicorns (MPL-2.0), which implements the 1st Edition second print; doahuang/unstable-unicorns
(MIT, as its package.json declares), with the 2nd Edition base game. The other public transcriptions the decks
name carry no licence and are not read here.
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
#: The game's defined actions, which our texts keep as the print has them (docs/card-text-format.md).
ACTIONS = ("draw", "discard", "sacrifice", "destroy", "steal")
_WORD = re.compile(r"[a-z']+")
_SENTENCE_END = re.compile(r"[.;:]")
_NOT_ACTIONS = re.compile(r"\b(?:discard pile|draw phase)\b")
REACH = 6
"""How many words after a join its second action is looked for, within its sentence."""


def joins(text: str) -> list[tuple[str, str]]:
    """The dependent joins of a card text, in order: `THEN` or `IF_YOU_DO` each, with the defined action (one of
    `ACTIONS`) that follows it within `REACH` words of its sentence, which is what depends on the first action
    ("" when none does: "then take another turn")."""
    text = _QUOTED.sub("", text)
    found = []
    for join in _JOIN.finditer(text):
        rest = _SENTENCE_END.split(_NOT_ACTIONS.sub("", text[join.end() :].lower()), maxsplit=1)[0]
        words = _WORD.findall(rest)[:REACH]
        action = next((action for word in words for action in ACTIONS if word in (action, action + "s")), "")
        found.append((THEN if join.group(1) else IF_YOU_DO, action))
    return found


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
    "doahuang/unstable-unicorns": {
        "commit": "68c90b5183d22d824a4883bcc91b84443a51635a",
        "licence": "MIT (declared in its package.json; no LICENSE file)",
        "path": "src/decks/base",
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


def _git(repo: Path, *args: str) -> str:
    git_dir = repo / ".git" if (repo / ".git").exists() else repo
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True, text=True).stdout


def _files(repo: Path, source: dict[str, str]) -> Iterator[str]:
    """The text of the source's file, or of each file under its folder, at its commit."""
    for path in _git(repo, "ls-tree", "-r", "--name-only", source["commit"], source["path"]).split():
        yield _git(repo, "show", f"{source['commit']}:{path}")


#: A string literal of JavaScript or C#, in double or single quotes.
_LITERAL = r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""


def _string(literal: str) -> str:
    """A string literal's value."""
    if literal.startswith("'"):
        literal = '"' + literal[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'
    return str(json.loads(literal))


_ENTRY = re.compile(
    rf"\{{\s*title:\s*({_LITERAL}),[^{{}}]*?description:\s*({_LITERAL}),[^{{}}]*?image:\s*({_LITERAL})", re.DOTALL
)
_SET = re.compile(r"UU-([A-Za-z]+)-\d+")


def database_cards(repo: Path) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Each card of the card database: its name, its text and the decks it gives the print of."""
    for data in _files(repo, SOURCES["BOILER-R00M/unstable"]):
        for entry in _ENTRY.finditer(data):
            name, text, image = (_string(entry.group(i)) for i in (1, 2, 3))
            code = _SET.search(image)
            yield name, text, DATABASE_SETS.get(code.group(1) if code else "", ())


_TEMPLATE = re.compile(rf"\.Name\(({_LITERAL})\)(?:\s*\.\w+\([^()]*\))*?\s*\.Text\(({_LITERAL})\)")


def engine_cards(repo: Path) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Each card of the C# engine (the 1st Edition second print): its name, its text and its deck."""
    for code in _files(repo, SOURCES["trueMiskin/unstable-unicorns"]):
        for found in _TEMPLATE.finditer(code):
            yield _string(found.group(1)), _string(found.group(2)), ("uu-1st",)


_NAME_DESC = re.compile(rf"""["']?name["']?:\s*({_LITERAL})\s*,\s*["']?desc["']?:\s*({_LITERAL})""")


def second_edition_cards(repo: Path) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Each named card of the JavaScript version's base deck, from the 2nd Edition's card images ("UU-Base-068-SE"):
    its name, its text and its deck. Its Basic and Baby Unicorns are unnamed, with no effect."""
    for data in _files(repo, SOURCES["doahuang/unstable-unicorns"]):
        for found in _NAME_DESC.finditer(data):
            yield _string(found.group(1)), _string(found.group(2)), ("uu-2nd",)


def facts(read: dict[str, Iterator[tuple[str, str, tuple[str, ...]]]]) -> dict[str, dict[str, dict[str, object]]]:
    """Per deck, per card (`id`, or `id (print)` for a print variant whose marks the text holds): the joins of its
    print and the sources read. Two texts of one print joined differently stop the script: a person decides."""
    sys.path.insert(0, str(ROOT))
    from assistant.core.cards.card import normalize
    from assistant.core.cards.sheet import settled_variant
    from assistant.storage.decks import load_deck

    joined: dict[tuple[str, str], list[tuple[str, str]]] = {}
    read_from: dict[tuple[str, str], list[str]] = {}
    for source, cards in read.items():
        for name, text, deck_ids in cards:
            for deck_id in deck_ids:
                card = next((c for c in load_deck(deck_id).cards if normalize(c.name) == normalize(name)), None)
                if card is None:
                    continue
                variant = settled_variant(card, text)
                at = (deck_id, f"{card.id} ({variant.print})" if variant else card.id)
                if joined.setdefault(at, joins(text)) != joins(text):
                    raise SystemExit(f"{at}: {source} joins its actions unlike {read_from[at]}")
                if source not in read_from.setdefault(at, []):
                    read_from[at].append(source)
    decks: dict[str, dict[str, dict[str, object]]] = {}
    for deck_id, key in sorted(joined):
        decks.setdefault(deck_id, {})[key] = {"joins": joined[deck_id, key], "sources": read_from[deck_id, key]}
    return decks


def build(database: Path, engine: Path, second: Path) -> None:
    """Write the fixture from the three repositories' snapshots, one card a line."""
    decks = facts(
        {
            "BOILER-R00M/unstable": database_cards(database),
            "trueMiskin/unstable-unicorns": engine_cards(engine),
            "doahuang/unstable-unicorns": second_edition_cards(second),
        }
    )
    about = (
        "How each printed card joins two actions, as facts, never the printed text: per deck and card (and print), "
        "its dependent joins in order, each the join ('then' or 'if you do') and the defined action it leads to "
        "within 6 words ('' when none), and the sources read. Made by scripts/print_joins.py from the sources below, "
        "each at its commit, under its licence: BOILER-R00M/unstable MIT, trueMiskin/unstable-unicorns MPL-2.0, "
        "doahuang/unstable-unicorns MIT (declared in its package.json)."
    )
    head = json.dumps({"about": about, "sources": SOURCES}, indent=1, ensure_ascii=False)[:-2]
    lines = [f'{head},\n "decks": {{']
    for number, (deck, cards) in enumerate(decks.items()):
        lines.append(f"  {json.dumps(deck)}: {{")
        lines.append(",\n".join(f"   {json.dumps(key)}: {json.dumps(fact)}" for key, fact in cards.items()))
        lines.append("  }," if number < len(decks) - 1 else "  }")
    FIXTURE.write_text("\n".join(lines) + "\n }\n}\n", encoding="utf-8")


def write_texts(out: Path, database: Path, engine: Path, second: Path) -> None:
    """The three sources' card texts as {card name: [text, ...]}, for `tests/core/test_own_words.py --add`, which
    keeps only salted hashes of their runs of words (never the texts) in its fixture."""
    texts: dict[str, list[str]] = {}
    for cards in (database_cards(database), engine_cards(engine), second_edition_cards(second)):
        for name, text, _ in cards:
            texts.setdefault(name, []).append(text)
    out.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":  # python scripts/print_joins.py [--texts OUT.json] BOILER-R00M/unstable trueMiskin/...
    if sys.argv[1] == "--texts":
        write_texts(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), Path(sys.argv[5]))
    else:
        build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
