"""Card texts are ours: no shipped text shares a run of more than 7 words with a public transcription of the printed
card, the runs measured across sentence ends and only the exempt openings below left out (docs/card-text-format.md).

The transcriptions are not in this repository: `tests/fixtures/printed_windows.json` holds, for each card name, only
salted hashes of every run of 8 words of the printed texts, normalised as `words` does. The test hashes every run of
8 words of our texts the same way and fails on a match, naming the card. To rebuild the fixture from transcriptions
(a JSON object of card name to a list of printed texts): `python -m tests.core.test_own_words SOURCES.json`; with
`--add`, the runs of another game's transcriptions are added under the fixture's own salt (the Llamas Unleashed ones
were, from the hand-typed card database of the public repository `llamas_unleashed.json` cites:
dexter-0707/Software_task_2025, `.database/data_source.db`; and so were the texts of the three licensed repositories
`scripts/print_joins.py` reads, written by `python scripts/print_joins.py --texts OUT.json` with the same three
clones). Number words are read both as they are and as digits ("the other two" is "the other 2"), the licensed
texts' runs added both ways.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sys
from pathlib import Path

import pytest

from assistant.core.cards.card import Card, normalize
from assistant.storage.decks import deck_files, load_deck

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "printed_windows.json"
RUN = 8
"""A shared run this long is too long: 7 words in a row is the most a text may share."""

#: The openings a text keeps as printed, so a player hears at once when an effect happens; a run may not reach
#: into or across one.
EXEMPT_OPENINGS = (
    "when this card enters your stable",
    "when this card enters your field",
    "if this card is in your stable at the beginning of your turn",
    "if this card is in your field at the beginning of your turn",
    "play this card when another player tries to",
)


#: Numbers said as words, read as their digits when runs are compared number for number ("the other two" and "the
#: other 2" are one run).
NUMBERS = {w: str(n) for n, w in enumerate("zero one two three four five six seven eight nine ten".split())}


def words(text: str, numbers: bool = False) -> list[str]:
    """A text as lower-case words, marks left out and runs crossing sentence ends ("Neigh'd" is one word); with
    `numbers`, a number word as its digits."""
    said = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.replace("\u2019", "'").lower())
    return [NUMBERS.get(word, word) for word in said] if numbers else said


def runs(text: str, exempt: tuple[str, ...] = (), numbers: bool = False) -> set[str]:
    """Every run of `RUN` words of the text, leaving out each run that takes a word of an exempt opening; with
    `numbers`, number words read as digits (`words`)."""
    said = words(text, numbers)
    free = [True] * len(said)
    for opening in (words(o, numbers) for o in exempt):
        for start in range(len(said) - len(opening) + 1):
            if said[start : start + len(opening)] == opening:
                free[start : start + len(opening)] = [False] * len(opening)
    return {" ".join(said[i : i + RUN]) for i in range(len(said) - RUN + 1) if all(free[i : i + RUN])}


def run_hash(salt: str, run: str) -> str:
    return hashlib.sha256(f"{salt}\n{run}".encode()).hexdigest()[:20]


@pytest.fixture(scope="module")
def printed() -> tuple[str, dict[str, set[str]]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data["salt"], {name: set(hashes) for name, hashes in data["cards"].items()}


def texts(card: Card) -> list[tuple[str, str]]:
    """The card's text and each of its other prints' texts, with what to call each."""
    return [(card.id, card.text)] + [(f"{card.id} ({v.print})", v.text) for v in card.print_variants]


def shared(salt: str, hashes: set[str], text: str) -> list[str]:
    """The runs of the text found among a card's hashes, its number words read both as they are and as digits (the
    licensed transcriptions' runs are in the fixture both ways)."""
    said = runs(text, EXEMPT_OPENINGS) | runs(text, EXEMPT_OPENINGS, numbers=True)
    return sorted(run for run in said if run_hash(salt, run) in hashes)


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_no_card_text_shares_more_than_7_words_in_a_row_with_the_printed_card(deck_id, printed):
    salt, by_name = printed
    found = {}
    for card in load_deck(deck_id).cards:
        hashes = by_name.get(normalize(card.name), set())
        for called, text in texts(card):
            copied = shared(salt, hashes, text)
            if copied:
                found[called] = copied
    assert found == {}


def test_the_fixture_covers_the_decks_with_public_transcriptions(printed):
    """Most Unstable Unicorns cards have a transcription to be measured against, and so do the Llamas Unleashed
    cards with an effect (its Basic Animals print none)."""
    _, by_name = printed
    names = {normalize(c.name) for d in deck_files() if d.startswith("uu-") for c in load_deck(d).cards}
    assert len(names & set(by_name)) >= 300
    llamas = [c for d in ("llamas", "llamas-farmed") for c in load_deck(d).cards if c.type.value != "basic"]
    measured = [c.id for c in llamas if normalize(c.name) in by_name]
    assert len(measured) >= 0.9 * len(llamas), sorted(c.id for c in llamas if c.id not in measured)


def test_a_copied_run_is_found_and_an_opening_is_left_out():
    salt = "test"
    copied = "the quick brown fox jumps over the lazy dog by the river"
    hashes = {run_hash(salt, r) for r in runs(copied)}
    assert shared(salt, hashes, "Then " + copied + ".") != []
    assert shared(salt, hashes, "The quick brown fox jumps. Over the lazy dog it goes.") != [], "across a full stop"
    assert shared(salt, hashes, "The quick brown fox jumps, then naps under the lazy dog by the river.") == []
    two = {run_hash(salt, r) for r in runs("then put the other two back on top of the deck", numbers=True)}
    assert shared(salt, two, "Then put the other 2 back on top of the deck.") != [], "a number word is its digits"
    opening = "when this card enters your stable you may hum a tune"
    hashes = {run_hash(salt, r) for r in runs(opening)}
    assert shared(salt, hashes, "When this card enters your Stable, you may hum a tune.") == []
    assert shared(salt, hashes, "So, when this card enters your Stable, you may hum a tune.") == []


def build(sources: Path, add: bool = False) -> None:
    """Write the fixture from transcriptions: {card name: [printed text, ...]}; a new salt each time, or, with
    `add`, the fixture's own salt and cards kept and the new transcriptions' runs added to them."""
    transcribed = json.loads(sources.read_text(encoding="utf-8"))
    salt = secrets.token_hex(16)
    cards: dict[str, list[str]] = {}
    if add:
        kept = json.loads(FIXTURE.read_text(encoding="utf-8"))
        salt, cards = kept["salt"], kept["cards"]
    for name, printed_texts in transcribed.items():
        hashes = {run_hash(salt, r) for text in printed_texts for r in runs(text) | runs(text, numbers=True)}
        key = normalize(name)
        cards[key] = sorted(set(cards.get(key, [])) | hashes)
    FIXTURE.write_text(json.dumps({"salt": salt, "cards": dict(sorted(cards.items()))}, indent=0) + "\n")


if __name__ == "__main__":  # python -m tests.core.test_own_words [--add] SOURCES.json
    build(Path(sys.argv[-1]), add="--add" in sys.argv)
