"""The app's one-key answers: which line a single key sends while a card waits on the pile or a question waits
(0 resolves, a player's number Neighs for them, s and a number for a Super Neigh, y or n answer, a digit chooses an
Instant), and the line sent when typing goes on right after a key answered, so no key typed is lost.

Pure functions of the session and what the input line holds; the app (`assistant/ui/app.py`) calls them from its
key handler and says why a key did nothing (`one_key_refusal`).
"""

from __future__ import annotations

from assistant.core.cards.card import CardType, Vocabulary
from assistant.core.game.table import PromptKind
from assistant.core.language.reply import Choice, Question
from assistant.core.words.screen import (
    QUESTION_WAITING_KEY,
    no_card_for_key,
    no_choice_number,
    no_player_number,
    one_key_line,
)
from assistant.session import Session

__all__ = ["SUPER_PREFIXES", "card_waits", "line_after_answer", "one_key_answer", "one_key_refusal", "vocabulary_of"]

#: What the input line may hold before a player's number for the number to mean a Super Neigh ("s", or the
#: braille cell of s typed in six-key braille).
SUPER_PREFIXES = ("s", "S", "\u280e")


def one_key_answer(session: Session, character: str, typed: str) -> str | None:
    """The line a one-key answer sends, or None when the key is ordinary typing ("": a digit that cannot act,
    which `one_key_refusal` explains; it is not typed).

    Only while a card waits on the pile, nothing else is asked, and the input line is empty
    (or holds just "s", for a Super Neigh): 0 resolves with no Neigh; a player's number, 1 to 9, Neighs for that
    player; s then the number, a Super Neigh. A number with no player says so instead of typing it. While a
    yes-or-no question waits, y and n answer it as one key."""
    game = session.game
    if isinstance(session.pending, Question) and not typed and character and character in "yYnN":
        return character.lower()
    if game is None or not character.isdigit() or not character.isascii():
        return None
    if isinstance(session.pending, Question) or (not game.state.pile and session.pending is None):
        return "" if typed in ("", *SUPER_PREFIXES) else None  # a digit here misfires: said why, not typed
    if session.pending is not None:
        return _instant_number(session, character, typed)
    if not character.isascii() or typed not in ("", *SUPER_PREFIXES):
        return None
    if game.table.prompt(game.state).kind not in (PromptKind.ANSWER, PromptKind.RESOLVE):
        return None  # (a card that cannot be answered resolves with 0 too; a Neigh key hears why it cannot)
    number, players = int(character), game.setup.players
    if number == 0:
        return None if typed else "resolve"
    if number > len(players):
        return ""
    return one_key_line(players[number - 1], super_neigh=bool(typed))


def line_after_answer(session: Session, key: str, typed: str) -> str:
    """The line to send when `typed` was typed just after `key` answered a question as one key: the key put back
    in front when that makes a command (or a card's exact name) and the line alone is not one, so a player who
    was typing a command never loses its first letter ("n", then "ew game Cy Dee": "new game Cy Dee")."""
    if not key or not typed.strip():
        return typed
    whole = key + typed
    return whole if _is_command_or_card(session, whole) and not _is_command_or_card(session, typed) else typed


def _is_command_or_card(session: Session, text: str) -> bool:
    from assistant.core.language.parser import CommandError
    from assistant.core.language.verbs import parse_command

    game = session.game
    if session.cards.find_exact(text.strip()) is not None:
        return True
    try:
        return parse_command(text.strip(), game.setup.players if game is not None else ()) is not None
    except CommandError:
        return True  # a command's verb with words that cannot be read: its own error says what was wrong


def _instant_number(session: Session, character: str, typed: str) -> str | None:
    """The number of an Instant, 1 to 9, answering "Which Instant does Ben play?" (asked after a player's number in
    a deck with no card named Neigh): the digit is sent as it is, so the choice is made at once; None otherwise."""
    pending = session.pending
    if typed or not isinstance(pending, Choice) or not character.isascii() or pending.highest > 9:
        return None  # more than 9 choices: a number is typed and Enter pressed, as for any numbered choice
    if pending.card_for(int(character)) is None:
        return ""  # a digit that cannot be a choice: said at once, not typed
    if not all(card.type is CardType.INSTANT for card in pending.cards):
        return None
    return character


def card_waits(session: Session) -> bool:
    """A card waits on the pile for an answer: the one-key answers work."""
    game = session.game
    return game is not None and bool(game.state.pile) and game.table.prompt(game.state).kind is PromptKind.ANSWER


def one_key_refusal(session: Session, character: str) -> str:
    """Why a one-key answer (a digit) cannot act now: a question waits, no card is on the pile, or no such player."""
    game, pending = session.game, session.pending
    if isinstance(pending, Question):
        return QUESTION_WAITING_KEY
    if isinstance(pending, Choice):
        return no_choice_number(int(character), pending.highest)
    if game is None or not game.state.pile:
        return no_card_for_key(character)
    return no_player_number(int(character), len(game.setup.players))


def vocabulary_of(session: Session) -> Vocabulary:
    """The words of the game in progress (its rule profile's), else of the cards in play."""
    game = session.game
    return game.table.profile.vocabulary if game is not None else session.cards.vocabulary
