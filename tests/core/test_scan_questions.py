"""A code read while a question waits (numbered cards, yes or no, an Instant to choose), and a code whose words are
not its card's (the session's part: what is said and what is learnt; reading the payload itself is
`assistant.core.scanning.payloads`)."""

from __future__ import annotations

from argparse import Namespace

import pytest

from assistant.commands.app import make_session
from assistant.core.game.events import Play, Respond
from assistant.core.language.reply import Choice, Question
from assistant.core.words.gameplay import NOT_RECORDED
from assistant.core.words.learned import (
    code_differs,
    name_only_close,
    still_waits,
    words_kept,
    yes_is_not_enough,
)
from assistant.session import Session
from assistant.storage.paths import imported_decks_dir
from tests.core.talking import asks


def uu_session() -> Session:
    """The app's own session on the base deck, learning into the test's own data folder."""
    return make_session(Namespace(deck="uu-2nd", addon=[]))


def warned(session: Session) -> None:
    session.handle("new game Ana Ben babies red pink")
    question = session.handle("Ben play yay")
    assert asks(question) and "record anyway?" in question.speech.lower()


def test_a_card_text_scanned_while_a_question_waits_leaves_the_question_and_learns_nothing(private_home):
    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    warned(session)
    scan = session.card_desk.scanned("Rainbow Aura: Destroy every Unicorn card in every Stable.")
    assert scan.lines[-1] == still_waits(numbered=False, learnable=True) and not asks(scan)
    said = session.handle("yes")  # answers the first question: Ben's Yay is recorded
    assert isinstance(session.game.log[-1], Play) and session.game.log[-1].card == "yay"
    assert "Ben" in said.speech
    assert session.cards.find_exact("Rainbow Aura").text == aura.text
    assert not imported_decks_dir().exists() or not list(imported_decks_dir().iterdir())


def test_no_to_the_waiting_question_after_a_scan_says_not_recorded(private_home):
    session = uu_session()
    warned(session)
    session.card_desk.scanned("Some New Card: Magic card. Draw three cards.")
    assert session.handle("no").lines == (NOT_RECORDED,)
    assert session.game.log == []


def test_a_code_naming_a_card_with_other_words_says_they_differ(private_home):
    session = uu_session()
    said = session.card_desk.scanned("Rainbow Aura: Destroy every Unicorn card in every Stable.")
    assert said.lines[0] == code_differs("Rainbow Aura", "Destroy every Unicorn card in every Stable.")
    aura = session.cards.find_exact("Rainbow Aura")
    assert session.handle("no").lines == (words_kept("Rainbow Aura"),)
    same = session.card_desk.scanned(f"Rainbow Aura: {aura.text}")
    assert "differ" not in same.speech and session.pending is None


def test_taking_a_scanned_text_for_a_deck_card_names_the_card_and_both_texts_first(private_home):
    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    offer = session.card_desk.scanned("Rainbow Aura: Destroy every Unicorn card in every Stable.")
    assert "Rainbow Aura" in offer.speech and f"The deck says: {aura.text}" in offer.speech
    assert "The code says: Destroy every Unicorn card in every Stable." in offer.speech
    assert "type replace words" in offer.speech
    assert session.handle("no").lines == (words_kept("Rainbow Aura"),)
    assert session.cards.find_exact("Rainbow Aura").text == aura.text


@pytest.mark.parametrize("stray", ["y", "yes", "ok"])
def test_replacing_a_cards_words_needs_a_deliberate_answer_not_a_stray_yes(private_home, stray):
    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    session.card_desk.scanned("Rainbow Aura: Destroy every Unicorn card in every Stable.")
    assert session.handle(stray).lines == (yes_is_not_enough("Rainbow Aura"),)
    assert session.cards.find_exact("Rainbow Aura").text == aura.text
    assert not imported_decks_dir().exists() or not list(imported_decks_dir().iterdir())
    assert "now has the scanned words" in session.handle("Replace words.").speech  # the question still waited
    assert session.cards.find_exact("Rainbow Aura").text == "Destroy every Unicorn card in every Stable."


@pytest.mark.parametrize("answer", ["y", "yes", "replace words", "no"])
def test_a_code_whose_name_is_a_typo_of_a_cards_never_replaces_its_words(private_home, answer):
    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    said = session.card_desk.scanned("Rainbow Aurra: Destroy every Unicorn card in every Stable.")
    assert said.lines == (
        name_only_close("Rainbow Aurra", "Rainbow Aura", "Destroy every Unicorn card in every Stable."),
    )
    assert session.pending is None and not asks(said)
    session.handle(answer)
    assert session.cards.find_exact("Rainbow Aura").text == aura.text
    assert session.cards.find_exact("Rainbow Aurra") is None
    assert not imported_decks_dir().exists() or not list(imported_decks_dir().iterdir())


def playing_basic(session: Session) -> Choice:
    """A numbered question: `play basic` names five cards."""
    session.handle("new game Ana Ben Cy babies red pink yellow")
    session.handle("draw")
    question = session.handle("play basic")
    assert isinstance(question.pending, Choice) and len(question.choices) == 5
    return question.pending


CODES = {
    "a typo of a card's name, with words": "Rainbow Aurra: Destroy every Unicorn card in every Stable.",
    "a card's name with other words": "Rainbow Aura: Destroy every Unicorn card in every Stable.",
    "a new card's text": "Glitter Pony: Magical Unicorn card. Draw a card when it enters your Stable.",
    "a new card's name": "Glitter Pony",
    "a card's name": "Rainbow Aura",
    "our label of a card in play": "TA1:uu-2nd:rainbow-aura",
    "our label of a card not in the deck": "TA1:uu-2nd:glitter-pony",
    "our label of a deck not in play": "TA1:llamas:basic-llama",
    "words": "hello there, how are you",
    "an unknown code": "B-1134",
}


@pytest.mark.parametrize("code", CODES.values(), ids=CODES.keys())
def test_a_scan_during_a_numbered_question_is_read_out_and_the_question_stays(private_home, code):
    session = uu_session()
    choice = playing_basic(session)
    aura = session.cards.find_exact("Rainbow Aura")
    said = session.card_desk.scanned(code)
    assert said.lines[-1].startswith(still_waits(numbered=True, learnable=False).rstrip("."))
    assert said.important and not asks(said)
    assert session.pending is choice  # the question as it was
    chosen = session.handle("1")
    assert (session.game.log[-1].player, session.game.log[-1].card) == (0, "basic-unicorn-red")
    assert "Basic Unicorn (Red)" in chosen.speech
    assert session.cards.find_exact("Rainbow Aura").text == aura.text
    assert not imported_decks_dir().exists() or not list(imported_decks_dir().iterdir())


@pytest.mark.parametrize("code", CODES.values(), ids=CODES.keys())
def test_a_scan_during_a_yes_or_no_question_never_drops_it(private_home, code):
    session = uu_session()
    warned(session)
    question = session.pending
    said = session.card_desk.scanned(code)
    assert said.lines[-1].startswith(still_waits(numbered=False, learnable=False).rstrip("."))
    assert isinstance(session.pending, Question) and session.pending is question
    session.handle("y")
    assert isinstance(session.game.log[-1], Play) and session.game.log[-1].card == "yay"


def test_a_scan_while_the_instant_is_chosen_keeps_the_choice_and_bens_instant_is_recorded(private_home):
    from assistant.commands.app import table_session
    from assistant.core.words.verbosity import Verbosity
    from assistant.storage.decks import load_card_set

    session = table_session(load_card_set("llamas", ()), verbosity=Verbosity.COACHING)
    session.handle("new game Ana Ben Cy babies llama goat ram hands")
    session.handle("draw")
    session.handle("play basic llama")
    asked = session.handle("Ben neigh")
    assert asked.speech.startswith("Which Instant does Ben play? 1 ") and isinstance(session.pending, Choice)
    first = asked.choices[0]
    for code in ("Llama Llama Duck: Magic card. Every player draws three cards.", "TA1:llamas:basic-llama"):
        said = session.card_desk.scanned(code)
        assert said.lines[-1].startswith(still_waits(numbered=True, learnable=False).rstrip("."))
    assert session.handle("1").lines[0] == f"Ben played {first.name}."
    assert session.game.log[-1] == Respond(1, first.id)


def test_learnt_texts_live_in_an_overlay_that_is_listed_and_removed(private_home, capsys):
    from assistant.cli import main
    from assistant.core.words.learned import card_forgotten, learned_card, not_learned

    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    session.card_desk.scanned("Rainbow Aura: Destroy every Unicorn card in every Stable.")
    assert "now has the scanned words" in session.handle("replace words").speech
    session.card_desk.scanned("Glitter Pony: Magical Unicorn card. Draw a card when it enters your Stable.")
    session.handle("yes")
    overlay = imported_decks_dir() / "uu-2nd-learned.toml"
    assert overlay.is_file() and not (imported_decks_dir() / "uu-2nd-sheet.toml").exists()
    assert uu_session().cards.find_exact("Rainbow Aura").text.startswith("Destroy every Unicorn")
    capsys.readouterr()
    assert main(["deck", "learned"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].startswith("2 cards learnt from scanned codes for Unstable Unicorns")
    assert learned_card("Rainbow Aura", "Destroy every Unicorn card in every Stable.") in listed
    assert main(["deck", "forget", "rainbow", "aura"]) == 0
    assert capsys.readouterr().out.strip() == card_forgotten("Rainbow Aura", str(overlay))
    fresh = uu_session()
    assert fresh.cards.find_exact("Rainbow Aura").text == aura.text  # the deck's own words again
    assert fresh.cards.find_exact("Glitter Pony") is not None
    assert main(["deck", "forget", "Rainbow Aura"]) == 1
    assert capsys.readouterr().err.strip() == not_learned("Rainbow Aura")
    assert main(["deck", "forget", "Glitter Pony"]) == 0 and not overlay.exists()  # the last one: the file goes


def test_a_learnt_overlay_wins_over_the_reference_sheet(private_home, tmp_path):
    from assistant.cli import main

    sheet = tmp_path / "sheet.csv"
    sheet.write_text("name,type,text\nRainbow Aura,upgrade,The sheet's words.\n")
    assert main(["deck", "import", str(sheet)]) == 0
    session = uu_session()
    session.card_desk.scanned("Rainbow Aura: The scanned words.")
    session.handle("replace words")
    assert uu_session().cards.find_exact("Rainbow Aura").text == "The scanned words."


def test_a_deck_card_given_scanned_words_twice_takes_the_second(private_home):
    session = uu_session()
    session.card_desk.scanned("Rainbow Aura: First words.")
    session.handle("replace words")
    offer = session.card_desk.scanned("Rainbow Aura: Second words.")
    assert "The deck says: First words. To give Rainbow Aura" in offer.speech
    assert "The code says: Second words." in offer.speech
    assert "now has the scanned words" in session.handle("replace words").speech
    assert uu_session().cards.find_exact("Rainbow Aura").text == "Second words."
