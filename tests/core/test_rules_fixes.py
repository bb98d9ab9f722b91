"""The rules the table checks, each case citing the rulebook passage or the card text it follows.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game), 002_7339423e33071b03.txt (first-edition era, 2-player
variant), 004_898b8e00f3d39962.txt (Llamas Unleashed). Games are driven through the command language on the
app's own resolver, as at the table.
"""

from __future__ import annotations

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet
from assistant.core.cards.cardfile import parse_deck
from assistant.core.game.events import Phase
from assistant.core.game.objections import NothingToAnswer
from assistant.core.game.table import PromptKind
from assistant.core.language.reply import Reply
from assistant.core.words.rulings import describe_objection
from assistant.session import Session
from assistant.storage.decks import load_card_set
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


def test_yay_being_played_can_be_neighed():
    """000: Upgrade cards "have no effect while they are in your hand ... only active when they are in your
    Stable". Yay (card text: cards you play cannot be Neighed) protects only once it is in its owner's Stable."""
    s = start()
    say(s, "draw")
    say(s, "play yay")
    prompt = s.game.table.prompt(s.game.state)  # the table asks for a Neigh to Ana's Yay
    assert prompt.kind is PromptKind.ANSWER and prompt.top is not None and prompt.top.card == "yay"
    said = say(s, "neigh Ben", "resolve")
    assert "Ana's Yay is Neighed" in said.speech
    assert "yay" not in s.game.state.players[0].stable


def test_yay_in_the_stable_protects_the_next_card_played():
    """Yay's text: while it is in your Stable, the cards you play cannot be Neighed."""
    s = start()
    say(s, "draw", "play yay", "resolve", "end turn")
    say(s, "draw", "end turn", "draw", "end turn", "draw")
    said = say(s, "play rainbow aura")
    assert "cannot be Neighed while Yay is in Ana's Stable" in said.speech
    question = s.handle("neigh Ben").speech
    assert "Ana's cards cannot be Neighed while Yay is in Ana's Stable" in question


def test_an_insisted_neigh_against_a_super_neigh_has_no_effect():
    """Super Neigh's text: "A Super Neigh cannot be Neighed". The table may record the Neigh anyway (the table is
    the authority), but it goes to the discard pile with no effect, and that is said."""
    s = start()
    say(s, "draw", "play magical kittencorn", "super neigh Ben")
    warning = s.handle("neigh Ana").speech
    assert "Super Neigh cannot be answered" in warning
    said = s.handle("yes")
    assert "Ana played Neigh" in said.speech
    said = say(s, "resolve")
    assert "Ana's Neigh has no effect: Super Neigh cannot be Neighed" in said.speech
    said = say(s, "resolve")
    assert "Ben's Super Neigh resolves: Ana's Magical Kittencorn is Neighed" in said.speech
    assert "magical-kittencorn" not in s.game.state.players[0].stable
    assert s.game.state.discard.count("neigh") == 1


def test_the_table_can_undo_an_insisted_neigh_and_record_something_else():
    """The table is the authority: the Neigh recorded anyway can be undone, and another answer recorded."""
    s = start()
    say(s, "draw", "play magical kittencorn", "super neigh Ben")
    s.handle("neigh Ana")
    s.handle("yes")
    assert [c.card for c in s.game.state.pile] == ["magical-kittencorn", "super-neigh", "neigh"]
    s.handle("undo")
    assert [c.card for c in s.game.state.pile] == ["magical-kittencorn", "super-neigh"]
    said = say(s, "resolve")
    assert "Ben's Super Neigh resolves: Ana's Magical Kittencorn is Neighed" in said.speech
    assert "neigh" not in s.game.state.discard


def test_an_optional_effect_let_go_is_not_honoured():
    """000 and 004: "If you move to your Draw phase without triggering an optional triggered effect, you can no
    longer trigger that effect this turn". Double Dutch let go: one card in the Action phase, the second warned."""
    s = start("Ana Ben", "babies red pink")
    say(s, "draw", "play double dutch", "resolve", "end turn", "end turn")
    said = say(s, "draw")
    assert "lost for this turn: Double Dutch" in said.speech
    say(s, "play basic red", "resolve")
    question = s.handle("play basic blue").speech
    assert "already played a card or drawn in this Action phase" in question


def test_a_second_action_phase_draw_is_warned_like_a_second_play():
    """000 "Action Phase": "Play a card from your hand OR DRAW a card"."""
    s = start()
    say(s, "draw", "play basic red", "resolve")
    question = s.handle("draw").speech
    assert "already played a card or drawn in this Action phase" in question
    assert s.handle("no").speech == "Not recorded."
    assert s.game.state.actions == 1


def test_the_action_phase_draw_itself_is_not_warned():
    s = start()
    say(s, "draw", "draw")
    assert s.game.state.actions == 1 and s.game.state.phase is Phase.ACTION


def test_reset_buttons_reshuffle_is_not_against_the_rules():
    """Reset Button's text shuffles the discard pile into the deck: what a card's text does is never against the
    rules, even under rules that do not reshuffle when the deck runs out (000: most Unicorns wins)."""
    s = start()
    say(s, "draw", "play reset button", "resolve")
    said = say(s, "reshuffle")
    assert "shuffled into a new deck" in said.speech


def test_a_reshuffle_with_no_card_effect_is_still_warned_under_these_rules():
    """000 "Deck runs out": the player with the most Unicorns wins; these rules make no new deck."""
    s = start()
    say(s, "draw")
    assert "do not shuffle the discard pile" in s.handle("reshuffle").speech


def test_a_reshuffle_while_an_effect_that_does_not_reshuffle_waits_is_still_warned():
    """Only a card whose text shuffles the discard pile into the deck makes the reshuffle its own: Double Dutch's
    beginning-of-turn effect ("you may play one extra card") does not."""
    s = start("Ana Ben", "babies red pink")
    say(s, "draw", "play double dutch", "resolve", "end turn", "end turn")
    assert s.game.state.chain  # Double Dutch's optional effect waits
    assert "do not shuffle the discard pile" in s.handle("reshuffle").speech


def test_every_card_that_reshuffles_makes_the_reshuffle_its_own():
    """Mystical Vortex: "Then shuffle the discard pile into the deck"; Shake Up: "Shuffle this card, your whole hand
    and the discard pile into the deck"."""
    for card in ("mystical vortex", "shake up"):
        s = start()
        say(s, "draw", f"play {card}", "resolve")
        assert "shuffled into a new deck" in say(s, "reshuffle").speech


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
