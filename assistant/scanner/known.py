"""Reading a code hidden past what its error correction makes up for, by matching it against the labels of the
decks in play.

A lamp's reflection held on a code for the whole of a short hold can burn out more of it than level Q makes up
for, even counting what it hides as erased (`erasures`). But the app knows every label it may see: one per card
of the decks in play, each printed by `stickers.printed_codes`. Two labels differ in at least 14 of a version 1
code's 26 codewords (the error correction sees to that), in practice in about half of their data modules, so the
part of a code that shows is enough to tell which label it is long after the codewords can no longer be solved.

The modules are read as `erasures.sample_modules` reads them (dark or light, and how sure, none where a
reflection burns them out). Each label of the code's size is scored by how far what shows agrees with it: the
sum, over the data modules, of each module's sureness, counted for where it agrees and against where it does
not, as a share of all the sureness there is. A label is read only when

- its score is at least `MATCH_SHARE` (0.65: some 83 % of the sureness agreeing with it),
- it is `MARGIN` ahead of every other label (labels of one deck share the deck's code, so a code of that deck
  whose cards are hidden would otherwise match them all alike), and
- at least `SEEN_SHARE` of the data modules show.

Any code not among the labels, a label of a deck not in play included, is left to the stages that read every
code. Tuning set, seeds 40 to 79 (held out; eight kinds of frame, four kinds of code, four sets of decks in play):
a wrong label 0.2 or more ahead of the next scored at most 0.34, and a wrong label that scored high (to 0.70) was
level with the other cards of its deck; the right one scored 0.44 to 1.0. It costs well under a millisecond a
place.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from assistant.core.cards.card import Deck
from assistant.scanner.erasures import Modules, data_order

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: The least score of the label read (1 when every module that shows agrees with it).
MATCH_SHARE = 0.65
#: How far ahead of the next best label it must be.
MARGIN = 0.2
#: The least share of the data modules that must show.
SEEN_SHARE = 0.25


def decks_key(decks: Sequence[Deck]) -> tuple:
    """What tells whether the decks in play changed (a game started, a card learnt): each deck's id and size."""
    return tuple((deck.id, len(deck.cards)) for deck in decks)


class KnownLabels:
    """The labels of the decks in play, ready to match a code against. `decks()` gives the decks in play each
    time it is asked (they change as a game starts or a card is learnt); each deck's codes are made once."""

    def __init__(self, decks: Callable[[], Sequence[Deck]]):
        self.decks = decks
        self._made: dict[tuple, list[tuple[str, list[list[bool]]]]] = {}
        self._key: tuple | None = None
        self._labels: dict[int, tuple[list[str], Any]] = {}

    def key(self) -> tuple:
        """The decks in play's `decks_key`: when it changes, a still card is worth working on again."""
        return decks_key(self.decks())

    def match(self, modules: Modules) -> str | None:
        """The label whose modules `modules` show (see the module docstring), or None."""
        import numpy as np

        book = self._book().get(modules.size)
        if book is None:
            return None
        payloads, signs = book
        data = _data_mask(modules.size)
        sureness = np.asarray(modules.sureness, np.float32)[data]
        total = float(sureness.sum())
        if total <= 0 or float((sureness > 0).mean()) < SEEN_SHARE:
            return None
        seen = np.where(np.asarray(modules.dark)[data], sureness, -sureness)
        scores = signs @ seen / total
        order = np.argsort(-scores)
        best = float(scores[order[0]])
        second = float(scores[order[1]]) if len(order) > 1 else 0.0
        if best < MATCH_SHARE or best - second < MARGIN:
            return None
        return payloads[int(order[0])]

    def prepare(self) -> None:
        """Make the codes of the decks in play now (otherwise the first match does)."""
        self._book()

    def _book(self) -> dict[int, tuple[list[str], Any]]:
        """For each code size, the labels and their data modules (+1 dark, -1 light, one row a label)."""
        import numpy as np

        from assistant.scanner.stickers import printed_codes

        decks = list(self.decks())
        key = tuple((deck.id, tuple(card.id for card in deck.cards)) for deck in decks)
        if key != self._key:
            by_size: dict[int, dict[str, list[list[bool]]]] = {}
            for deck, deck_key in zip(decks, key, strict=True):
                if deck_key not in self._made:
                    self._made[deck_key] = printed_codes(deck)
                for payload, matrix in self._made[deck_key]:
                    by_size.setdefault(len(matrix), {})[payload] = matrix
            self._labels = {}
            for size, codes in by_size.items():
                signs = [np.where(np.asarray(m)[_data_mask(size)], 1.0, -1.0) for m in codes.values()]
                self._labels[size] = (list(codes), np.array(signs, np.float32))
            self._key = key
        return self._labels


@functools.cache
def _data_mask(size: int) -> NDArray[np.bool_]:
    """The data modules of a code of `size` modules, as a boolean grid."""
    import numpy as np

    mask = np.zeros((size, size), bool)
    for row, column in data_order(size):
        mask[row, column] = True
    return mask
