"""Cards with a rule of their own that the tracker follows: a player who cannot win (Hunger Strike, or the table's
word), a player's own number to win (Embrace Diversity, `win 5 Ana`), turn-long and Field bans (Unstoppable Ram,
No Probllama, Bridge Troll On Duty, No Kidding, Llamaphobia), a cap whose sacrifice is a link of the chain (Tiny
Stable), a card that travels (the 1st Edition Puppicorn), and the moves a real table makes that a card's effect
asks for (a missed turn, a card from hand to hand, a ban of Instants until the end of the turn).

Each case cites the card's text (in our own words, in card_texts/) and plays it on the core's own API
(`tests/core/playing.py`: the events a line would build), asserting on the typed objections and facts and on the
game's state, never on a sentence (tests/words/test_own_rule_sentences.py says them); the lines that set a game up,
save it and resume it go through the session.
"""

from __future__ import annotations

import pytest

from assistant.commands.app import table_session
from assistant.core.game import events as ev
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import Source
from assistant.core.game.facts import (
    CardTravelled,
    GameOver,
    GoesBackNow,
    InstantsBannedNow,
    LimitReached,
    LinkAdded,
    TurnSkipped,
    WinBarred,
    WinWaits,
)
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    CannotEnter,
    HeldIn,
    InstantsBanned,
    NameBanned,
    NeedsAllVariations,
    NeedsVariation,
    VariationKeptOut,
)
from assistant.storage.decks import load_card_set
from tests.core.playing import ANA, BEN, CY, LLAMA_ALPACA, RED_PINK, bring, declined, game, moves
from tests.core.talking import unwarned

THREE = ("Ana", "Ben", "Cy")


def llamas(
    players: tuple[str, ...] = ("Ana", "Ben"), babies: tuple[str, ...] = LLAMA_ALPACA, hands: bool = False
) -> Game:
    """A Llamas Unleashed game with the Farmed and Dangerous pack, Ana in her Action phase."""
    return game("llamas", "llamas-farmed", players=players, babies=babies, hands=hands, drawn=True)


def unicorns(base: str = "uu-2nd") -> Game:
    """An Unstable Unicorns game of Ana and Ben, Ana in her Action phase."""
    return game(base, babies=RED_PINK, drawn=True)


def won(played: Game) -> int | None:
    outcome = played.state.outcome
    return None if outcome is None else outcome.winner


# A player who cannot win.


def test_hunger_strike_keeps_its_owner_from_winning_whatever_the_count():
    """Hunger Strike: "You cannot win for as long as this card stays in your Field, however many Animals you have."
    Ana reaches the number with it in her Field and does not win; once it is gone, she wins."""
    g = llamas()
    moves(g, ev.SetGoal(3))
    bring(g, "hunger-strike")
    bring(g, "basic-llama")
    found = bring(g, "basic-goat")
    assert won(g) is None and WinBarred(0, 3, "hunger-strike") in found
    moves(g, ev.Sacrifice(ANA, "hunger-strike"))
    assert won(g) == 0


def test_hunger_strike_leaves_its_owner_out_when_the_deck_runs_out():
    g = llamas()
    bring(g, "hunger-strike")
    bring(g, "basic-llama")
    moves(g, ev.DeckEmpty())
    assert won(g) == 1  # Ana has 2 Animals, Ben 1, and Ana cannot win


def test_the_table_can_say_a_player_cannot_win_and_can_again():
    """A card whose bar the tracker does not know: `Ana cannot win` holds until `Ana can win`."""
    g = unicorns()
    moves(g, ev.SetGoal(2), ev.CannotWin(ANA))
    assert g.state.cannot_win == (0,)
    found = bring(g, "basic-unicorn-red")
    assert won(g) is None and WinBarred(0, 2, "") in found
    moves(g, ev.CannotWin(ANA, barred=False))
    assert won(g) == 0


# A player's own number to win.


def test_embrace_diversity_lets_its_owner_win_with_two_fewer():
    """Embrace Diversity: "that Field's owner can win with 2 fewer Animals than usual": 5 for Ana, 7 for Ben."""
    g = llamas()
    for animal in ("basic-alpaca", "basic-goat", "basic-ram"):
        bring(g, animal)
    assert g.check(ev.Bring(ANA, "embrace-diversity", ANA)) == ()
    bring(g, "embrace-diversity")
    assert won(g) is None
    for animal in ("basic-llama", "basic-alpaca", "basic-goat", "basic-ram"):
        bring(g, animal, into=BEN)
    assert won(g) is None  # Ben has 5 and needs 7
    found = bring(g, "basic-llama")
    assert won(g) == 0 and any(isinstance(f, GameOver) for f in found)


def test_embrace_diversity_enters_only_a_field_with_every_variation():
    """ "This card can only enter a Field that holds an Animal card of each of the 4 variations.\""""
    g = llamas()
    bring(g, "basic-goat")
    found = declined(g, ev.Bring(ANA, "embrace-diversity", ANA))
    assert found == (NeedsAllVariations("embrace-diversity", 0, ("alpaca", "ram")),)


def test_a_players_own_number_to_win_stays_when_the_tables_changes():
    """`win 4 Ana` gives Ana her own number; `win 6` changes everyone else's, not hers; Embrace Diversity lowers
    hers by 2."""
    g = llamas()
    moves(g, ev.SetGoal(4, ANA), ev.SetGoal(6))
    assert g.state.goals == (4, None) and g.state.goal == 6
    for _ in range(2):
        bring(g, "basic-llama", into=BEN)
    bring(g, "basic-llama")
    assert won(g) is None  # Ana 2 of 4, Ben 3 of 6
    bring(g, "basic-goat")
    bring(g, "basic-ram")
    assert won(g) == 0  # 4 Animals: her own number


def test_ben_win_n_names_him():
    g = llamas(THREE, (*LLAMA_ALPACA, "baby-goat"))
    moves(g, ev.SetGoal(3, BEN))
    assert g.state.goals == (None, 3, None)


# Bans the tracker keeps.


def test_unstoppable_ram_bans_instants_until_its_owners_turn_is_over():
    """Unstoppable Ram: "If this card is in your Field at the beginning of your turn, no one can play an Instant
    card until that turn is over": the ban holds even once the Ram is gone, and ends with the turn."""
    g = llamas()
    bring(g, "unstoppable-ram", into=BEN)
    assert InstantsBannedNow("unstoppable-ram", 1) in moves(g, ev.EndTurn())
    assert g.state.instant_ban == "unstoppable-ram"
    moves(g, ev.Resolve(), ev.Draw(BEN), ev.Play(BEN, "basic-llama", BEN))
    found = declined(g, ev.Respond(ANA, "spit-happens"))
    assert found == (InstantsBanned(0, "spit-happens", "unstoppable-ram"),)
    moves(g, ev.Resolve(), ev.Destroy(ANA, "unstoppable-ram", BEN))
    assert declined(g, ev.Respond(ANA, "spit-happens"))  # the turn is not over
    moves(g, ev.EndTurn())
    assert g.state.instant_ban is None


def test_no_probllama_is_played_only_with_a_llama_in_the_field():
    """No Probllama: "You can only play this card while your Field holds a Llama card"; Ramstar Energy Drink: a Ram."""
    g = llamas(babies=("baby-alpaca", "baby-llama"))
    assert declined(g, ev.Play(ANA, "no-probllama", ANA)) == (NeedsVariation(0, "no-probllama", "llama"),)
    found = declined(g, ev.Play(ANA, "ramstar-energy-drink", ANA))
    assert found == (NeedsVariation(0, "ramstar-energy-drink", "ram"),)
    bring(g, "basic-llama")
    moves(g, ev.Play(ANA, "no-probllama", ANA))


def test_bridge_troll_keeps_goats_and_rams_out_of_its_field():
    """Bridge Troll On Duty: "Goat and Ram Animal cards cannot enter your Field"."""
    g = llamas()
    bring(g, "bridge-troll-on-duty")
    found = declined(g, ev.Play(ANA, "basic-goat", ANA))
    assert found == (VariationKeptOut("basic-goat", 0, "bridge-troll-on-duty", "goat"),)
    found = declined(g, ev.Bring(ANA, "basic-ram", ANA))
    assert found == (VariationKeptOut("basic-ram", 0, "bridge-troll-on-duty", "ram"),)
    moves(g, ev.Bring(BEN, "basic-goat", BEN))


def test_no_kidding_keeps_babies_out_of_its_field():
    """No Kidding: "Baby Animal cards cannot enter your Field"."""
    g = llamas()
    bring(g, "no-kidding")
    moves(g, ev.Resolve())
    found = declined(g, ev.Bring(ANA, "baby-goat", ANA, Source.NURSERY))
    assert found == (CannotEnter("baby-goat", 0, "no-kidding", 0),)
    moves(g, ev.Bring(ANA, "baby-goat", BEN, Source.NURSERY))


def test_llamaphobia_forbids_cards_with_the_word_llama_in_their_name():
    """Llamaphobia: "you cannot play a card with the word Llama in its name"; a pun such as Llamacorn is no such
    word."""
    g = llamas()
    bring(g, "llamaphobia")
    assert declined(g, ev.Play(ANA, "bahama-llama")) == (NameBanned(0, "bahama-llama", "llamaphobia"),)
    moves(g, ev.Play(ANA, "magical-llamacorn", ANA))


def test_the_table_can_ban_instants_until_the_end_of_the_turn():
    g = llamas()
    found = moves(g, ev.BanInstants())
    assert InstantsBannedNow("", 0) in found and g.state.instant_ban == ""
    moves(g, ev.Play(ANA, "basic-llama", ANA))
    assert declined(g, ev.Respond(BEN, "spit-happens")) == (InstantsBanned(1, "spit-happens", ""),)
    g.undo(2)
    assert g.state.instant_ban is None


# A cap whose sacrifice is a link.


def test_tiny_stables_sacrifice_is_a_link_so_nobody_wins_before_it_is_done():
    """Tiny Stable: "Should your Stable ever hold more than 5 Unicorns, you must sacrifice a Unicorn card" is a
    triggered effect (000: it begins with "if"; no player wins until the chain is resolved): at 6 to win, Ana's
    sixth Unicorn does not win; she sacrifices one and the chain resolves with 5."""
    g = unicorns()
    moves(g, ev.SetGoal(6))
    bring(g, "tiny-stable")
    for colour in ("red", "blue", "green", "yellow"):
        bring(g, f"basic-unicorn-{colour}")
    found = bring(g, "basic-unicorn-purple")
    link = (Trigger("tiny-stable", ANA, TriggerKind.DUTY),)
    assert LimitReached(0, "tiny-stable", 6, 5) in found and LinkAdded(link, 1) in found
    assert WinWaits(0, 6) in found and won(g) is None
    moves(g, ev.Sacrifice(ANA, "basic-unicorn-red"), ev.Resolve())
    assert won(g) is None and g.state.chain == ()


# A card that travels.


def test_the_1st_edition_puppicorn_passes_to_the_next_stable_when_its_owners_turn_ends():
    """Puppicorn (1st Edition): "When your turn ends, pass it to the player on your left, into their Stable"."""
    g = unicorns("uu-1st")
    bring(g, "puppicorn")
    assert CardTravelled("puppicorn", 0, 1) in moves(g, ev.EndTurn())
    assert "puppicorn" in g.state.players[BEN].stable
    assert "puppicorn" not in g.state.players[ANA].stable
    g.pop()
    assert "puppicorn" in g.state.players[ANA].stable


# The moves a real table makes.


def test_a_player_who_misses_their_next_turn_is_passed_by():
    """Throw Off Their Groove, Bahama Llama: "That player misses their next turn"."""
    g = llamas(THREE, (*LLAMA_ALPACA, "baby-goat"))
    moves(g, ev.SkipTurn(BEN))
    assert g.state.skips == (1,)
    assert TurnSkipped(1) in moves(g, ev.EndTurn()) and g.state.current == CY
    assert g.state.skips == ()
    moves(g, ev.Draw(CY), ev.EndTurn())
    assert g.state.current == ANA  # only the next turn is missed
    moves(g, ev.Draw(ANA), ev.EndTurn())
    assert g.state.current == BEN


def test_a_card_passes_from_one_hand_to_another_with_the_hand_sizes():
    """Grand Llarceny, The Negoatiator: a card from one player's hand into another's."""
    g = llamas(hands=True)
    hands = [p.hand for p in g.state.players]
    moves(g, ev.GiveCard(ANA, BEN))
    assert [p.hand for p in g.state.players] == [hands[0] - 1, hands[1] + 1]
    moves(g, ev.GiveCard(BEN, ANA, "spit-happens"))
    assert [p.hand for p in g.state.players] == hands


@pytest.mark.parametrize(
    "event",
    [
        ev.SetGoal(5, 1),
        ev.SetGoal(6),
        ev.CannotWin(0),
        ev.CannotWin(1, barred=False),
        ev.SkipTurn(1),
        ev.GiveCard(0, 1),
        ev.GiveCard(1, 0, "yay"),
        ev.BanInstants(),
    ],
)
def test_each_new_event_round_trips_through_its_save_form(event):
    assert ev.event_from_dict(event.to_dict(), 2, {"yay"}) == event


def test_a_damaged_cannot_win_record_is_refused():
    with pytest.raises(ev.EventError):
        ev.event_from_dict({"e": "cannot-win", "player": 0, "barred": "yes"}, 2, set())


def test_the_new_moves_survive_a_save_and_resume(tmp_path):
    """Every recorded event is replayed on resume: a missed turn, a player's own number and a ban come back."""
    from assistant.storage.saves import GameStore

    session = table_session(load_card_set("llamas", ["llamas-farmed"]), store=GameStore(tmp_path))
    session.handle("new game Ana Ben Cy babies llama alpaca goat hands")
    session.handle("draw")
    for line in ("win 4 Cy", "Ben cannot win", "Ben misses next turn", "no instants this turn", "give a card to Cy"):
        unwarned(session, line)
    state = session.game.state
    assert state.goals == (None, None, 4) and state.cannot_win == (1,) and state.skips == (1,)
    again = table_session(load_card_set("llamas", ["llamas-farmed"]), store=GameStore(tmp_path))
    again.resume_game()
    assert again.game is not None and again.game.state == state


# Shared Babies.


def test_six_llamas_players_may_share_a_babys_variation():
    """004: "Allow each player to choose their favorite Baby Animal card"; with 3 copies of each of the 4 Babies,
    6 to 8 players must share: `babies llama alpaca goat ram llama alpaca` starts, each copy placed once."""
    session = table_session(load_card_set("llamas", ["llamas-farmed"]))
    session.handle("new game Ana Ben Cy Dee Eve Fay babies llama alpaca goat ram llama alpaca")
    assert session.game is not None
    assert [p.stable for p in session.game.state.players][4] == ("baby-llama",)
    assert sorted(session.game.state.nursery).count("baby-llama") == 1
    assert session.game.state.goal == 6


def test_more_players_than_a_babys_copies_is_refused():
    session = table_session(load_card_set("llamas", ["llamas-farmed"]))
    reply = session.handle("new game Ana Ben Cy Dee Eve babies llama llama llama llama alpaca")
    assert session.game is None and "3 copies" in reply.speech


def test_an_unstable_unicorns_baby_is_still_one_players():
    session = table_session(load_card_set("uu-2nd"))
    session.handle("new game Ana Ben babies red red")
    assert session.game is None


def test_velcro_barrier_and_bridge_troll_hold_their_animals_in():
    """Velcro Barrier, Bridge Troll On Duty: "Those already in it cannot be moved into another player's Field"."""
    g = llamas()
    for card in ("basic-alpaca", "basic-goat", "velcro-barrier", "bridge-troll-on-duty"):
        bring(g, card)
    found = declined(g, ev.Steal(BEN, "basic-alpaca", ANA))
    assert found == (HeldIn("basic-alpaca", 0, "velcro-barrier", "alpaca"),)
    found = declined(g, ev.Move(ANA, "basic-goat", ANA, BEN))
    assert found == (HeldIn("basic-goat", 0, "bridge-troll-on-duty", "goat"),)
    moves(g, ev.Sacrifice(ANA, "basic-goat"))  # leaving for the discard pile is no move into a Field


def test_unicorn_lasso_says_its_unicorn_goes_back_when_the_turn_ends():
    """Unicorn Lasso (1st Edition): "When your turn ends, that Unicorn goes back where it came from": said when the
    turn ends; not when its optional effect was let go."""
    g = unicorns("uu-1st")
    bring(g, "unicorn-lasso", into=BEN)
    bring(g, "basic-unicorn-red")
    moves(g, ev.EndTurn())  # Ben's turn began with the Lasso's optional effect waiting
    moves(g, ev.Move(BEN, "basic-unicorn-red", ANA, BEN), ev.Resolve(), ev.Draw(BEN))
    assert g.check(ev.EndTurn()), "warned before the turn ends (issue 103)"
    assert GoesBackNow("unicorn-lasso", 1, "basic-unicorn-red", ANA, BEN) in g.push(ev.EndTurn()).facts
    moves(g, ev.Draw(ANA), ev.EndTurn(), ev.Draw(BEN))  # the Lasso's effect not used: lost for this turn
    assert not any(isinstance(f, GoesBackNow) for f in moves(g, ev.EndTurn()))
