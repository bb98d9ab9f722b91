"""Every verb the parser knows is carried out or refused with a sentence wherever it stands in a line: after a
player's name, before or after a separator, with words after it. `share` used to reach the game's event builder
when a name or a separator came before it ("TypeError: the verb 'share' builds no event", the session ended)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.core.language.verbs import VERBS, parse_command
from assistant.core.words.share import REMOVE_WHOSE
from assistant.session import Control, Session
from assistant.storage.decks import load_card_set

CARDS = load_card_set("uu-2nd")
#: Every way the verb table says a verb ("turn *": the words before the star).
PHRASES = sorted({phrase.rstrip(" *") for verb in VERBS for phrase in verb.phrases})
NAMES = ("Ana", "Ben", "Cy")


def _answered(session: Session, line: str) -> None:
    reply = session.handle(line)
    assert reply.lines or reply.control is not Control.NONE, (line, reply)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(PHRASES),
    st.sampled_from(("", *NAMES)),
    st.sampled_from((" ", "; ", ";", ", ", ": ", ". ")),
    st.sampled_from(("", "off", "remove", "devices", "Ana", "keys", "2", "all", "yay")),
    st.booleans(),
)
def test_every_verb_after_a_name_and_a_separator_is_carried_out_or_refused(phrase, name, separator, after, game):
    session = Session(CARDS)
    if game:
        session.handle("new game Ana Ben Cy babies red pink orange")
    line = f"{name} {phrase}{separator}{after}".strip()
    _answered(session, line)
    _answered(session, f"{line}; {line}")  # joined with a separator, twice on a line


def test_each_verb_after_each_players_name_is_answered_in_a_game():
    """The property above drawn exhaustively for the names: every phrase of every verb, after a player's name."""
    for phrase in PHRASES:
        for name in NAMES:
            session = Session(CARDS)
            session.handle("new game Ana Ben Cy babies red pink orange")
            _answered(session, f"{name} {phrase}")
            _answered(session, f"{phrase}; {name}")


def test_share_after_a_name_or_a_separator_is_the_share_command_with_its_address():
    session = Session(CARDS)
    session.handle("new game Ana Ben Cy babies red pink orange")
    for line, argument in [
        ("Ana share", ""),
        ("share; off", "off"),
        ("share, devices", "devices"),
        ("Ben share remove", "remove Ben"),
        ("Ana share 127.0.0.1:8123", "127.0.0.1:8123"),
        ("share [::1]:8123", "[::1]:8123"),
        ("share :8123", ":8123"),
    ]:
        reply = session.handle(line)
        assert (reply.control, reply.argument) == (Control.SHARE, argument), line
    # two names, one before share and one after remove: which phones? Nobody's are removed (before, Cy's were)
    refused = session.handle("Ben share remove Cy")
    assert refused.control is not Control.SHARE and refused.lines == (REMOVE_WHOSE,)


def test_a_help_topic_after_a_name_or_a_separator_is_that_topic():
    session = Session(CARDS)
    session.handle("new game Ana Ben Cy babies red pink orange")
    assert session.handle("Ana help; keys").lines == session.handle("help keys").lines


def test_the_rest_of_a_line_is_kept_as_typed_after_the_verb():
    assert parse_command("share 127.0.0.1:8123").rest == "127.0.0.1:8123"
    assert parse_command("Ben draw 2", NAMES).rest == "2"
    assert parse_command("tally").rest == ""
