"""Scenario tests of the game tracker, one per rule, each citing its rulebook and passage.

Rulebooks (the authority): 000_4cb0751821c6f7f6.txt (current base game), 001_773a78f0d12bc5b5.txt (first
edition), 002_7339423e33071b03.txt (first-edition era, 5 to win, 2-player rules), 003_3ad7ba4e8376142a.txt (NSFW),
004_898b8e00f3d39962.txt (Llamas Unleashed). A rule is played on the core's own API (`Game.check`, `Game.push`;
tests/core/playing.py), with the events a line would build; what a game's setup, a command's words or a reply say
goes through the command language, as at the table. A warning is checked by the typed objections the core found
(`assistant/core/game/objections.py`), never by its sentence; what an event did is checked by the typed facts of its
step (`assistant/core/game/facts.py`), the state and what the table waits for (`Table.prompt`), never by the
announcement; those sentences are checked in tests/words/test_rule_sentences.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from assistant.commands.app import table_session
from assistant.core.cards.card import Card, CardSet, CardType, Deck, DeckInfo, Vocabulary
from assistant.core.game.chain import PileCard, Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    DeckEmpty,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Move,
    NextPhase,
    Phase,
    Play,
    Resolve,
    Respond,
    ReturnToHand,
    Sacrifice,
    SetDeck,
    SetGoal,
    Source,
    Steal,
    Swap,
    SwapHands,
    Take,
    ToNursery,
)
from assistant.core.game.facts import (
    BabyToNursery,
    DeckRanOut,
    Fact,
    GameOver,
    LinkAdded,
    LinkResolved,
    MandatoryRemain,
    OverHandLimit,
    PhaseBegan,
    PileOpenAgain,
    PileOpened,
    PileStopped,
    PlayResolved,
    Reshuffled,
    TallyChanged,
    TriggersLost,
    TurnBegan,
    WinWaits,
)
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionUsed,
    BabyNotInHand,
    CannotBeAnswered,
    CannotBeNeighed,
    CannotNeigh,
    ChainOpen,
    DestroyOwn,
    HandOverLimit,
    NoReshuffle,
    NothingToAnswer,
    NotInNursery,
    NotYourTurn,
    Objection,
    OwnCard,
    Protected,
    RemovedCard,
)
from assistant.core.game.table import Prompt, PromptKind
from assistant.core.game.tally import Ending, HandLimit, Outcome, name_letters
from assistant.core.language.reply import Choice, Reply
from assistant.core.words.verbosity import Verbosity
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.playing import ANA, BEN, CY, RED_PINK, game, moves, warned
from tests.core.talking import asks

CARDS = load_card_set("uu-2nd")


def tracker(cards: CardSet = CARDS) -> Session:
    """A session on these cards with the app's own resolver (abbreviations, braille, typos)."""
    return table_session(cards, verbosity=Verbosity.COACHING)


def objections(t: Session) -> tuple[Objection, ...]:
    """What the core's `Game.check` found against the rules in the event the last line built."""
    assert t.lobby.talk is not None
    return t.lobby.talk.objections


def say(t: Session, *lines: str) -> Reply:
    """Say each line; the core may find nothing against any, and none may ask which card. Returns the last answer."""
    said = None
    for line in lines:
        said = t.handle(line)
        assert said.card is None, f"{line!r} was not a game command"
        assert not asks(said), f"{line!r} was warned: {said.speech}"
        assert t.game is None or objections(t) == (), f"{line!r} was objected to: {objections(t)}"
        assert not isinstance(t.pending, Choice), f"{line!r} asked which card: {said.speech}"
    return said


def step_facts(t: Session) -> tuple[Fact, ...]:
    """What the event the last line recorded did beyond itself; fails when that line recorded no event."""
    step = t.lobby.talk.step if t.lobby.talk is not None else None
    assert step is not None and step.after is t.game.state, "the line recorded no event"
    return step.facts


def last_event(t: Session) -> object:
    """The event the last line recorded."""
    step = t.lobby.talk.step if t.lobby.talk is not None else None
    assert step is not None and step.after is t.game.state, "the line recorded no event"
    return step.event


def prompt(g: Game) -> Prompt:
    """What the table waits for now."""
    return g.table.prompt(g.state)


def confirmed(t: Session, line: str) -> tuple[tuple[Objection, ...], Reply]:
    """Say a line that must be warned; confirm it; return the objections the warning phrased and the answer to
    "yes"."""
    said = t.handle(line)
    assert asks(said), f"{line!r} was not warned: {said.speech if said else said}"
    assert said.important
    found = objections(t)
    assert found, f"{line!r}: a warning with no objection"
    return found, t.handle("yes")


def stable(g: Game, seat: int) -> tuple[str, ...]:
    return g.state.players[seat].stable


TWO, THREE, FIVE = ("Ana", "Ben"), ("Ana", "Ben", "Cy"), ("Ana", "Ben", "Cy", "Dee", "Eve")
BABIES = (*RED_PINK, "baby-narwhal")


def at_table(players: tuple[str, ...] = THREE, babies: tuple[str, ...] = BABIES, **options: Any) -> Game:
    """A game on the core's own API (`start`'s twin): the default deck, these players each with their Baby, Ana
    first; `options` as `playing.game` takes them (`drawn`, `hands`, `goal`, `cards`)."""
    return game(players=players, babies=babies, **options)


def start(players: str = "Ana Ben Cy", babies: str = "red pink narwhal", extra: str = "") -> Session:
    t = tracker()
    said = say(t, f"new game {players} babies {babies} {extra}".strip())
    assert said.important
    return t


def to_action(t: Session) -> None:
    say(t, "draw")
    assert t.game.state.phase is Phase.ACTION


# The turn.


def test_a_turn_has_four_phases_announced_with_what_the_player_may_do():
    """000_4cb0751821c6f7f6.txt "THE TURN": "Each turn is made up of 4 phases" — Beginning of Turn, "Draw phase: DRAW 1
    card", "Action phase: Play a card from your hand or DRAW an additional card", "End of Turn phase: DISCARD until ...
    the hand limit"; "Players take turns by going clockwise around the table"."""
    g = at_table()
    assert g.state.phase is Phase.BEGINNING and g.state.current == 0
    found = moves(g, NextPhase())
    assert g.state.phase is Phase.DRAW
    assert found == (PhaseBegan(0, Phase.DRAW),) and prompt(g) == Prompt(PromptKind.DRAW, 0)
    found = moves(g, Draw(ANA))
    assert g.state.phase is Phase.ACTION
    assert found == (PhaseBegan(0, Phase.ACTION),) and prompt(g) == Prompt(PromptKind.ACTION, 0)
    found = moves(g, NextPhase())
    assert g.state.phase is Phase.END
    assert found == (PhaseBegan(0, Phase.END),)
    assert prompt(g) == Prompt(PromptKind.NEXT_TURN, 0, limit=HandLimit(7))
    step = g.push(NextPhase())
    assert g.state.current == 1 and g.state.turn == 2 and g.state.phase is Phase.BEGINNING
    assert step.important and step.facts == (TurnBegan(1, 2),)
    moves(g, Draw(BEN), EndTurn(), Draw(CY), EndTurn())
    assert g.state.current == 0, "clockwise, back to the first player"


def test_who_goes_first_is_part_of_the_setup():
    """000_4cb0751821c6f7f6.txt "HOW TO START": "Whoever is wearing the most colors ... they go first!" — the table says
    who."""
    t = start(extra="first Cy")
    assert t.game.state.current == 2 and prompt(t.game).player == 2


def test_beginning_of_turn_lists_mandatory_effects_first_and_optional_ones_are_lost_at_the_draw():
    """000_4cb0751821c6f7f6.txt "Beginning of Turn phase": "If you move to your Draw phase without triggering an
    optional triggered effect, you can no longer trigger that effect this turn"; 000_4cb0751821c6f7f6.txt "You must
    select targets for mandatory effects before selecting targets for optional effects"; 002_7339423e33071b03.txt "If
    the effect is mandatory, you must still do it"."""
    g2 = at_table(TWO, RED_PINK)
    moves(g2, Draw(ANA), Play(ANA, "claw-machine", ANA), Resolve(), EndTurn())
    moves(g2, Draw(BEN), Play(BEN, "sadistic-ritual", ANA), Resolve())
    found = moves(g2, EndTurn())
    kinds = [x.kind for x in g2.state.chain[0]]
    assert kinds == [TriggerKind.BEGIN, TriggerKind.BEGIN_OPTIONAL], "mandatory first"
    ritual = Trigger("sadistic-ritual", 0, TriggerKind.BEGIN)
    claw = Trigger("claw-machine", 0, TriggerKind.BEGIN_OPTIONAL)
    assert LinkAdded((ritual, claw), 1) in found, "mandatory first, in the link announced"
    assert prompt(g2) == Prompt(PromptKind.BEGINNING, 0, link=(ritual, claw))
    assert g2.check(NextPhase(skip=True)) == (ChainOpen(),)  # on to the Draw phase, a mandatory effect waiting
    assert g2.push(NextPhase(skip=True)).facts[:2] == (TriggersLost((claw,)), MandatoryRemain((ritual,)))
    assert [x.card for link in g2.state.chain for x in link] == ["sadistic-ritual"]


def test_drawing_lets_optional_beginning_effects_go():
    """000_4cb0751821c6f7f6.txt: optional effects not triggered before the Draw phase are lost; "DRAW 1 card from the
    deck"."""
    g = at_table(TWO, RED_PINK)
    moves(g, Draw(ANA), Play(ANA, "claw-machine", ANA), Resolve(), EndTurn(), Draw(BEN), EndTurn())
    assert g.state.chain and g.state.chain[0][0].card == "claw-machine"
    found = moves(g, Draw(ANA))
    assert not g.state.chain
    assert found[0] == TriggersLost((Trigger("claw-machine", 0, TriggerKind.BEGIN_OPTIONAL),))
    assert g.state.phase is Phase.ACTION and g.state.drew


def test_action_is_one_card_or_one_draw_and_a_second_play_is_warned_but_recorded():
    """000_4cb0751821c6f7f6.txt "Action Phase": "you may do one of the following ... Play ... OR DRAW a card"; the table
    is the authority: a second play is warned, and recorded when confirmed."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Resolve())
    assert g.check(Play(ANA, "basic-unicorn-blue", ANA)) == (ActionUsed(0, 1),)
    step = g.push(Play(ANA, "basic-unicorn-blue", ANA))
    assert step.facts == (PileOpened(PileCard(0, "basic-unicorn-blue", 0)),), "recorded when confirmed"
    moves(g, Resolve())
    assert stable(g, 0).count("basic-unicorn-red") == 1 and "basic-unicorn-blue" in stable(g, 0)


def test_double_dutch_allows_two_cards():
    """Double Dutch (card text: "play 2 cards during your Action phase"), 000_4cb0751821c6f7f6.txt "unless otherwise
    stated"."""
    g = at_table(TWO, RED_PINK)
    moves(g, Draw(ANA), Play(ANA, "double-dutch", ANA), Resolve(), EndTurn(), Draw(BEN), EndTurn())
    moves(g, Resolve(), Draw(ANA))  # Ana uses Double Dutch's optional effect before her Draw phase
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Resolve(), Play(ANA, "basic-unicorn-blue", ANA), Resolve())
    assert {"basic-unicorn-red", "basic-unicorn-blue"} <= set(stable(g, 0))


def test_playing_out_of_turn_is_warned_and_recorded_when_confirmed():
    """000_4cb0751821c6f7f6.txt "During your Action phase, you may do one of the following": only the player whose turn
    it is plays a card; Instants are the exception ("any time any other player plays a card")."""
    g = at_table(drawn=True)
    assert warned(g, Play(BEN, "rainbow-aura", BEN)) == (NotYourTurn(1, 0),)
    moves(g, Resolve())
    assert "rainbow-aura" in stable(g, 1)


def test_end_of_turn_hand_limit_with_tracked_hands():
    """000_4cb0751821c6f7f6.txt "End of Turn phase: DISCARD until the number of cards in your hand does not exceed the
    hand limit. The hand limit is 7 cards (unless otherwise stated)"; 001_773a78f0d12bc5b5.txt FAQ "discard down to
    seven"."""
    g = at_table(TWO, RED_PINK, hands=True)
    assert [p.hand for p in g.state.players] == [5, 5], "5 dealt to each (000 'deal 5 cards')"
    moves(g, Draw(ANA), Draw(ANA))  # 6, then the action draw (7)
    for actions in (1, 2):  # two more drawn by card effects: a third draw in one turn is warned; the table confirms
        assert warned(g, Draw(ANA)) == (ActionUsed(0, actions),)
    assert g.state.players[0].hand == 9
    assert OverHandLimit(0, 9, 7) in moves(g, NextPhase())
    assert prompt(g) == Prompt(PromptKind.DISCARD, 0, limit=HandLimit(7), excess=2)
    assert warned(g, NextPhase()) == (HandOverLimit(0, 9, 7),)
    g.pop()
    moves(g, Discard(ANA), Discard(ANA, "neigh"), NextPhase())
    assert g.state.players[0].hand == 7 and g.state.current == 1


def test_hand_limit_changed_by_a_card_in_the_stable_uses_the_rules_table():
    """000_4cb0751821c6f7f6.txt "The hand limit is 7 cards (unless otherwise stated)": Tiny Hooves sets its owner's
    limit to 3 (a number the tags do not give, kept in the rules data's [hand_limits] table)."""
    hooves = Card("tiny-hooves", "Tiny Hooves", CardType.DOWNGRADE, 1, "Your hand limit is 3.", "t",
                  frozenset({"continuous", "hand_limit_change"}))  # fmt: skip
    mystery = Card("odd-limit", "Odd Limit", CardType.UPGRADE, 1, "Changes a hand limit.", "t",
                   frozenset({"continuous", "hand_limit_change"}))  # fmt: skip
    cards = _small_set([hooves, mystery])
    g = at_table(TWO, RED_PINK, cards=cards, hands=True, drawn=True)
    found = moves(g, Play(ANA, "tiny-hooves", ANA), Resolve(), NextPhase())
    assert g.table.hand_limit(g.state, 0).limit == 3
    assert g.table.hand_limit(g.state, 1).limit == 7, "only its owner's limit"
    assert OverHandLimit(0, 5, 3) in found
    assert prompt(g) == Prompt(PromptKind.DISCARD, 0, limit=HandLimit(3), excess=2)
    g2 = at_table(TWO, RED_PINK, cards=cards, drawn=True)
    moves(g2, Play(ANA, "odd-limit", ANA), Resolve(), NextPhase())
    assert prompt(g2).limit == HandLimit(7, ("odd-limit",)), "a limit the rules data cannot give: check the card"


# The Instant pile.


def test_neigh_battle_of_one_neigh_stops_the_card():
    """000_4cb0751821c6f7f6.txt "Resolving Instant Cards": "any other player may respond with an Instant card ... placed
    on top of the card to which they are responding"; resolution "start[s] at the top of the pile"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-aura", ANA))
    assert prompt(g) == Prompt(PromptKind.ANSWER, 0, top=PileCard(0, "rainbow-aura", 0))
    moves(g, Respond(BEN, "neigh"))
    assert [c.card for c in g.state.pile] == ["rainbow-aura", "neigh"]
    found = moves(g, Resolve())
    assert found == (PileStopped(PileCard(1, "neigh"), PileCard(0, "rainbow-aura", 0), played=True),)
    assert not g.state.pile
    assert "rainbow-aura" not in stable(g, 0)
    assert g.state.discard == ("neigh", "rainbow-aura")


def test_neigh_battle_of_two_neighs_reopens_the_pile_and_the_card_is_played():
    """000_4cb0751821c6f7f6.txt: "Each time a card is resolved, one or more cards is removed from the pile, presenting
    an opportunity for the new top card of the pile to be responded to again"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-aura", ANA), Respond(BEN, "neigh"), Respond(CY, "neigh"))
    assert moves(g, Resolve()) == (
        PileStopped(PileCard(2, "neigh"), PileCard(1, "neigh"), played=False),
        PileOpenAgain(PileCard(0, "rainbow-aura", 0)),
    )
    assert prompt(g) == Prompt(PromptKind.ANSWER, 0, top=PileCard(0, "rainbow-aura", 0))
    assert [c.card for c in g.state.pile] == ["rainbow-aura"]
    assert moves(g, Resolve()) == (PlayResolved(PileCard(0, "rainbow-aura", 0)),)
    assert "rainbow-aura" in stable(g, 0) and g.state.discard == ("neigh", "neigh")


def test_neigh_battle_of_three_neighs_with_an_answer_after_the_reopening():
    """000_4cb0751821c6f7f6.txt: "Once a pile has been created, you may only ever respond to the top card of the pile";
    after each resolution the new top "to be responded to again"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-aura", ANA), Respond(BEN, "neigh"), Respond(ANA, "neigh"), Respond(CY, "neigh"))
    assert [c.player for c in g.state.pile] == [0, 1, 0, 2]
    assert moves(g, Resolve()) == (  # Cy's Neigh stops Ana's Neigh
        PileStopped(PileCard(2, "neigh"), PileCard(0, "neigh"), played=False),
        PileOpenAgain(PileCard(1, "neigh")),
    )
    moves(g, Respond(ANA, "neigh"))  # the re-opened pile is answered again
    assert moves(g, Resolve())[0] == PileStopped(PileCard(0, "neigh"), PileCard(1, "neigh"), played=False)
    assert moves(g, Resolve()) == (PlayResolved(PileCard(0, "rainbow-aura", 0)),)
    assert "rainbow-aura" in stable(g, 0)
    assert g.state.discard.count("neigh") == 4
    # Without the late answer, Ben's Neigh would have stopped the card:
    g.undo(3)
    found = moves(g, Resolve())
    assert found == (PileStopped(PileCard(1, "neigh"), PileCard(0, "rainbow-aura", 0), played=True),)
    assert "rainbow-aura" not in stable(g, 0)


def test_super_neigh_cannot_be_answered():
    """002_7339423e33071b03.txt and card text: Super Neigh "cannot be Neighed"; 000_4cb0751821c6f7f6.txt "Once a pile
    has been created, you may only ever respond to the top card"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-aura", ANA), Respond(BEN, "super-neigh"))
    assert prompt(g) == Prompt(PromptKind.RESOLVE, 0, top=PileCard(1, "super-neigh"), shield="super-neigh")
    assert warned(g, Respond(ANA, "neigh")) == (CannotBeAnswered(1, "super-neigh"),)
    g.pop()
    found = moves(g, Resolve())
    assert found == (PileStopped(PileCard(1, "super-neigh"), PileCard(0, "rainbow-aura", 0), played=True),)
    assert "rainbow-aura" not in stable(g, 0)


def test_cards_that_cannot_be_neighed_and_players_who_may_not_neigh_are_warned():
    """Yay (card text: "no one can Neigh the cards you play"), Slowdown and Ginormous Unicorn ("you cannot play
    Neigh cards"); 000_4cb0751821c6f7f6.txt "Instant cards can be played any time ... (unless otherwise stated)"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "yay", ANA), Resolve(), EndTurn(), Draw(BEN), Play(BEN, "slowdown", CY), Resolve(), EndTurn())
    moves(g, Draw(CY), Play(CY, "ginormous-unicorn", CY), Resolve(), EndTurn(), Draw(ANA))
    moves(g, Play(ANA, "basic-unicorn-red", ANA))
    yay = CannotBeNeighed(0, "basic-unicorn-red", "yay")
    assert warned(g, Respond(BEN, "neigh")) == (yay,)
    assert [(c.player, c.card) for c in g.state.pile][-1] == (1, "neigh"), "recorded when the table confirms"
    g.pop()
    assert warned(g, Respond(CY, "neigh")) == (CannotNeigh(2, "neigh", "slowdown"), yay)
    g.undo(2)  # the Neigh and the play
    moves(g, Sacrifice(CY, "slowdown"), Play(ANA, "basic-unicorn-red", ANA))
    assert warned(g, Respond(CY, "neigh")) == (CannotNeigh(2, "neigh", "ginormous-unicorn"), yay)


def test_a_card_brought_directly_into_a_stable_cannot_be_neighed():
    """000_4cb0751821c6f7f6.txt "Play vs. Bring Directly into Your Stable": "any card that is brought directly into your
    Stable cannot be Neigh'd"; 002_7339423e33071b03.txt "Neigh cards can only be used to stop a player from playing a
    card from their hand"."""
    t = start()
    to_action(t)
    say(t, "bring basic red into Ana")
    assert last_event(t) == Bring(0, "basic-unicorn-red", 0)
    assert not t.game.state.pile and "basic-unicorn-red" in stable(t.game, 0)
    said = t.handle("neigh Ben")
    assert asks(said) and said.important and objections(t) == (NothingToAnswer(1, "neigh"),)
    assert not t.game.state.pile and len(t.game.log) == 2


def test_an_instant_answers_another_players_card_not_your_own():
    """000_4cb0751821c6f7f6.txt "Instant cards can be played any time any other player plays a card"; "If an Instant
    card is played in response to a card you played, you may respond with an Instant card of your own"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-aura", ANA))
    assert warned(g, Respond(ANA, "neigh")) == (OwnCard(0, "rainbow-aura"),)
    g.pop()
    moves(g, Respond(BEN, "neigh"), Respond(ANA, "neigh"))  # answering Ben's Neigh on her card is allowed


def test_an_unanswered_card_resolves_when_the_table_moves_on():
    """000_4cb0751821c6f7f6.txt: players respond "until all players have declared that they do not intend to respond any
    further": the next event is that declaration, and the card resolves first."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-aura", ANA))
    found = moves(g, EndTurn())
    assert found == (PlayResolved(PileCard(0, "rainbow-aura", 0)), TurnBegan(1, 2)), "the card resolves first"
    assert "rainbow-aura" in stable(g, 0) and g.state.current == 1


def test_magic_takes_effect_then_goes_to_the_discard_pile():
    """000_4cb0751821c6f7f6.txt "Magic cards have one-time effects. When you play a Magic card, it immediately takes
    effect and is then discarded"; its effect is a link of the chain the table resolves, and the card stays in play
    until the link is resolved (001: "Send the Magic Card to the Discard Pile after use")."""
    g = at_table(drawn=True)
    moves(g, EndTurn(), Draw(BEN), Play(BEN, "basic-unicorn-red", BEN), Resolve(), EndTurn(), Draw(CY))
    poison = (Trigger("unicorn-poison", 2, TriggerKind.MAGIC),)
    found = moves(g, Play(CY, "unicorn-poison"), Resolve())
    assert found == (PlayResolved(PileCard(2, "unicorn-poison")), LinkAdded(poison, 1))
    assert "unicorn-poison" not in g.state.discard
    assert g.state.chain[0][0].kind is TriggerKind.MAGIC
    moves(g, Destroy(CY, "basic-unicorn-red", BEN))
    assert "basic-unicorn-red" not in stable(g, 1) and g.state.chain == (poison,)
    assert moves(g, Resolve()) == (LinkResolved(poison, None),) and not g.state.chain
    assert g.state.discard[-2:] == ("basic-unicorn-red", "unicorn-poison")


# The effect chain and the winner.


def test_an_enter_effect_is_a_link_that_waits_for_the_table():
    """000_4cb0751821c6f7f6.txt "Order of Resolution: The Effect Chain": "each effect is considered its own link in an
    effect chain. You must resolve the effect of the first link before moving on"; "All links in the chain must resolve
    before gameplay continues"."""
    g = at_table(drawn=True)
    rainbow = (Trigger("rainbow-unicorn", 0, TriggerKind.ENTER),)
    assert LinkAdded(rainbow, 1) in moves(g, Play(ANA, "rainbow-unicorn", ANA), Resolve())
    assert prompt(g) == Prompt(PromptKind.CHAIN, 0, link=rainbow)
    moves(g, Bring(ANA, "basic-unicorn-red", ANA))  # the effect, done at the table
    assert "basic-unicorn-red" in stable(g, 0) and g.state.chain == (rainbow,)
    assert warned(g, EndTurn()) == (ChainOpen(),)
    g.pop()
    assert moves(g, Resolve()) == (LinkResolved(rainbow, None),)
    assert not g.state.chain


def test_effects_triggered_at_once_are_one_link_and_new_triggers_add_links():
    """000_4cb0751821c6f7f6.txt: "multiple effects may trigger simultaneously ... All of these effects are considered to
    be a single link"; "If any of these effects trigger the effect of another card, another link is added"."""
    g = at_table(TWO, RED_PINK, drawn=True)
    moves(g, Play(ANA, "stabby-the-unicorn", ANA), Resolve(), EndTurn(), Draw(BEN))
    moves(g, Play(BEN, "mother-goose-unicorn", BEN), Resolve())
    assert len(g.state.chain) == 1
    # Ben destroys Stabby while Mother Goose's effect is done: Stabby's own effect is a new link after it.
    moves(g, Destroy(BEN, "stabby-the-unicorn", ANA))
    assert len(g.state.chain) == 2
    link = g.state.chain[1]
    assert [(x.card, x.kind) for x in link] == [("stabby-the-unicorn", TriggerKind.LEAVE)]
    goose = (Trigger("mother-goose-unicorn", 1, TriggerKind.ENTER),)
    assert moves(g, Resolve()) == (LinkResolved(goose, link),), "the next link waits"
    assert prompt(g) == Prompt(PromptKind.CHAIN, 1, link=link)
    moves(g, Resolve())
    assert not g.state.chain


def test_no_winner_until_the_chain_has_resolved():
    """000_4cb0751821c6f7f6.txt "HOW TO WIN": "If a player reaches the required number of Unicorns while an effect chain
    is active, that player is not declared the winner until all links in that effect chain have resolved"."""
    g = at_table(goal=3, drawn=True)
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Resolve())
    moves(g, EndTurn(), Draw(BEN), EndTurn(), Draw(CY), EndTurn(), Draw(ANA))
    found = moves(g, Play(ANA, "rainbow-unicorn", ANA), Resolve())
    assert g.state.outcome is None
    assert WinWaits(0, 3) in found
    step = g.push(Resolve())
    assert g.state.outcome is not None and g.state.outcome.winner == 0
    assert GameOver(Outcome(Ending.GOAL, 0)) in step.facts and step.important


def test_seven_unicorns_win_with_up_to_five_players():
    """000_4cb0751821c6f7f6.txt "2 – 5 Players: 7 Unicorns to win"."""
    g = at_table(FIVE, (*BABIES, "baby-unicorn-blue", "baby-unicorn-green"), drawn=True)
    assert g.state.goal == 7
    for colour in ("red", "orange", "yellow", "green", "blue"):
        moves(g, Bring(ANA, f"basic-unicorn-{colour}", ANA))
    assert g.state.outcome is None
    found = moves(g, Play(ANA, "basic-unicorn-indigo", ANA), Resolve())
    assert g.state.outcome == Outcome(Ending.GOAL, 0)
    assert TallyChanged((6, 1, 1, 1, 1), (7, 1, 1, 1, 1)) in found


def test_six_players_win_at_six():
    """000_4cb0751821c6f7f6.txt "6-8 Players: 6 Unicorns to win"."""
    g = at_table(
        (*FIVE, "Flo"), (*BABIES, "baby-unicorn-blue", "baby-unicorn-green", "baby-unicorn-yellow"), drawn=True
    )
    assert g.state.goal == 6
    for colour in ("red", "orange", "yellow", "green"):
        moves(g, Bring(ANA, f"basic-unicorn-{colour}", BEN))
    assert g.state.outcome is None
    found = moves(g, Play(ANA, "basic-unicorn-blue", BEN), Resolve())
    assert g.state.outcome == Outcome(Ending.GOAL, 1)
    assert TallyChanged((1, 5, 1, 1, 1, 1), (1, 6, 1, 1, 1, 1)) in found


def test_ginormous_unicorn_counts_as_two():
    """000_4cb0751821c6f7f6.txt "Each Unicorn card counts for 1 Unicorn (unless otherwise stated)"; Ginormous Unicorn's
    card text: "This card counts as 2 Unicorns"."""
    t = start()
    to_action(t)
    say(t, "play ginormous", "resolve")
    assert TallyChanged((1, 1, 1), (3, 1, 1)) in step_facts(t)
    assert t.game.table.tally(t.game.state) == (3, 1, 1)
    assert "Unicorns: Ana 3, Ben 1, Cy 1. 7 to win." == t.handle("tally").speech


def test_pandamonium_makes_that_stables_unicorns_stop_counting():
    """001_773a78f0d12bc5b5.txt FAQ: "When Pandamonium is in play, all of that player's Unicorns are Pandas"; Masquerade
    cards tagged not_a_unicorn_effect."""
    g = at_table(drawn=True)
    moves(g, Bring(ANA, "basic-unicorn-red", BEN), Bring(ANA, "ginormous-unicorn", BEN))
    assert g.table.tally(g.state)[1] == 4
    assert TallyChanged((1, 4, 1), (1, 0, 1)) in moves(g, Play(ANA, "pandamonium", BEN), Resolve())
    assert g.table.tally(g.state) == (1, 0, 1)
    found = moves(g, EndTurn(), Draw(BEN), Sacrifice(BEN, "pandamonium"))
    assert found == (TallyChanged((1, 0, 1), (1, 4, 1)),)


def test_the_table_can_change_the_number_to_win():
    """The table is the authority: "new game ... win 5" or "win 5" mid-game (house rules, 003_3ad7ba4e8376142a.txt "Feel
    free to create your own house rules")."""
    g = at_table(goal=4)
    assert g.state.goal == 4
    moves(g, SetGoal(2))
    assert g.state.goal == 2
    found = moves(g, Draw(ANA), Play(ANA, "basic-unicorn-red", ANA), Resolve())
    assert g.state.outcome == Outcome(Ending.GOAL, 0) and GameOver(Outcome(Ending.GOAL, 0)) in found


# Babies.


def test_each_player_places_a_baby_from_the_nursery():
    """000_4cb0751821c6f7f6.txt "HOW TO START": "Allow each player to choose their favorite Baby Unicorn card and place
    it in their Stable. Place any remaining Baby Unicorn cards in the Nursery"."""
    t = tracker()
    said = say(t, "new game Ana Ben")
    assert "say baby, a name and the Baby" in said.speech
    nursery = len(t.game.state.nursery)
    assert nursery == 13
    say(t, "baby Ana red", "baby Ben narwhal")
    assert last_event(t) == Bring(1, "baby-narwhal", 1, Source.NURSERY)
    assert stable(t.game, 0) == ("baby-unicorn-red",) and stable(t.game, 1) == ("baby-narwhal",)
    assert len(t.game.state.nursery) == 11
    found, _ = confirmed(t, "baby Ben red")
    assert found == (NotInNursery("baby-unicorn-red"),)


def test_babies_never_go_to_the_discard_pile_or_a_hand():
    """000_4cb0751821c6f7f6.txt "Baby Unicorn cards ... are never added to the deck, a player's hand, or the discard
    pile"."""
    g = at_table(drawn=True)
    assert BabyToNursery("baby-unicorn-pink", 1) in moves(g, Destroy(ANA, "baby-unicorn-pink", BEN))
    assert "baby-unicorn-pink" in g.state.nursery and "baby-unicorn-pink" not in g.state.discard
    assert BabyToNursery("baby-narwhal", 2) in moves(g, ReturnToHand(ANA, "baby-narwhal", CY))
    assert "baby-narwhal" in g.state.nursery and stable(g, 2) == ()
    assert warned(g, Play(ANA, "baby-unicorn-red", ANA)) == (BabyNotInHand(0, "baby-unicorn-red"),)
    g.pop()
    moves(g, ToNursery(ANA, "baby-unicorn-red", ANA))
    assert "baby-unicorn-red" in g.state.nursery and stable(g, 0) == ()


# Events.


def test_steal_destroy_sacrifice_discard_return_draw_take_swap_move():
    """000_4cb0751821c6f7f6.txt "Active Terms": "SACRIFICE: Send a card in your Stable to the discard pile", "DESTROY:
    Send a card from any other player's Stable to the discard pile", "STEAL: Move a card from any other player's Stable
    into your Stable", "DISCARD: Send a card from your hand to the discard pile", "DRAW: Pull a card from the top of the
    deck"; "Searching for Cards": "reveal the card you chose"."""
    t = start("Ana Ben", "red pink", "hands")
    to_action(t)
    say(t, "bring basic red into Ben", "bring rainbow aura into Ana", "bring slowdown into Ben")
    say(t, "steal basic red")
    assert last_event(t) == Steal(0, "basic-unicorn-red", 1) and "basic-unicorn-red" in stable(t.game, 0)
    assert "basic-unicorn-red" not in stable(t.game, 1)
    found, _ = confirmed(t, "destroy basic red from Ana")
    assert DestroyOwn(0, "basic-unicorn-red") in found
    t.handle("undo")
    say(t, "sacrifice basic red")
    assert last_event(t) == Sacrifice(0, "basic-unicorn-red") and t.game.state.discard[-1] == "basic-unicorn-red"
    assert "basic-unicorn-red" not in stable(t.game, 0)
    hand = t.game.state.players[0].hand
    say(t, "discard")
    assert last_event(t) == Discard(0) and t.game.state.players[0].hand == hand - 1
    assert t.game.state.discard[-1] is None
    say(t, "return slowdown")
    assert last_event(t) == ReturnToHand(0, "slowdown", 1) and "slowdown" not in stable(t.game, 1)
    assert t.game.state.players[1].hand == 6
    deck = t.game.state.deck
    say(t, "take basic red from the discard pile")
    assert last_event(t) == Take(0, "basic-unicorn-red", Source.DISCARD), "searched and shown"
    assert "basic-unicorn-red" not in t.game.state.discard
    say(t, "take unicorn poison from the deck")
    assert t.game.state.deck == deck - 1
    say(t, "bring basic blue into Ben")
    say(t, "swap rainbow aura with basic blue")
    assert last_event(t) == Swap(0, "rainbow-aura", 0, "basic-unicorn-blue", 1)
    assert "rainbow-aura" in stable(t.game, 1) and "basic-unicorn-blue" in stable(t.game, 0)
    say(t, "move rainbow aura to Ana")
    assert last_event(t) == Move(0, "rainbow-aura", 1, 0)
    assert "rainbow-aura" in stable(t.game, 0) and "rainbow-aura" not in stable(t.game, 1)
    hands = [p.hand for p in t.game.state.players]
    say(t, "swap hands Ana Ben")
    assert last_event(t) == SwapHands(0, 1) and [p.hand for p in t.game.state.players] == hands[::-1]
    assert confirmed(t, "Ben draw 2")[0] == (NotYourTurn(1, 0),), "only an effect lets Ben draw in Ana's turn"
    assert last_event(t) == Draw(1, 2) and t.game.state.players[1].hand == hands[0] + 2


def test_a_destroy_against_a_protecting_upgrade_is_warned():
    """Rainbow Aura's card text: "your Unicorn cards cannot be destroyed"; 000_4cb0751821c6f7f6.txt "Immunity"."""
    g = at_table(drawn=True)
    moves(g, Bring(ANA, "rainbow-aura", BEN), Bring(ANA, "basic-unicorn-red", BEN))
    assert warned(g, Destroy(ANA, "basic-unicorn-red", BEN)) == (Protected("basic-unicorn-red", "rainbow-aura", 1),)
    assert "basic-unicorn-red" not in stable(g, 1)


def test_skipping_a_phase_and_another_turn():
    """000_4cb0751821c6f7f6.txt "Magical Unicorn cards ... have triggered effects" such as Rhinocorn's "your turn ends
    at once" and Change of Luck's "you take another turn": the table skips a phase or gives a turn."""
    g = at_table()
    moves(g, NextPhase(skip=True), NextPhase(skip=True))
    assert g.state.phase is Phase.ACTION
    found = moves(g, EndTurn(to=ANA))
    assert g.state.current == 0 and g.state.turn == 2
    assert found == (TurnBegan(0, 2),)


# The deck running out.


def test_deck_count_starts_from_the_deck_files_copies_minus_the_deal_and_follows_draws():
    """000_4cb0751821c6f7f6.txt "Shuffle the black-backed cards ... then deal 5 cards to each player"; Babies are not in
    the deck."""
    t = start()
    non_babies = sum(c.copies for c in CARDS if c.type is not CardType.BABY)
    assert t.game.state.deck == non_babies - 15
    say(t, "draw", "draw")
    confirmed(t, "Ben draw 3")
    assert t.game.state.deck == non_babies - 20
    say(t, "deck 12")
    assert t.game.state.deck == 12
    assert "about 12 cards" in t.handle("deck").speech


def test_deck_runs_out_most_unicorns_wins():
    """000_4cb0751821c6f7f6.txt "If the deck runs out of cards before any player reaches the required number of Unicorns
    in their Stable, the player with the most Unicorns wins"."""
    g = at_table(drawn=True)
    moves(g, Bring(ANA, "basic-unicorn-red", BEN), EndTurn(), Draw(BEN), EndTurn(), SetDeck(1))
    found = moves(g, Draw(CY))
    assert g.state.outcome is not None and g.state.outcome.ending is Ending.MOST and g.state.outcome.winner == 1
    assert found[0] == DeckRanOut() and found[-1] == GameOver(Outcome(Ending.MOST, 1))
    assert g.table.tally(g.state) == (1, 2, 1)


def test_deck_runs_out_tie_broken_by_letters():
    """000_4cb0751821c6f7f6.txt "If two or more players tie for the most Unicorns ... each tied player must add up the
    number of letters in the names of all the Unicorn cards in their Stable. The player with the most letters wins"."""
    g = at_table(TWO, RED_PINK, drawn=True)
    # Ana: Baby Unicorn (Red) 14 + Basic Unicorn (Red) 15 = 29 letters; Ben: Baby Unicorn (Pink) 15 +
    # Basic Unicorn (Blue) 16 = 31 letters.
    moves(g, Bring(ANA, "basic-unicorn-red", ANA), Bring(ANA, "basic-unicorn-blue", BEN))
    found = moves(g, DeckEmpty())
    outcome = g.state.outcome
    assert outcome is not None
    assert outcome.ending is Ending.LETTERS and outcome.winner == 1 and outcome.tied == (0, 1)
    assert found == (DeckRanOut(), GameOver(outcome))
    assert g.table.tally(g.state) == (2, 2)
    assert [name_letters(stable(g, seat), CARDS) for seat in (0, 1)] == [29, 31]


def test_deck_runs_out_tie_in_unicorns_and_letters_everyone_loses():
    """000_4cb0751821c6f7f6.txt: "If two or more players tie for the most Unicorns and the most letters,
    everyone loses"."""
    g = at_table(TWO, RED_PINK, drawn=True)
    # Ana: Baby Unicorn (Red) 14 + Basic Unicorn (Blue) 16 = 30; Ben: Baby Unicorn (Pink) 15 + Basic Unicorn
    # (Red) 15 = 30.
    moves(g, Bring(ANA, "basic-unicorn-blue", ANA), Bring(ANA, "basic-unicorn-red", BEN))
    found = moves(g, DeckEmpty())
    assert g.state.outcome == Outcome(Ending.EVERYONE_LOSES, None, (0, 1))
    assert found == (DeckRanOut(), GameOver(g.state.outcome))
    assert g.table.tally(g.state) == (2, 2)
    assert [name_letters(stable(g, seat), CARDS) for seat in (0, 1)] == [30, 30]


def test_deck_out_waits_for_the_chain():
    """000_4cb0751821c6f7f6.txt: "All links in the chain must resolve before gameplay continues" and "No player can win
    until an effect chain has been completely resolved"."""
    g = at_table(drawn=True)
    moves(g, Play(ANA, "rainbow-unicorn", ANA), Resolve(), DeckEmpty())
    assert g.state.outcome is None and g.state.deck_out
    found = moves(g, Resolve())
    assert g.state.outcome == Outcome(Ending.MOST, 0) and GameOver(Outcome(Ending.MOST, 0)) in found


def test_first_edition_stickler_ends_with_no_winner():
    """001_773a78f0d12bc5b5.txt "WHAT IF YOU RUN OUT OF CARDS?": "If you're a stickler, the game ends when you run out
    of cards. If no one completed their Unicorn Army, no one gets to be The Righteous Ruler"."""
    t = start(extra="rules uu-first stickler")
    to_action(t)
    say(t, "bring basic red into Ana")
    say(t, "deck empty")
    assert t.game.state.outcome == Outcome(Ending.NO_WINNER)
    assert step_facts(t) == (DeckRanOut(), GameOver(Outcome(Ending.NO_WINNER)))


def test_first_edition_rule_breaker_reshuffles():
    """001_773a78f0d12bc5b5.txt: "If you're a rule-breaker, you can reshuffle the discard pile back into the deck when
    you're out of cards"."""
    t = start(extra="rules uu-first deck out rule-breaker")
    to_action(t)
    say(t, "play rainbow aura", "neigh Ben", "resolve")
    say(t, "deck empty")
    assert t.game.state.outcome is None
    assert t.game.state.deck == 2 and t.game.state.discard == ()
    assert step_facts(t) == (DeckRanOut(), Reshuffled(2))
    assert t.game.table.deck_out_rule.value == "reshuffle"


def test_first_edition_default_is_the_stickler_and_reshuffle_is_warned_under_current_rules():
    """001_773a78f0d12bc5b5.txt lists the stickler first; 000_4cb0751821c6f7f6.txt has no reshuffle ("the player with
    the most Unicorns wins")."""
    t = start(extra="rules uu-first")
    assert t.game.table.deck_out_rule.value == "no-winner"
    t = start()
    found, _ = confirmed(t, "reshuffle")
    assert found == (NoReshuffle(),)


def test_five_unicorn_profile():
    """002_7339423e33071b03.txt "THE END OF THE GAME": "The first person to successfully collect 5 Unicorns in their
    Stable wins!"; "If the deck runs out ... shuffle the discard pile and turn it face-down to form the new deck"."""
    t = start("Ana Ben Cy Dee Eve Flo", "red pink narwhal blue green yellow", "rules uu-five")
    assert t.game.state.goal == 5, "5 whatever the number of players"
    to_action(t)
    for colour in ("red", "orange", "yellow"):
        say(t, f"bring basic {colour} into Ana")
    say(t, "discard neigh", "deck empty")
    assert t.game.state.outcome is None and t.game.state.deck == 1
    say(t, "play basic green", "resolve")
    assert t.game.state.outcome == Outcome(Ending.GOAL, 0)
    assert TallyChanged((4, 1, 1, 1, 1, 1), (5, 1, 1, 1, 1, 1)) in step_facts(t)


def test_two_player_variant_removes_cards_and_hands_each_player_a_neigh():
    """002_7339423e33071b03.txt "2-PLAYER RULES": "Remove these cards from the deck ... Seductive Unicorn, Rainbow
    Unicorn, Ginormous Unicorn, Double Dutch, Yay!, Tourist Trap, Slowdown"; "take out two Neigh cards and hand one to
    each player ... giving each player a total of 6 cards in their hand"."""
    t = start("Ana Ben", "red pink", "two player hands")
    table = t.game.table
    assert table.removed == {
        "seductive-unicorn",
        "rainbow-unicorn",
        "ginormous-unicorn",
        "double-dutch",
        "yay",
        "slowdown",
    }  # fmt: skip  (Tourist Trap is not in this deck)
    assert [p.hand for p in t.game.state.players] == [6, 6]
    all_copies = sum(c.copies for c in CARDS if c.type is not CardType.BABY)
    removed_copies = sum(CARDS.get(c).copies for c in table.removed)
    assert t.game.state.deck == all_copies - removed_copies - 2 * 5 - 2
    said = t.handle("rules")
    assert "2-player variant" in said.speech
    to_action(t)
    found, _ = confirmed(t, "play ginormous")
    assert found == (RemovedCard("ginormous-unicorn"),)


def test_two_player_variant_needs_two_players_and_a_rulebook_that_has_it():
    """002_7339423e33071b03.txt "If you are playing with 2 players, make the following modifications";
    003_3ad7ba4e8376142a.txt prints no 2-player rules."""
    t = tracker()
    said = t.handle("new game Ana Ben Cy two player")
    assert said.important and "needs exactly 2 players" in said.speech and t.game is None
    said = t.handle("new game Ana Ben two player rules uu-nsfw")
    assert "have no 2-player variant" in said.speech


def test_player_counts_from_two_to_eight():
    """000_4cb0751821c6f7f6.txt "2 – 5 Players", "6-8 Players"."""
    t = tracker()
    assert "2 to 8 players" in t.handle("new game Ana").speech
    names = " ".join(f"P{n}x" for n in range(9))
    assert "2 to 8 players, not 9" in t.handle(f"new game {names}").speech
    say(t, "new game " + " ".join(f"P{n}x" for n in range(8)))
    assert t.game.state.goal == 6


# Llamas Unleashed.


def _llamas() -> CardSet:
    info = DeckInfo("llamas-test", "Llamas test deck", "test", "llamas-unleashed", "base", Vocabulary.ANIMAL, True,
                    rules="llamas", herd_bonus=(("llama", "Draw a card."),))  # fmt: skip
    cards = [
        Card("baby-llama", "Baby Llama", CardType.BABY, 1, "A Llama.", "llamas-test", frozenset({"nursery"}), "llama"),
        Card("baby-goat", "Baby Goat", CardType.BABY, 1, "A Baby Goat.", "llamas-test", frozenset({"nursery"}), "goat"),
        Card("llama", "Llama", CardType.BASIC, 6, "A Llama.", "llamas-test", frozenset(), "llama"),
        Card("alpaca", "Alpaca", CardType.BASIC, 6, "An Alpaca.", "llamas-test", frozenset(), "alpaca"),
        Card("llamapaca", "Llamapaca", CardType.MAGICAL, 1, "Both.", "llamas-test", frozenset(), "llama+alpaca"),
        Card("neigh", "Neigh", CardType.INSTANT, 10, "Stops a card.", "llamas-test", frozenset({"neigh"})),
    ]  # fmt: skip
    return CardSet([Deck(info, tuple(cards))])


def test_llamas_herd_bonus_at_the_beginning_of_the_turn_in_the_fields_words():
    """004_898b8e00f3d39962.txt "HERD BONUS": "Having 3 or more Animal cards of the same variation in your Field at the
    beginning of your turn will allow you to use that Animal's Herd Bonus effect!"; "Field instead of Stable, Animals
    instead of Unicorns"; "7 Animals to win"."""
    cards = _llamas()
    t = tracker(cards)
    said = say(t, "new game Ana Ben babies llama goat")
    assert t.game.table.profile.id == "llamas", "the deck's [deck] rules"
    assert "7 Animals to win" in said.speech
    say(t, "draw", "play llama", "resolve", "end turn", "draw", "end turn")
    assert not t.game.state.chain, "2 Llamas: no Herd Bonus"
    say(t, "draw")
    say(t, "play llamapaca", "resolve")  # a hybrid counts for both variations
    assert TallyChanged((2, 1), (3, 1)) in step_facts(t)
    say(t, "end turn", "draw", "end turn")
    link = t.game.state.chain[0]
    assert [(x.card, x.kind) for x in link] == [("llama", TriggerKind.HERD)]
    assert step_facts(t) == (TurnBegan(0, 5), LinkAdded(link, 1))
    assert prompt(t.game) == Prompt(PromptKind.OPTIONAL, 0, link=link), "may be used"
    assert t.game.table.herd(t.game.state, 0) == {"llama": 3, "alpaca": 1}
    assert "Ana's Field: Baby Llama, Llama and Llamapaca. 3 Animals." in t.handle("stable Ana").speech
    assert "Ana's herd: 1 Alpaca, 3 Llamas." in t.handle("stable Ana").speech
    say(t, "draw")
    assert step_facts(t)[0] == TriggersLost(link)


def test_nsfw_rules_are_the_core_rules():
    """003_3ad7ba4e8376142a.txt "HOW TO WIN": "2*–5 Players: 7 Unicorns to win", "6–8 Players: 6 Unicorns to win"; deck
    runs out: "the player with the most Unicorns wins"."""
    t = start(extra="rules uu-nsfw")
    assert t.game.table.profile.rulebook.startswith("003_")
    assert t.game.state.goal == 7 and t.game.table.deck_out_rule.value == "most-wins"


# Undo and redo.


def test_undo_and_redo_any_number_of_events_are_announced():
    """Principle of the tracker: the log is the truth; undo pops events, redo pushes them back."""
    t = start()
    to_action(t)
    say(t, "play rainbow aura", "resolve")
    before = t.game.state
    said = t.handle("undo")
    assert said.important and said.lines[0] == "Undone: Ana's Rainbow Aura is back on the pile."
    said = t.handle("undo")
    assert said.lines[0] == "Undone: Ana's Rainbow Aura is back in their hand."
    said = t.handle("redo 2")
    assert said.lines[0] == "Redone 2 events: Ana played Rainbow Aura; Rainbow Aura by Ana resolved."
    assert t.game.state == before
    said = t.handle("undo all")
    assert t.game.state == t.game.state_before(0) and not t.game.log
    assert t.handle("undo").speech == "There is nothing to undo."
    t.handle("redo all")
    assert t.game.state == before
    assert t.handle("redo").speech == "There is nothing to redo."


def _small_set(extra: list[Card]) -> CardSet:
    """The default deck's Babies, Basics and Neighs plus `extra` cards."""
    keep = [c for c in CARDS if c.type in (CardType.BABY, CardType.BASIC) or c.id in ("neigh", "super-neigh")]
    info = CARDS.base.info
    return CardSet([Deck(info, tuple(keep) + tuple(extra))])


@pytest.mark.parametrize("line", ["play zzzzqqq", "steal rainbow aura from Zed", "new game Ana Ana"])
def test_bad_commands_get_a_clear_message_and_nothing_is_recorded(line):
    """The table is the authority, but a command the tracker cannot read records nothing and says why."""
    t = start()
    events = len(t.game.log)
    said = t.handle(line)
    assert said.important and said.speech
    assert len(t.game.log) == events
