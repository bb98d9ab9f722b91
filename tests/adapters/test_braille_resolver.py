"""The card resolver with the real default deck, its map and the real liblouis tables."""

import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.braille.translate import Grade, Translator
from assistant.commands.app import braille_resolver
from assistant.core.words.cardtext import NO_CHOICE_PENDING, describe_resolution
from assistant.core.words.entry import NO_LETTERS, NOTHING_TYPED, query_too_long
from assistant.core.words.outage import liblouis_missing
from assistant.session import Session
from assistant.speech.player import system_of
from assistant.storage.decks import load_card_set


@pytest.fixture(scope="module")
def cards():
    return load_card_set()


@pytest.fixture(scope="module")
def resolver(cards):
    return braille_resolver(cards)


def matched(resolver, query):
    result = resolver.resolve(query)
    return result.match.id if result.match else None


def candidates(resolver, query):
    return [c.card.id for c in resolver.resolve(query).candidates]


def test_the_translator_uses_real_liblouis():
    translator = Translator()
    assert translator.has_liblouis
    assert translator.from_cells("⠗⠁⠔⠃⠪", Grade.CONTRACTED) == "rainbow"
    assert translator.to_cells("rainbow", Grade.UNCONTRACTED) == "⠗⠁⠊⠝⠃⠕⠺"


@pytest.mark.parametrize("louis", ["missing", "failing"])
def test_without_a_working_liblouis_the_built_in_table_gives_uncontracted_braille_both_ways_and_none_contracted(
    louis, monkeypatch
):
    """liblouis missing, or raising on every call: the built-in grade-1 table translates to and from uncontracted
    braille, and contracted braille is None either way (nothing raises)."""
    from assistant.braille import translate

    class Failing:
        def translateString(self, tables, text):
            raise RuntimeError("broken table")

        def backTranslateString(self, tables, cells):
            raise RuntimeError("broken table")

    monkeypatch.setattr(translate, "load_liblouis", lambda: None if louis == "missing" else Failing())
    translator = Translator()
    assert translator.to_cells("Rainbow") == "⠗⠁⠊⠝⠃⠕⠺"
    assert translator.from_cells("⠗⠁⠊⠝⠃⠕⠺") == "rainbow"
    assert translator.to_cells("rainbow", Grade.CONTRACTED) is None
    assert translator.from_cells("⠗⠁⠔⠃⠪", Grade.CONTRACTED) is None


def test_every_abbreviation_and_name_resolves_to_its_card(resolver, cards):
    wrong = []
    for card in cards:
        entry = resolver.abbreviation(card)
        for query in (entry.text, entry.text.upper(), entry.text.replace(" ", ""), card.name, *entry.aliases):
            if matched(resolver, query) != card.id:
                wrong.append((query, card.id, candidates(resolver, query)[:3]))
    assert wrong == []


@pytest.mark.parametrize(
    ("query", "card_id"),
    [
        ("ug rainbw aura", "rainbow-aura"),  # deletion
        ("ug rainbow auura", "rainbow-aura"),  # insertion
        ("ug rainbow aira", "rainbow-aura"),  # substitution
        ("ug rainbow aaur", "rainbow-aura"),  # transposition ("aura" → "aaur" is two; one below)
        ("ug raibnow aura", "rainbow-aura"),
        ("action twoforoen", "two-for-one"),
        ("  Ug   RAINBOW-aura!! ", "rainbow-aura"),
        ("stabby", "stabby-the-unicorn"),
    ],
)
def test_typos_case_spacing_and_punctuation(resolver, query, card_id):
    result = resolver.resolve(query)
    assert result.candidates and result.candidates[0].card.id == card_id


def test_a_type_prefix_prefers_cards_of_that_type(resolver):
    ranked = candidates(resolver, "ug rainbow")
    assert ranked[:2] == ["rainbow-aura", "rainbow-lasso"]
    assert "rainbow-unicorn" in ranked
    ranked = candidates(resolver, "m rainbow aura")
    assert matched(resolver, "m rainbow") == "rainbow-unicorn"


def test_a_partial_name_lists_the_cards_with_scores_best_first(resolver):
    result = resolver.resolve("rainbow")
    assert result.match is None
    ids = [c.card.id for c in result.candidates]
    assert {"rainbow-aura", "rainbow-unicorn", "rainbow-lasso"} <= set(ids)
    scores = [c.score for c in result.candidates]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 100 for s in scores)


def test_a_word_found_in_one_name_only_answers_that_card(resolver):
    assert matched(resolver, "aura") == "rainbow-aura"


@pytest.mark.parametrize("grade", list(Grade))
def test_braille_cells_of_every_abbreviation_resolve(resolver, cards, grade):
    translator = Translator()
    wrong = []
    for card in cards:
        cells = translator.to_cells(resolver.abbreviation(card).text, grade)
        if matched(resolver, cells) != card.id:
            wrong.append((cells, card.id, candidates(resolver, cells)[:3]))
    assert wrong == []


def test_contracted_braille_without_spaces_or_indicators_still_matches(resolver):
    assert matched(resolver, "⠥⠛⠗⠁⠔⠃⠪⠁⠥⠗⠁") == "rainbow-aura"  # "ug rainbow aura", contracted, run together
    assert matched(resolver, "⠃⠀⠗⠫") == "baby-unicorn-red"  # "b red" without the grade-1 sign
    assert matched(resolver, "⠠⠊⠀⠝⠑⠊⠣") == "neigh"  # the rulebook's capital I
    assert matched(resolver, "⠠⠠⠥⠛⠀⠠⠠⠗⠁⠔⠃⠪⠀⠠⠠⠁⠥⠗⠁") == "rainbow-aura"  # every word in capitals


def test_braille_cells_are_read_back_as_a_second_path(resolver):
    # "rainbow aura" in contracted braille is no key, but it reads back as the card's name.
    assert matched(resolver, "⠗⠁⠔⠃⠪⠀⠁⠥⠗⠁") == "rainbow-aura"
    assert "rainbow-unicorn" in candidates(resolver, "⠗⠁⠔⠃⠪")


def test_braille_that_forms_no_word_gets_a_message(resolver, cards):
    result = resolver.resolve("⠭⠟⠵⠭")
    assert result.match is None and result.candidates == ()
    sentence = describe_resolution(result, cards.vocabulary)
    assert sentence == (
        "No card called xqzx, typed in braille, and nothing close. Check the spelling or try the abbreviation."
    )


@pytest.mark.parametrize(
    ("query", "sentence"),
    [
        ("", NOTHING_TYPED),
        ("     ", NOTHING_TYPED),
        ("x" * 10_000, query_too_long(10_000)),
        ("\x00\x07\x1b[2J", NO_LETTERS),
        ("⠀⠀", NOTHING_TYPED),
    ],
)
def test_bad_input_is_a_message_never_an_exception(resolver, cards, query, sentence):
    result = resolver.resolve(query)
    assert result.match is None and result.candidates == ()
    assert describe_resolution(result, cards.vocabulary) == sentence


def test_bad_input_through_the_session_is_spoken_and_written(cards, resolver):
    session = Session(cards, resolver=resolver)
    for line, sentence in (("", NOTHING_TYPED), ("x" * 10_000, query_too_long(10_000)),
                           ("2", NO_CHOICE_PENDING)):  # fmt: skip
        reply = session.handle(line)
        assert reply.lines == (sentence,) and reply.speech == sentence and reply.important


def test_candidates_read_with_numbers_and_a_digit_picks_one(cards, resolver):
    session = Session(cards, resolver=resolver)
    reply = session.handle("ug rainbow")
    assert reply.speech.startswith("4 matches for ug rainbow: ")  # not "No card called": there are matches
    assert "1 Rainbow Aura, 2 Rainbow Lasso" in reply.speech and reply.speech.endswith("Type a number to choose.")
    assert session.handle("2").card.id == "rainbow-lasso"
    assert session.handle("2").lines == (NO_CHOICE_PENDING,)
    session.handle("ug rainbow")
    assert session.handle("⠼⠁").card.id == "rainbow-aura"  # the number typed in braille


def test_prepared_the_first_braille_look_up_builds_nothing(cards):
    """`prepare` (called by the app once its screen is drawn) builds the braille keys' index and imports the
    fuzzy matcher, so the player's first look-up does not wait for them (tens of milliseconds)."""
    resolver = braille_resolver(cards)
    resolver.prepare()
    index = resolver._cells
    assert index is not None and index.keys
    assert matched(resolver, "⠗⠁⠔⠃⠪⠀⠁⠥⠗⠁") == "rainbow-aura"
    assert resolver._cells is index  # not built again
    assert resolver.take_notice() == ""


def test_a_line_of_cells_is_read_as_contracted_braille(resolver):
    assert resolver.read_contracted("⠢⠙⠀⠞⠥⠗⠝") == "end turn"
    assert resolver.read_contracted(" ⠙⠊⠎⠉⠜⠙ ⠽⠁⠽ ") == "discard yay"
    assert resolver.read_contracted("⠢⠙ turn") is None  # not only cells
    assert resolver.read_contracted("⠀") is None and resolver.read_contracted("⠿" * 500) is None


def test_without_liblouis_grade1_works_and_the_player_is_told_once(cards, monkeypatch):
    monkeypatch.setitem(sys.modules, "louis", None)  # import louis now fails, as on a machine without it
    translator = Translator()
    assert not translator.has_liblouis
    resolver = braille_resolver(cards, translator=translator)
    session = Session(cards, resolver=resolver)
    session.card_desk.prepare()  # as the app does once its screen is drawn: it says nothing itself
    assert session.handle("rainbow aura").lines[0] == "Rainbow Aura"
    reply = session.handle("⠥⠛⠀⠗⠁⠊⠝⠃⠕⠺⠀⠁⠥⠗⠁")  # "ug rainbow aura", uncontracted
    assert reply.card.id == "rainbow-aura"
    missing = liblouis_missing(system_of())  # with the fix for this computer and this user
    assert reply.lines[0] == missing and reply.speech.startswith(missing)
    again = session.handle("⠥⠛⠀⠗⠁⠊⠝⠃⠕⠺⠀⠁⠥⠗⠁")
    assert again.card.id == "rainbow-aura" and missing not in again.speech
    assert session.handle("ug rainbow aura").card.id == "rainbow-aura"
    assert resolver.read_contracted("⠢⠙⠀⠞⠥⠗⠝") is None  # contracted: looked up, not read as "end turn"
    assert "No card called" in session.handle("⠢⠙⠀⠞⠥⠗⠝").speech


def test_concurrent_braille_lookups_share_liblouis_safely(cards):
    resolver_ = braille_resolver(cards)
    translator = Translator()
    queries = [translator.to_cells(resolver_.abbreviation(c).text, Grade.CONTRACTED) for c in cards]
    expected = [c.id for c in cards]
    results: list[list[str | None]] = []

    def work():
        local = braille_resolver(cards, translator=Translator())
        results.append([matched(local, q) for q in queries])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), st.characters(min_codepoint=0x2800, max_codepoint=0x28FF))))
def test_any_text_at_all_gives_a_resolution_and_a_sentence(resolver, cards, query):
    result = resolver.resolve(query)
    assert result.match is None or result.match in cards
    assert len(result.candidates) <= 5
    assert describe_resolution(result, cards.vocabulary).strip()


def test_a_label_typed_exactly_beats_a_name_behind_a_type_prefix():
    """In the NSFW base game with Rainbow Apocalypse, "m llamacorn" is Manscaped Llamacorn's label, while the
    expansion's reprint is named Llamacorn: the label wins, and the reprint answers to its own label."""
    both = braille_resolver(load_card_set("uu-nsfw", ["uu-rainbow-apocalypse"]))
    assert both.resolve("m llamacorn").match.id == "manscaped-llamacorn"
    assert both.resolve("m llamacorn ra").match.id == "llamacorn-ra"


def test_a_single_close_card_is_simply_read(cards, resolver):
    """ "rnbw ar" is close to Rainbow Aura alone: the card is read, not offered as "1 match" to pick."""
    session = Session(cards, resolver=resolver)
    resolution = resolver.resolve("rnbw ar")
    assert resolution.match is None and len(resolution.candidates) == 1
    reply = session.handle("rnbw ar")
    assert reply.card is not None and reply.card.id == "rainbow-aura" and reply.pending is None
    assert "No card called" not in reply.speech and "match" not in reply.speech
