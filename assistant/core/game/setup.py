"""Everything decided before a game's first turn: the players, the rules, the decks and the table's own choices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assistant.core.game.rules import DeckOut

#: Cards dealt to each player at the start (rulebook 000: "deal 5 cards to each player").
DEALT = 5
#: The longest player name kept.
MAX_NAME = 30


class SetupError(ValueError):
    """A setup that cannot start a game (too few players, a name twice, an unknown Baby...)."""


@dataclass(frozen=True)
class Setup:
    """Everything decided before the first turn."""

    players: tuple[str, ...]
    """Names in clockwise seating order."""
    profile: str
    """The rule profile id."""
    first: int = 0
    """The seat of the player who goes first."""
    base: str = "uu-2nd"
    """The base deck id."""
    addons: tuple[str, ...] = ()
    """Expansion deck ids."""
    two_player: bool = False
    """The 2-player variant (rulebook 002): cards removed, one Neigh to each player."""
    goal: int | None = None
    """The table's own number of Unicorns to win, instead of the profile's."""
    deck_out: DeckOut | None = None
    """The table's choice when the deck runs out (first edition: stickler or rule-breaker); None: the profile's."""
    babies: tuple[str, ...] = ()
    """Each seat's Baby, by card id ("" for none yet); empty when Babies are placed by events."""
    hands: bool = False
    """True to count hand sizes from the deal; otherwise they are unknown until the table reports them."""

    def to_dict(self) -> dict[str, Any]:
        """The setup as a plain dictionary for the save file."""
        return {
            "players": list(self.players),
            "profile": self.profile,
            "first": self.first,
            "base": self.base,
            "addons": list(self.addons),
            "two_player": self.two_player,
            "goal": self.goal,
            "deck_out": self.deck_out.value if self.deck_out else None,
            "babies": list(self.babies),
            "hands": self.hands,
        }

    @classmethod
    def from_dict(cls, data: object) -> Setup:
        """Read a setup back from its save form; `SetupError` when it is malformed."""
        if not isinstance(data, dict):
            raise SetupError("the setup must be a table")
        known = {"players", "profile", "first", "base", "addons", "two_player", "goal", "deck_out", "babies", "hands"}
        if set(data) - known:
            raise SetupError(f"unknown setup field {sorted(set(data) - known)[0]!r}")
        try:
            players = tuple(_text(n) for n in _list(data["players"]))
            addons = tuple(_text(a) for a in _list(data.get("addons", [])))
            babies = tuple(_text(b, empty=True) for b in _list(data.get("babies", [])))
            deck_out = data.get("deck_out")
            return cls(
                players=players,
                profile=_text(data["profile"]),
                first=_whole(data.get("first", 0)),
                base=_text(data.get("base", "uu-2nd")),
                addons=addons,
                two_player=_flag(data.get("two_player", False)),
                goal=None if data.get("goal") is None else _whole(data["goal"]),
                deck_out=None if deck_out is None else DeckOut(deck_out),
                babies=babies,
                hands=_flag(data.get("hands", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"damaged setup ({exc})") from None


def _list(value: object) -> list[object]:
    if not isinstance(value, list):  # a text would be read a character at a time
        raise TypeError(f"{value!r} is not a list")
    return value


def _text(value: object, empty: bool = False) -> str:
    if not isinstance(value, str) or (not value and not empty):
        raise TypeError(f"{value!r} is not text")
    return value


def _whole(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value
