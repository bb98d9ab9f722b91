"""Cards with a rule of their own that the tracker follows: a player who cannot win (Hunger Strike, or the table's
word), a player's own number to win (Embrace Diversity, `win 5 Ana`), turn-long and Field bans (Unstoppable Ram,
No Probllama, Bridge Troll On Duty, No Kidding, Llamaphobia), a cap whose sacrifice is a link of the chain (Tiny
Stable), a card that travels (the 1st Edition Puppicorn), and the moves a real table makes that a card's effect
asks for (a missed turn, a card from hand to hand, a ban of Instants until the end of the turn).

Each case cites the card's text (in our own words, in card_texts/) and asserts on the typed objections and facts
of the core and on the game's state, never on a sentence (tests/words/test_own_rule_sentences.py says them).
"""

from __future__ import annotations

import pytest

from assistant.commands.app import table_session
from assistant.core.game import events as ev
from assistant.core.game.facts import (
    CardTravelled,
    GameOver,
    InstantsBannedNow,
    LimitReached,
    LinkAdded,
    TurnSkipped,
    WinBarred,
    WinWaits,
)
from assistant.core.game.objections import (
    CannotEnter,
    HeldIn,
    InstantsBanned,
    NameBanned,
    NeedsAllVariations,
    NeedsVariation,
    VariationKeptOut,
)
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.test_card_rules import bring, facts, objections, table, unwarned, warning


def llamas(players: str = "Ana Ben", babies: str = "llama alpaca", extra: str = "", store=None) -> Session:
    """A Llamas Unleashed game with the Farmed and Dangerous pack, Ana in her Action phase."""
    session = table_session(load_card_set("llamas", ["llamas-farmed"]), **({"store": store} if store else {}))
    reply = session.handle(f"new game {players} babies {babies} {extra}".strip())
    assert session.game is not None, reply.speech
    session.handle("draw")
    return session


def won(session: Session) -> int | None:
    outcome = session.game.state.outcome
    return None if outcome is None else outcome.winner


# A player who cannot win.


def test_hunger_strike_keeps_its_owner_from_winning_whatever_the_count():
    """Hunger Strike: "You cannot win for as long as this card stays in your Field, however many Animals you have."
    Ana reaches the number with it in her Field and does not win; once it is gone, she wins."""
    session = llamas()
    session.handle("win 3")
    bring(session, "hunger-strike")
    bring(session, "basic-llama")
    found = bring(session, "basic-goat")
    assert won(session) is None and WinBarred(0, 3, "hunger-strike") in found
    session.handle("sacrifice hunger strike")
    assert won(session) == 0


def test_hunger_strike_leaves_its_owner_out_when_the_deck_runs_out():
    session = llamas()
    bring(session, "hunger-strike")
    bring(session, "basic-llama")
    session.handle("deck empty")
    assert won(session) == 1  # Ana has 2 Animals, Ben 1, and Ana cannot win


def test_the_table_can_say_a_player_cannot_win_and_can_again():
    """A card whose bar the tracker does not know: `Ana cannot win` holds until `Ana can win`."""
    session = table()
    session.handle("win 2")
    unwarned(session, "Ana cannot win")
    assert session.game.state.cannot_win == (0,)
    found = bring(session, "basic-unicorn-red")
    assert won(session) is None and WinBarred(0, 2, "") in found
    unwarned(session, "Ana can win")
    assert won(session) == 0


# A player's own number to win.


def test_embrace_diversity_lets_its_owner_win_with_two_fewer():
    """Embrace Diversity: "that Field's owner can win with 2 fewer Animals than usual": 5 for Ana, 7 for Ben."""
    session = llamas()
    for animal in ("basic-alpaca", "basic-goat", "basic-ram"):
        bring(session, animal)
    found = bring(session, "embrace-diversity")
    assert objections(session) == () and won(session) is None
    for animal in ("basic-llama", "basic-alpaca", "basic-goat", "basic-ram"):
        bring(session, animal, into="Ben")
    assert won(session) is None  # Ben has 5 and needs 7
    found = bring(session, "basic-llama")
    assert won(session) == 0 and any(isinstance(f, GameOver) for f in found)


def test_embrace_diversity_enters_only_a_field_with_every_variation():
    """ "This card can only enter a Field that holds an Animal card of each of the 4 variations.\""""
    session = llamas()
    bring(session, "basic-goat")
    found = warning(session, "bring embrace diversity into Ana")
    assert found == (NeedsAllVariations("embrace-diversity", 0, ("alpaca", "ram")),)


def test_a_players_own_number_to_win_stays_when_the_tables_changes():
    """`win 4 Ana` gives Ana her own number; `win 6` changes everyone else's, not hers; Embrace Diversity lowers
    hers by 2."""
    session = llamas()
    unwarned(session, "win 4 Ana")
    unwarned(session, "win 6")
    assert session.game.state.goals == (4, None) and session.game.state.goal == 6
    for _ in range(2):
        bring(session, "basic-llama", into="Ben")
    bring(session, "basic-llama")
    assert won(session) is None  # Ana 2 of 4, Ben 3 of 6
    bring(session, "basic-goat")
    bring(session, "basic-ram")
    assert won(session) == 0  # 4 Animals: her own number


def test_ben_win_n_names_him():
    session = llamas(players="Ana Ben Cy", babies="llama alpaca goat")
    unwarned(session, "Ben win 3")
    assert session.game.state.goals == (None, 3, None)


# Bans the tracker keeps.


def test_unstoppable_ram_bans_instants_until_its_owners_turn_is_over():
    """Unstoppable Ram: "If this card is in your Field at the beginning of your turn, no one can play an Instant
    card until that turn is over": the ban holds even once the Ram is gone, and ends with the turn."""
    session = llamas()
    bring(session, "unstoppable-ram", into="Ben")
    said = session.handle("end turn")
    assert InstantsBannedNow("unstoppable-ram", 1) in facts(session), said.speech
    assert session.game.state.instant_ban == "unstoppable-ram"
    session.handle("resolve")
    session.handle("draw")
    session.handle("play basic-llama")
    assert warning(session, "Ana play spit happens") == (InstantsBanned(0, "spit-happens", "unstoppable-ram"),)
    session.handle("resolve")
    session.handle("Ana destroy unstoppable ram")
    assert warning(session, "Ana play spit happens")  # the turn is not over
    session.handle("end turn")
    assert session.game.state.instant_ban is None


def test_no_probllama_is_played_only_with_a_llama_in_the_field():
    """No Probllama: "You can only play this card while your Field holds a Llama card"; Ramstar Energy Drink: a Ram."""
    session = llamas(babies="alpaca llama")
    assert warning(session, "play no probllama") == (NeedsVariation(0, "no-probllama", "llama"),)
    assert warning(session, "play ramstar energy drink") == (NeedsVariation(0, "ramstar-energy-drink", "ram"),)
    bring(session, "basic-llama")
    unwarned(session, "play no probllama")


def test_bridge_troll_keeps_goats_and_rams_out_of_its_field():
    """Bridge Troll On Duty: "Goat and Ram Animal cards cannot enter your Field"."""
    session = llamas()
    bring(session, "bridge-troll-on-duty")
    assert warning(session, "play basic-goat") == (VariationKeptOut("basic-goat", 0, "bridge-troll-on-duty", "goat"),)
    assert warning(session, "bring basic-ram into Ana") == (
        VariationKeptOut("basic-ram", 0, "bridge-troll-on-duty", "ram"),
    )
    unwarned(session, "Ben bring basic-goat into Ben")


def test_no_kidding_keeps_babies_out_of_its_field():
    """No Kidding: "Baby Animal cards cannot enter your Field"."""
    session = llamas()
    bring(session, "no-kidding")
    session.handle("resolve")
    assert warning(session, "bring baby goat into Ana from nursery") == (CannotEnter("baby-goat", 0, "no-kidding", 0),)
    unwarned(session, "bring baby goat into Ben from nursery")


def test_llamaphobia_forbids_cards_with_the_word_llama_in_their_name():
    """Llamaphobia: "you cannot play a card with the word Llama in its name"; a pun such as Llamacorn is no such
    word."""
    session = llamas()
    bring(session, "llamaphobia")
    assert warning(session, "play bahama llama") == (NameBanned(0, "bahama-llama", "llamaphobia"),)
    unwarned(session, "play magical llamacorn")


def test_the_table_can_ban_instants_until_the_end_of_the_turn():
    session = llamas()
    found = unwarned(session, "no instants this turn")
    assert InstantsBannedNow("", 0) in found and session.game.state.instant_ban == ""
    session.handle("play basic-llama")
    assert warning(session, "Ben play spit happens") == (InstantsBanned(1, "spit-happens", ""),)
    session.handle("undo")
    session.handle("undo")
    assert session.game.state.instant_ban is None


# A cap whose sacrifice is a link.


def test_tiny_stables_sacrifice_is_a_link_so_nobody_wins_before_it_is_done():
    """Tiny Stable: "Should your Stable ever hold more than 5 Unicorns, you must sacrifice a Unicorn card" is a
    triggered effect (000: it begins with "if"; no player wins until the chain is resolved): at 6 to win, Ana's
    sixth Unicorn does not win; she sacrifices one and the chain resolves with 5."""
    session = table()
    session.handle("win 6")
    bring(session, "tiny-stable")
    for colour in ("red", "blue", "green", "yellow"):
        bring(session, f"basic-unicorn-{colour}")
    found = bring(session, "basic-unicorn-purple")
    link = (ev_trigger("tiny-stable"),)
    assert LimitReached(0, "tiny-stable", 6, 5) in found and LinkAdded(link, 1) in found
    assert WinWaits(0, 6) in found and won(session) is None
    session.handle("sacrifice basic red")
    session.handle("resolve")
    assert won(session) is None and session.game.state.chain == ()


def ev_trigger(card_id: str, owner: int = 0):
    from assistant.core.game.chain import Trigger, TriggerKind

    return Trigger(card_id, owner, TriggerKind.DUTY)


# A card that travels.


def test_the_1st_edition_puppicorn_passes_to_the_next_stable_when_its_owners_turn_ends():
    """Puppicorn (1st Edition): "When your turn ends, pass it to the player on your left, into their Stable"."""
    session = table("uu-1st")
    bring(session, "puppicorn")
    session.handle("end turn")
    assert CardTravelled("puppicorn", 0, 1) in facts(session)
    assert "puppicorn" in session.game.state.players[1].stable
    assert "puppicorn" not in session.game.state.players[0].stable
    session.handle("undo")
    assert "puppicorn" in session.game.state.players[0].stable


# The moves a real table makes.


def test_a_player_who_misses_their_next_turn_is_passed_by():
    """Throw Off Their Groove, Bahama Llama: "That player misses their next turn"."""
    session = llamas(players="Ana Ben Cy", babies="llama alpaca goat")
    unwarned(session, "Ben misses next turn")
    assert session.game.state.skips == (1,)
    session.handle("end turn")
    assert TurnSkipped(1) in facts(session) and session.game.state.current == 2
    assert session.game.state.skips == ()
    session.handle("draw")
    session.handle("end turn")
    assert session.game.state.current == 0  # only the next turn is missed
    session.handle("draw")
    session.handle("end turn")
    assert session.game.state.current == 1


def test_a_card_passes_from_one_hand_to_another_with_the_hand_sizes():
    """Grand Llarceny, The Negoatiator: a card from one player's hand into another's."""
    session = llamas(extra="hands")
    hands = [p.hand for p in session.game.state.players]
    unwarned(session, "give a card to Ben")
    assert [p.hand for p in session.game.state.players] == [hands[0] - 1, hands[1] + 1]
    unwarned(session, "Ben give spit happens to Ana")
    assert [p.hand for p in session.game.state.players] == hands


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

    session = llamas(players="Ana Ben Cy", babies="llama alpaca goat", extra="hands", store=GameStore(tmp_path))
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
    session = llamas()
    bring(session, "basic-alpaca")
    bring(session, "basic-goat")
    bring(session, "velcro-barrier")
    bring(session, "bridge-troll-on-duty")
    assert warning(session, "Ben steal basic-alpaca from Ana") == (
        HeldIn("basic-alpaca", 0, "velcro-barrier", "alpaca"),
    )
    assert warning(session, "move basic-goat from Ana to Ben") == (
        HeldIn("basic-goat", 0, "bridge-troll-on-duty", "goat"),
    )
    unwarned(session, "sacrifice basic-goat")  # leaving for the discard pile is no move into a Field


def test_unicorn_lasso_says_its_unicorn_goes_back_when_the_turn_ends():
    """Unicorn Lasso (1st Edition): "When your turn ends, that Unicorn goes back where it came from": said when the
    turn ends; not when its optional effect was let go."""
    from assistant.core.game.facts import GoesBackNow

    session = table("uu-1st")
    bring(session, "unicorn-lasso", into="Ben")
    session.handle("end turn")  # Ben's turn begins with the Lasso's optional effect waiting
    session.handle("resolve")
    session.handle("draw")
    session.handle("end turn")
    assert GoesBackNow("unicorn-lasso", 1) in facts(session)
    session.handle("draw")
    session.handle("end turn")
    session.handle("draw")  # the Draw phase begins with the Lasso's effect not used: lost for this turn
    session.handle("end turn")
    assert not any(isinstance(f, GoesBackNow) for f in facts(session))
