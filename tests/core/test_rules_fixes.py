"""The rules the table checks, each case citing the rulebook passage or the card text it follows.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game), 002_7339423e33071b03.txt (first-edition era, 2-player
variant), 004_898b8e00f3d39962.txt (Llamas Unleashed). The rules are played on the core's own API
(tests/core/playing.py), asserting on the typed objections, facts, prompt and state (their sentences:
tests/words/test_rule_sentences.py); what a game's start says, a warning declined and a name typed go through the
command language on the app's own resolver, as at the table.
"""

from __future__ import annotations

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet
from assistant.core.cards.cardfile import parse_deck
from assistant.core.game.chain import PileCard, Trigger, TriggerKind
from assistant.core.game.events import Draw, EndTurn, Phase, Play, Reshuffle, Resolve, Respond
from assistant.core.game.facts import NeighHadNoEffect, PileStopped, Reshuffled, TriggersLost
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionUsed,
    CannotBeAnswered,
    CannotBeNeighed,
    NoReshuffle,
    NothingToAnswer,
)
from assistant.core.game.table import PromptKind
from assistant.core.language.reply import Reply
from assistant.core.words.rulings import describe_objection
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.playing import ANA, BEN, CY, RED_PINK, declined, game, moves, warned
from tests.core.talking import asks

CARDS = load_card_set("uu-2nd")


def start(players: str = "Ana Ben Cy", extra: str = "babies red pink narwhal", cards=CARDS) -> Session:
    session = table_session(cards)
    said = session.handle(f"new game {players} {extra}".strip())
    assert said.important and not asks(said), said.speech
    return session


def say(s: Session, *lines: str) -> Reply:
    """Say each line; none may be warned."""
    said = Reply.of("")
    for line in lines:
        said = s.handle(line)
        assert not asks(said), f"{line!r} was warned: {said.speech}"
    return said


def three() -> Game:
    """A game of Ana, Ben and Cy (their Babies red, pink and the Narwhal), Ana in her Action phase."""
    return game(players=("Ana", "Ben", "Cy"), babies=(*RED_PINK, "baby-narwhal"), drawn=True)


def test_yay_being_played_can_be_neighed():
    """000: Upgrade cards "have no effect while they are in your hand ... only active when they are in your
    Stable". Yay (card text: cards you play cannot be Neighed) protects only once it is in its owner's Stable."""
    g = three()
    moves(g, Play(ANA, "yay", ANA))
    prompt = g.table.prompt(g.state)  # the table asks for a Neigh to Ana's Yay
    assert prompt.kind is PromptKind.ANSWER and prompt.top is not None and prompt.top.card == "yay"
    found = moves(g, Respond(BEN, "neigh"), Resolve())
    assert PileStopped(PileCard(1, "neigh"), PileCard(0, "yay", 0), played=True) in found
    assert "yay" not in g.state.players[0].stable


def test_yay_in_the_stable_protects_the_next_card_played():
    """Yay's text: while it is in your Stable, the cards you play cannot be Neighed."""
    g = three()
    moves(g, Play(ANA, "yay", ANA), Resolve(), EndTurn(), Draw(BEN), EndTurn(), Draw(CY), EndTurn(), Draw(ANA))
    moves(g, Play(ANA, "rainbow-aura", ANA))
    assert g.table.prompt(g.state).shielded_by() == "yay"
    assert declined(g, Respond(BEN, "neigh")) == (CannotBeNeighed(0, "rainbow-aura", "yay"),)


def test_an_insisted_neigh_against_a_super_neigh_has_no_effect():
    """Super Neigh's text: "A Super Neigh cannot be Neighed". The table may record the Neigh anyway (the table is
    the authority), but it goes to the discard pile with no effect, and that is said."""
    g = three()
    moves(g, Play(ANA, "magical-kittencorn", ANA), Respond(BEN, "super-neigh"))
    assert warned(g, Respond(ANA, "neigh")) == (CannotBeAnswered(1, "super-neigh"),)
    assert g.state.pile[-1] == PileCard(0, "neigh")
    super_neigh, kittencorn = PileCard(1, "super-neigh"), PileCard(0, "magical-kittencorn", 0)
    assert NeighHadNoEffect(PileCard(0, "neigh"), super_neigh, "super-neigh") in moves(g, Resolve())
    assert PileStopped(super_neigh, kittencorn, played=True) in moves(g, Resolve())
    assert "magical-kittencorn" not in g.state.players[0].stable
    assert g.state.discard.count("neigh") == 1


def test_the_table_can_undo_an_insisted_neigh_and_record_something_else():
    """The table is the authority: the Neigh recorded anyway can be undone, and another answer recorded."""
    g = three()
    moves(g, Play(ANA, "magical-kittencorn", ANA), Respond(BEN, "super-neigh"))
    warned(g, Respond(ANA, "neigh"))
    assert [c.card for c in g.state.pile] == ["magical-kittencorn", "super-neigh", "neigh"]
    g.pop()
    assert [c.card for c in g.state.pile] == ["magical-kittencorn", "super-neigh"]
    stopped = PileStopped(PileCard(1, "super-neigh"), PileCard(0, "magical-kittencorn", 0), played=True)
    assert stopped in moves(g, Resolve())
    assert "neigh" not in g.state.discard


def test_an_optional_effect_let_go_is_not_honoured():
    """000 and 004: "If you move to your Draw phase without triggering an optional triggered effect, you can no
    longer trigger that effect this turn". Double Dutch let go: one card in the Action phase, the second warned."""
    g = game(babies=RED_PINK, drawn=True)
    moves(g, Play(ANA, "double-dutch", ANA), Resolve(), EndTurn(), Draw(BEN), EndTurn())
    lost = TriggersLost((Trigger("double-dutch", 0, TriggerKind.BEGIN_OPTIONAL),))
    assert lost in moves(g, Draw(ANA))
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Resolve())
    assert declined(g, Play(ANA, "basic-unicorn-blue", ANA)) == (ActionUsed(0, 1),)


def test_a_second_action_phase_draw_is_warned_like_a_second_play():
    """000 "Action Phase": "Play a card from your hand OR DRAW a card"."""
    s = start()
    say(s, "draw", "play basic red", "resolve")
    question = s.handle("draw").speech
    assert "already played a card or drawn in this Action phase" in question
    assert s.handle("no").speech == "Not recorded."
    assert s.game.state.actions == 1


def test_the_action_phase_draw_itself_is_not_warned():
    g = three()
    moves(g, Draw(ANA))
    assert g.state.actions == 1 and g.state.phase is Phase.ACTION


def reshuffled(played: Game) -> bool:
    """A reshuffle the core finds nothing against, recorded: True when it made a new deck."""
    return any(isinstance(fact, Reshuffled) for fact in moves(played, Reshuffle()))


def test_reset_buttons_reshuffle_is_not_against_the_rules():
    """Reset Button's text shuffles the discard pile into the deck: what a card's text does is never against the
    rules, even under rules that do not reshuffle when the deck runs out (000: most Unicorns wins)."""
    g = three()
    moves(g, Play(ANA, "reset-button"), Resolve())
    assert reshuffled(g)


def test_a_reshuffle_with_no_card_effect_is_still_warned_under_these_rules():
    """000 "Deck runs out": the player with the most Unicorns wins; these rules make no new deck."""
    assert declined(three(), Reshuffle()) == (NoReshuffle(),)


def test_a_reshuffle_while_an_effect_that_does_not_reshuffle_waits_is_still_warned():
    """Only a card whose text shuffles the discard pile into the deck makes the reshuffle its own: Double Dutch's
    beginning-of-turn effect ("you may play one extra card") does not."""
    g = game(babies=RED_PINK, drawn=True)
    moves(g, Play(ANA, "double-dutch", ANA), Resolve(), EndTurn(), Draw(BEN), EndTurn())
    assert g.state.chain  # Double Dutch's optional effect waits
    assert declined(g, Reshuffle()) == (NoReshuffle(),)


def test_every_card_that_reshuffles_makes_the_reshuffle_its_own():
    """Mystical Vortex: "the discard pile is shuffled into the deck"; Shake Up: "Shuffle this card, your whole hand
    and the discard pile into the deck"."""
    for card in ("mystical-vortex", "shake-up"):
        g = three()
        moves(g, Play(ANA, card), Resolve())
        assert reshuffled(g), card


def test_a_card_of_the_2_player_list_not_in_the_deck_is_said_once():
    """002 2-player variant: remove "Seductive Unicorn, Rainbow Unicorn, Ginormous Unicorn, Double Dutch, Yay!,
    Tourist Trap, Slowdown"; Tourist Trap is in none of the shipped decks."""
    s = table_session(CARDS)
    said = s.handle("new game Ana Ben two player rules uu-five")
    assert said.speech.count("Tourist Trap") == 1
    assert "The rulebook also lists Tourist Trap, which is not in this deck." in said.speech


def test_the_llamas_deck_names_its_babies_and_offers_one_as_an_example():
    """004: "Allow each player to choose their favorite Baby Animal card and place it in their Field"; the shipped
    Llamas deck names its Baby Animals, so one is offered as an example in the Field's words."""
    s = table_session(load_card_set("llamas"))
    said = s.handle("new game Ana Ben")
    assert "for example baby Ana llama" in said.speech and "baby Ana red" not in said.speech
    assert "names no Baby cards yet" not in said.speech


def test_a_deck_with_no_named_babies_does_not_suggest_one():
    """A Llamas deck whose card list names no Baby Animal (a partial list) offers no example."""
    partial = parse_deck(
        '[deck]\nid = "llamas-partial"\ntitle = "Partial Llamas"\nedition = "test"\ngame = "llamas-unleashed"\n'
        'kind = "base"\nvocabulary = "animal"\ncomplete = false\nrules = "llamas"\n\n'
        '[[cards]]\nid = "llama-bomb"\nname = "Llama Bomb"\ntype = "magic"\ncopies = 2\n'
        'text = "Destroy an Animal card."\n'
    )
    s = table_session(CardSet([partial]))
    said = s.handle("new game Ana Ben")
    assert "baby Ana red" not in said.speech
    assert "names no Baby cards yet" in said.speech


def test_nothing_to_answer_uses_the_games_own_words():
    """004: Llamas Unleashed says Field instead of Stable (and Animals instead of Unicorns)."""
    llamas = load_card_set("llamas")
    s = table_session(llamas)
    s.handle("new game Ana Ben")
    sentence = describe_objection(s.game.table, NothingToAnswer(1, "any"))
    assert "directly into a Field cannot be stopped" in sentence and "Stable" not in sentence
    assert "Neigh" not in sentence  # Llamas Unleashed has no card named Neigh


def test_a_player_name_with_terminal_escapes_is_cleaned_before_it_is_looked_up():
    """A name typed with a terminal escape in it is the same player once the escape is cleaned away."""
    s = start()
    say(s, "draw", "play basic red")
    said = s.handle("neigh \x1b[2JBen")
    assert "No player called" not in said.speech
    assert "Ben played Neigh" in said.speech
