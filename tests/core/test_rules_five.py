"""Rules a real table meets that the tracker got wrong (issue "Rules 5"), each case citing the rulebook line or the
card it follows: counting under a card that changes what another card is, a turn that ends at once, a Magic card
during its own effect, impossible actions, saves "instead", and cards named one by one.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game), 001_773a78f0d12bc5b5.txt (first edition). Games are
driven through the command language on the app's own resolver, as at the table.
"""

from __future__ import annotations

from assistant.core.game.objections import CannotNeigh
from tests.core.test_card_rules import bring, table, unwarned, warning


def test_blinding_light_makes_ginormous_unicorn_count_as_one_basic_unicorn():
    """Blinding Light (2nd Edition): the Unicorn cards in its Stable count as Basic Unicorns. Ginormous Unicorn
    there counts 1, not 2: a Baby, 4 Basics and Ginormous are 6, not the 7 that win."""
    s = table()
    bring(s, "blinding-light")
    for basic in ("basic-unicorn-red", "basic-unicorn-blue", "basic-unicorn-yellow", "basic-unicorn-purple"):
        bring(s, basic)
    said = s.handle("bring ginormous unicorn into Ana")
    assert s.game.table.tally(s.game.state)[0] == 6
    assert s.game.state.outcome is None and "wins" not in said.speech
    s.handle("sacrifice blinding light")
    assert s.game.table.tally(s.game.state)[0] == 7 and s.game.state.outcome is not None


def test_ginormous_unicorn_under_blinding_light_no_longer_stops_its_owners_neighs():
    """Blinding Light (2nd Edition): the effects of the Unicorn cards in its Stable do not work, so Ginormous
    Unicorn's "you cannot play Neigh cards" stops nothing there; without Blinding Light it stops its owner."""
    s = table()
    bring(s, "ginormous-unicorn", into="Ben")
    s.handle("play yay")
    assert any(isinstance(o, CannotNeigh) for o in warning(s, "neigh Ben"))
    s.handle("undo")
    bring(s, "blinding-light", into="Ben")
    s.handle("play yay")
    unwarned(s, "neigh Ben")


def test_a_unicorn_under_blinding_light_is_a_basic_unicorn_for_every_rule():
    """Blinding Light (2nd Edition) makes every Unicorn card in its Stable a Basic Unicorn: The Black Spot
    (Adventures: no win while a Basic Unicorn is in its Stable) bars a Stable of a Magical Unicorn under it."""
    s = table("uu-2nd", ("uu-adventures",))
    bring(s, "the-black-spot")
    bring(s, "rhinocorn")
    assert s.game.table.win_barred(s.game.state.stables, 0) is None
    bring(s, "blinding-light")
    assert s.game.table.win_barred(s.game.state.stables, 0) == "the-black-spot"
