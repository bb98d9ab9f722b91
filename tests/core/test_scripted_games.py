"""Two whole games replayed from their scripts to their wins, each using ten cards or more with rules of their own:
a 6-player Llamas Unleashed game with the Farmed and Dangerous pack (shared Babies; Ana wins with 4 Animals under
Embrace Diversity), and a 4-player Unstable Unicorns game with the Dragons and Adventures expansions at the table's
own number, 6 (Tiny Stable's sacrifice holds Ana's win back; Ben wins under Broken Sundial).

Each line is said to a session as a player types it; the test checks the winner and that each card's rule was
followed: the typed objections its warnings phrased and the typed facts its steps reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.commands.app import table_session
from assistant.core.game import facts as f
from assistant.core.game import objections as o
from assistant.session import Session
from assistant.storage.decks import load_card_set

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def replay(script: str, base: str, addons: list[str]) -> tuple[Session, list[object]]:
    """Every line of the script said in order; what the core found and reported along the way."""
    session = table_session(load_card_set(base, addons))
    seen: list[object] = []
    for line in (FIXTURES / script).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        reply = session.handle(line)
        assert "No game is being tracked" not in reply.speech and "not understood" not in reply.speech, line
        talk = session.lobby.talk
        if talk is not None:
            seen += talk.objections
            if talk.step is not None and talk.step.after is session.game.state:
                seen += [fact for fact in talk.step.facts if fact not in seen]
    return session, seen


@pytest.fixture(scope="module")
def llamas_game():
    return replay("llamas_six_game.txt", "llamas", ["llamas-farmed"])


@pytest.fixture(scope="module")
def unicorns_game():
    return replay("unicorns_four_game.txt", "uu-2nd", ["uu-dragons", "uu-adventures"])


def test_the_six_player_llamas_game_replays_to_anas_win(llamas_game):
    session, _ = llamas_game
    state = session.game.state
    assert len(state.players) == 6 and state.goal == 6
    assert state.players[4].stable[0] == "baby-llama" == state.players[0].stable[0]  # a shared Baby
    assert state.outcome is not None and state.outcome.winner == 0
    assert "embrace-diversity" in state.players[0].stable and session.game.table.tally(state)[0] == 4


def test_the_llamas_game_follows_each_cards_rule(llamas_game):
    _, seen = llamas_game
    expected = [
        o.CannotBeNeighed(0, "basic-alpaca", "no-probllama"),  # No Probllama: Instants cannot affect Ana's cards
        o.NeedsVariation(2, "ramstar-energy-drink", "ram"),  # Ramstar Energy Drink: a Ram in the Field first
        f.TurnSkipped(3),  # Throw Off Their Groove: Dee misses her turn
        o.CannotEnter("baby-alpaca", 5, "no-kidding", 5),  # No Kidding
        f.InstantsBannedNow("unstoppable-ram", 1),  # Unstoppable Ram
        o.InstantsBanned(2, "spit-happens", "unstoppable-ram"),
        o.VariationKeptOut("basic-goat", 4, "bridge-troll-on-duty", "goat"),  # Bridge Troll On Duty
        o.NameBanned(5, "bahama-llama", "llamaphobia"),  # Llamaphobia
        o.VariationKeptOut("basic-llama", 1, "velcro-barrier", "llama"),  # Velcro Barrier
    ]
    assert [item for item in expected if item not in seen] == []
    assert any(isinstance(x, f.GameOver) for x in seen)


def test_the_four_player_unicorns_game_replays_to_bens_win(unicorns_game):
    session, _ = unicorns_game
    state = session.game.state
    assert state.goal == 6 and state.outcome is not None and state.outcome.winner == 1
    assert "broken-sundial" in state.players[1].stable


def test_the_unicorns_game_follows_each_cards_rule(unicorns_game):
    _, seen = unicorns_game
    expected = [
        o.CannotNeigh(2, "neigh", "slowdown"),  # Slowdown
        o.CannotBeNeighed(1, "basic-unicorn-green", "yay"),  # Yay
        f.LimitReached(0, "tiny-stable", 6, 5),  # Tiny Stable: its sacrifice is a link...
        f.WinWaits(0, 6),  # ... so Ana's 6 does not win
        f.BeginningSkipped(1, "broken-sundial"),  # Broken Sundial: and so no Double Dutch play
        o.ActionUsed(1, 1),
        o.Protected("basic-unicorn-purple", "rainbow-aura", 3),  # Rainbow Aura
        f.SavedToHand("basic-unicorn-blue", 0, "unicorn-net"),  # Unicorn Net
    ]
    assert [item for item in expected if item not in seen] == []
    tallies = [x for x in seen if isinstance(x, f.TallyChanged)]
    assert any(t.after[0] == 5 and t.before[0] == 3 for t in tallies)  # Ginormous Unicorn counts 2
