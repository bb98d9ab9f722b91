"""Playing a game on the core's own API in a rule test, with no text front end: a new game, moves the core finds
nothing against, a move it objects to (recorded anyway, as the table may, or declined), a card put straight into a
Stable. Each move is the event a typed line would build (the lines themselves: tests/core/test_game_commands.py;
their twin through the text front end, for the tests about lines and replies: tests/core/talking.py)."""

from __future__ import annotations

from typing import Any

from assistant.core.cards.card import CardSet, CardType
from assistant.core.game.events import Bring, Draw, Event
from assistant.core.game.facts import Fact
from assistant.core.game.history import Game
from assistant.core.game.objections import Objection
from assistant.core.game.setup import Setup
from assistant.storage.decks import load_card_set

ANA, BEN, CY = 0, 1, 2
RED_PINK = ("baby-unicorn-red", "baby-unicorn-pink")
LLAMA_ALPACA = ("baby-llama", "baby-alpaca")


def game(
    base: str = "uu-2nd",
    *addons: str,
    players: tuple[str, ...] = ("Ana", "Ben"),
    babies: tuple[str, ...] = (),
    hands: bool = False,
    drawn: bool = False,
    cards: CardSet | None = None,
    **options: Any,
) -> Game:
    """A new game with these decks (or `cards`, a set made by the test) under their own rule profile, Ana first
    (`drawn`: Ana has drawn, her Action phase begun); `options`, the setup's other choices (`goal`, `first`...)."""
    cards = cards or load_card_set(base, list(addons))
    rules = cards.decks[0].info.rules
    setup = Setup(players, rules, base=base, addons=addons, babies=babies, hands=hands, **options)
    played = Game.new(setup, cards)
    if drawn:
        moves(played, Draw(ANA))
    return played


def table(base: str = "uu-2nd", addons: tuple[str, ...] = (), cards: CardSet | None = None) -> Game:
    """A game of Ana and Ben with these decks (or `cards`), each with one of the set's first two Babies, Ana in her
    Action phase (the game tests/core/talking.py's `table` starts with lines)."""
    cards = cards or load_card_set(base, list(addons))
    babies = tuple(c.id for c in cards if c.type is CardType.BABY)[:2]
    return game(base, *addons, cards=cards, babies=babies if len(babies) == 2 else (), drawn=True)


def moves(played: Game, *events: Event) -> tuple[Fact, ...]:
    """Events the core finds nothing against, each recorded; the last one's facts."""
    facts: tuple[Fact, ...] = ()
    for event in events:
        assert played.check(event) == (), f"{event!r} was objected to: {played.check(event)}"
        facts = played.push(event).facts
    return facts


def warned(played: Game, event: Event) -> tuple[Objection, ...]:
    """An event the core objects to, recorded anyway (as the table may); the objections."""
    found = played.check(event)
    assert found, f"{event!r} was not objected to"
    played.push(event)
    return found


def declined(played: Game, event: Event) -> tuple[Objection, ...]:
    """An event the core objects to, not recorded (the table said no); the objections."""
    found, before = played.check(event), len(played.log)
    assert found and len(played.log) == before, f"{event!r} was not objected to"
    return found


def bring(played: Game, card: str, into: int = ANA) -> tuple[Fact, ...]:
    """A card put straight into a Stable by the player whose turn it is (as a card's effect would), recorded
    whatever the core finds against it; the step's facts."""
    facts = played.push(Bring(played.state.current, card, into)).facts
    assert card in played.state.players[into].stable
    return facts
