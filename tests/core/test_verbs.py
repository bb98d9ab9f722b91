"""The verb table is the one source of truth: every event has a verb, a handler and a sentence; the help and
docs/commands.md are made from the table; a verb's phrases are understood."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from assistant.core.game import moves
from assistant.core.game.events import EVENT_TYPES, Gathered, Phase, Source
from assistant.core.game.history import Game
from assistant.core.game.setup import Setup
from assistant.core.language.verb_names import VerbName
from assistant.core.language.verbs import BY_NAME, VERBS, Kind, find_verb, help_rows, markdown_tables, parse_command
from assistant.core.words.kinds import describe_event
from assistant.storage.decks import load_card_set

ROOT = Path(__file__).resolve().parents[2]
CARDS = load_card_set("uu-2nd")


def test_every_event_type_has_a_verb_a_handler_and_a_sentence():
    made = {event for verb in VERBS for event in verb.events}
    assert made == set(EVENT_TYPES.values()), "every kind of event is recorded by some verb"
    assert set(moves._APPLY) == set(EVENT_TYPES.values()), "and applied"
    game = Game.new(Setup(("Ana", "Ben"), "uu-current"), CARDS)
    for cls in EVENT_TYPES.values():
        fields = {"player": 0, "owner": 1, "other_owner": 0, "other": 1, "into": 1, "to": 1, "count": 2,
                  "card": "yay", "other_card": "slowdown", "source": Source.DECK, "skip": False,
                  "what": Gathered.CARD, "barred": True, "phase": Phase.ACTION, "targets": (1,),
                  "whole": False}  # fmt: skip
        event = cls(**{name: fields[name] for name in cls.__dataclass_fields__ if name != "KIND"})
        sentence = describe_event(game.table, event, game.state)
        assert sentence and sentence != cls.__name__, f"{cls.__name__} has its own sentence"


def test_event_verbs_build_and_question_verbs_answer():
    for verb in VERBS:
        if verb.kind is Kind.EVENT:
            assert verb.build is not None and verb.events, verb.name
        if verb.kind is Kind.QUESTION and verb.name not in ("card", "help"):
            assert verb.answer is not None, verb.name


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: v.name)
def test_each_phrase_of_a_verb_finds_that_verb(verb):
    for phrase in verb.phrases:
        said = phrase.replace(" *", "").split()
        found = find_verb(said)
        assert found is not None and found[0] is verb, phrase


@pytest.mark.parametrize("verb", [v for v in VERBS if v.kind is not Kind.START], ids=lambda v: v.name)
def test_each_example_of_a_verb_parses_to_that_verb(verb):
    example = re.sub(r"\(.*\)", "", verb.rendered()[0][0]).split(",")[0].replace("`", "").strip()
    example = example.replace("CARD", "yay")
    command = parse_command(example, ("Ana", "Ben", "Cy"))
    assert command is not None and command.verb == verb.name, example


def test_the_help_has_a_line_for_every_verb():
    lines = [line for _, line in help_rows()]
    assert len(lines) == len(VERBS) and all(line.endswith(".") for line in lines)
    assert any(line.startswith("neigh Ben, Ben neigh: ") for line in lines)


def test_docs_commands_tables_are_the_verb_table():
    doc = (ROOT / "docs" / "commands.md").read_text()
    start = doc.index("## " + Kind.START.value)
    end = doc.index("<!-- end of the verb tables -->")
    assert doc[start:end] == markdown_tables(), "regenerate: python -m assistant.core.language.verbs"


def test_names_in_the_table_are_unique_and_known_to_the_conversation():
    assert len(BY_NAME) == len(VERBS)
    assert {"undo", "redo", "new-game", "resume", "yes", "no", "help", "card"} <= set(BY_NAME)


def test_the_verb_names_type_is_the_verb_tables():
    from assistant.core.language.verbs import names_module

    written = (ROOT / "assistant" / "core" / "language" / "verb_names.py").read_text()
    assert written == names_module(), "regenerate: python -m assistant.core.language.verbs --names"
    assert get_args(VerbName) == tuple(verb.name for verb in VERBS)


def test_the_type_checker_refuses_a_verb_the_table_does_not_have(tmp_path):
    """A misspelt verb in a command made or compared in code is a type error, not a command that never matches."""
    from mypy import api

    snippet = tmp_path / "verbs_used.py"
    snippet.write_text(
        "from assistant.core.language.parser import Command\n"
        "Command('draw')\n"
        "Command('drwa')\n"
        "def ends(command: Command) -> bool:\n"
        "    return command.verb == 'end' or command.verb == 'ned'\n"
    )
    out, _, status = api.run([str(snippet), "--strict-equality", "--follow-imports=silent", "--no-incremental"])
    errors = [line.split(":")[1] for line in out.splitlines() if ": error:" in line]
    assert status == 1 and errors == ["3", "5"], out


def test_phase_after_stays_within_the_turn():
    assert Phase.BEGINNING.after is Phase.DRAW and Phase.END.after is Phase.END


def test_the_help_in_a_games_own_words_renders_its_rows_with_them_and_never_renames_a_card():
    """A game whose rules say Field and Animal (`rules llamas`) with an Unstable Unicorns deck: the rows are rendered
    with the game's words (`HelpWords`), so the area and the creature change and the cards keep their own names
    (rewriting the rendered English turned "Blow Up Unicorn" into "Blow Up Animal")."""
    from assistant.core.cards.card import Vocabulary

    lines = [line for _, line in help_rows(load_card_set("uu-nsfw-expansion"), Vocabulary.ANIMAL)]
    undo = next(line for line in lines if line.startswith("undo"))
    use = next(line for line in lines if line.startswith("use "))
    assert '"Undone: Ana played Blow Up Unicorn."' in undo
    assert "(The Bitchiest Unicorn's)" in use
    assert any("into Ana's Field" in line for line in lines) and not any("Stable" in line for line in lines)


@pytest.mark.parametrize("deck", ["llamas", "uu-2nd", "uu-nsfw"])
def test_the_use_commands_example_names_a_card_of_the_deck_in_play(deck):
    """`use` and a card: the help's example names one of the deck's own optional beginning-of-turn effects (Unicorn
    Speed is an NSFW card: a Llamas Unleashed or 2nd Edition game never heard of it), typed as it is typed."""
    from assistant.core.cards.card import Tag

    cards = load_card_set(deck)
    (line,) = [line for _, line in help_rows(cards) if line.startswith("use ")]
    named = line.removeprefix("use ").split(":")[0]
    card = cards.find_exact(named)
    assert card is not None and card.has(Tag.BEGIN_TURN_OPTIONAL), line
    assert (named == "unicorn speed") is (deck == "uu-nsfw")
