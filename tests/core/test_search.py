"""Card search: "which cards can destroy?" on the command line, in the plain mode and in the app's session."""

import json
import subprocess
import sys

from assistant.core.cards.search import search_cards, search_words, stem
from assistant.session import Session
from assistant.storage.decks import load_card_set


def names(query: str, deck: str = "uu-2nd") -> list[str]:
    return [found.card.name for found in search_cards(load_card_set(deck), query)]


def test_question_words_are_left_out_and_word_forms_meet():
    assert search_words("Which cards can destroy?") == ["destroy"]
    assert {stem("destroyed"), stem("destroys"), stem("destroying")} == {"destroy"}
    assert stem("sacrifice") == stem("sacrificed") == stem("sacrifices")


def test_destroy_finds_every_card_that_destroys_and_only_those():
    found = names("which cards can destroy?")
    cards = load_card_set()
    assert set(found) == {c.name for c in cards if "destroy" in c.text.lower() or c.has("destroy")}
    assert "Unicorn Poison" in found and "Rainbow Aura" in found  # Rainbow Aura stops destruction: it mentions it


def test_a_word_in_the_name_ranks_first():
    assert set(names("neigh")[:2]) == {"Neigh", "Super Neigh"}


def test_every_word_must_be_found_and_a_phrase_side_by_side_ranks_higher():
    assert names("hand limit", "uu-nsfw")[:2] == ["Uncut Unicorn", "Unicorn Butt Plug"]
    assert names("steal zebra") == []
    assert names("") == [] and names("which cards") == []


def test_card_search_on_the_command_line(tmp_path):
    env = {"TABLE_ASSISTANT_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "card", "--search", "hand", "limit", "--deck", "uu-nsfw", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [r["id"] for r in data["results"]][:2] == ["uncut-unicorn", "unicorn-butt-plug"]
    missing = subprocess.run(
        [sys.executable, "-m", "assistant", "card", "--search", "zebra"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert missing.returncode == 1 and missing.stdout.strip() == "No card mentions zebra."


def test_search_in_the_session_reads_numbers_and_a_digit_reads_the_card():
    session = Session(load_card_set())
    reply = session.card_desk.search("destroy")
    assert reply.speech.startswith("18 cards mention destroy. The first 10: 1 ")
    first = session.handle("1")
    assert first.card is not None and first.card.name == reply.speech.split(": 1 ")[1].split(",")[0]
    assert session.handle("search").speech.startswith("Say what to search for")


def test_search_still_works_during_a_game():
    session = Session(load_card_set())
    session.handle("new game Ana Ben")
    reply = session.handle("search steal")
    assert "mention steal" in reply.speech
    assert session.handle("2").card is not None
