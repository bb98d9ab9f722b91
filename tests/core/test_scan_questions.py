"""A code read while a yes-or-no question waits, and a code whose words are not its card's (the session's part:
what is said and what is learnt; reading the payload itself is `assistant.core.scanning.payloads`)."""

from __future__ import annotations

from argparse import Namespace

from assistant.commands.app import make_session
from assistant.core.game.events import Play
from assistant.core.words.gameplay import NOT_RECORDED
from assistant.core.words.learned import QUESTION_STILL_WAITS, code_differs
from assistant.session import Session
from assistant.storage.paths import imported_decks_dir


def uu_session() -> Session:
    """The app's own session on the base deck, learning into the test's own data folder."""
    return make_session(Namespace(deck="uu-2nd", addon=[]))


def warned(session: Session) -> None:
    session.handle("new game Ana Ben babies red pink")
    question = session.handle("Ben play yay")
    assert question.confirm and "record anyway?" in question.speech.lower()


def test_a_card_text_scanned_while_a_question_waits_leaves_the_question_and_learns_nothing(private_home):
    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    warned(session)
    scan = session.scanned("Rainbow Aurra: Destroy every Unicorn card in every Stable.")
    assert scan.lines[-1] == QUESTION_STILL_WAITS and not scan.confirm
    said = session.handle("yes")  # answers the first question: Ben's Yay is recorded
    assert isinstance(session.game.log[-1], Play) and session.game.log[-1].card == "yay"
    assert "Ben" in said.speech
    assert session.cards.find_exact("Rainbow Aura").text == aura.text
    assert not imported_decks_dir().exists() or not list(imported_decks_dir().iterdir())


def test_no_to_the_waiting_question_after_a_scan_says_not_recorded(private_home):
    session = uu_session()
    warned(session)
    session.scanned("Some New Card: Magic card. Draw three cards.")
    assert session.handle("no").lines == (NOT_RECORDED,)
    assert session.game.log == []


def test_a_code_naming_a_card_with_other_words_says_they_differ(private_home):
    session = uu_session()
    said = session.scanned("Rainbow Aura: Destroy every Unicorn card in every Stable.")
    assert said.lines == (code_differs("Rainbow Aura", "Destroy every Unicorn card in every Stable."),)
    aura = session.cards.find_exact("Rainbow Aura")
    same = session.scanned(f"Rainbow Aura: {aura.text}")
    assert "differ" not in same.speech


def test_taking_a_scanned_text_for_a_deck_card_names_the_card_and_both_texts_first(private_home):
    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    offer = session.scanned("Rainbow Aurra: Destroy every Unicorn card in every Stable.")
    assert offer.confirm
    assert "Rainbow Aura" in offer.speech and f"The deck says: {aura.text}" in offer.speech
    assert "The code says: Destroy every Unicorn card in every Stable." in offer.speech
    assert session.handle("no").lines == (NOT_RECORDED,)
    assert session.cards.find_exact("Rainbow Aura").text == aura.text


def test_learnt_texts_live_in_an_overlay_that_is_listed_and_removed(private_home, capsys):
    from assistant.cli import main
    from assistant.core.words.learned import card_forgotten, learned_card, not_learned

    session = uu_session()
    aura = session.cards.find_exact("Rainbow Aura")
    session.scanned("Rainbow Aurra: Destroy every Unicorn card in every Stable.")
    assert "now has the scanned words" in session.handle("yes").speech
    session.scanned("Glitter Pony: Magical Unicorn card. Draw a card when it enters your Stable.")
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
    session.scanned("Rainbow Aurra: The scanned words.")
    session.handle("yes")
    assert uu_session().cards.find_exact("Rainbow Aura").text == "The scanned words."


def test_a_deck_card_given_scanned_words_twice_takes_the_second(private_home):
    session = uu_session()
    session.scanned("Rainbow Aurra: First words.")
    session.handle("yes")
    offer = session.scanned("Rainbow Aurra: Second words.")
    assert "The deck says: First words. The code says: Second words." in offer.speech
    assert "now has the scanned words" in session.handle("yes").speech
    assert uu_session().cards.find_exact("Rainbow Aura").text == "Second words."
