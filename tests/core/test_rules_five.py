"""Rules a real table meets that the tracker got wrong (issue "Rules 5"), each case citing the rulebook line or the
card it follows: counting under a card that changes what another card is, a turn that ends at once, a Magic card
during its own effect, impossible actions, saves "instead", and cards named one by one.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game), 001_773a78f0d12bc5b5.txt (first edition). The rules are
played on the core's own API (tests/core/playing.py: the events a line would build), asserting on the typed
objections and facts and on the state; what a reply asks or says (the turn's end asked, a save offered, a leave
effect said, a name read) goes through the command language on the app's own resolver (tests/core/talking.py), as
at the table.
"""

from __future__ import annotations

import pytest

from assistant.core.cards.card import CardType, Tag
from assistant.core.cards.wording import Need, UnicornAction, leave_effect, needed_target, table_rule
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Move,
    NextPhase,
    Phase,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    Sacrifice,
    Save,
    SetHand,
    SkipPhase,
    Source,
    Steal,
    Take,
)
from assistant.core.game.facts import (
    CardMustGo,
    GameOver,
    GoesBackNow,
    HerdBonusIgnored,
    LinkAdded,
    PhaseSkipped,
    TableKeeps,
    TurnEndsNow,
)
from assistant.core.game.history import Game
from assistant.core.game.judge import win_barred
from assistant.core.game.objections import (
    CannotNeigh,
    CannotSave,
    ExtraIsAPlay,
    Impossible,
    NoCopiesLeft,
    NotAUnicornHere,
    PhaseIsSkipped,
    Protected,
)
from assistant.core.game.table import PromptKind
from assistant.core.words.cardtext import LEAVING, card_gist
from assistant.session import Session
from assistant.storage.decks import deck_files
from tests.core import talking
from tests.core.playing import ANA, BEN, bring, declined, moves, table, warned
from tests.core.test_card_rules import LEFT_TO_THE_TABLE, every_print


def test_blinding_light_makes_ginormous_unicorn_count_as_one_basic_unicorn():
    """Blinding Light (2nd Edition): the Unicorn cards in its Stable count as Basic Unicorns. Ginormous Unicorn
    there counts 1, not 2: a Baby, 4 Basics and Ginormous are 6, not the 7 that win."""
    g = table()
    bring(g, "blinding-light")
    for basic in ("basic-unicorn-red", "basic-unicorn-blue", "basic-unicorn-yellow", "basic-unicorn-purple"):
        bring(g, basic)
    found = bring(g, "ginormous-unicorn")
    assert g.table.tally(g.state)[0] == 6
    assert g.state.outcome is None and not any(isinstance(f, GameOver) for f in found)
    moves(g, Sacrifice(ANA, "blinding-light"))
    assert g.table.tally(g.state)[0] == 7 and g.state.outcome is not None


def test_ginormous_unicorn_under_blinding_light_no_longer_stops_its_owners_neighs():
    """Blinding Light (2nd Edition): the effects of the Unicorn cards in its Stable do not work, so Ginormous
    Unicorn's "you cannot play Neigh cards" stops nothing there; without Blinding Light it stops its owner."""
    g = table()
    bring(g, "ginormous-unicorn", into=BEN)
    moves(g, Play(ANA, "yay", ANA))
    assert any(isinstance(o, CannotNeigh) for o in declined(g, Respond(BEN, "neigh")))
    g.pop()
    bring(g, "blinding-light", into=BEN)
    moves(g, Play(ANA, "yay", ANA), Respond(BEN, "neigh"))


def test_a_unicorn_under_blinding_light_is_a_basic_unicorn_for_every_rule():
    """Blinding Light (2nd Edition) makes every Unicorn card in its Stable a Basic Unicorn: The Black Spot
    (Adventures: no win while a Basic Unicorn is in its Stable) bars a Stable of a Magical Unicorn under it."""
    g = table("uu-2nd", ("uu-adventures",))
    bring(g, "the-black-spot")
    bring(g, "rhinocorn")
    assert win_barred(g.table.cards, g.state.stables, 0) is None
    bring(g, "blinding-light")
    assert win_barred(g.table.cards, g.state.stables, 0) == "the-black-spot"


def rhinocorn_turn(base: str = "uu-2nd", addons: tuple[str, ...] = (), card_id: str = "rhinocorn") -> Game:
    """Ana's turn begins with a card in her Stable whose beginning-of-turn effect acts on the turn (ends it, skips
    its Draw phase)."""
    g = table(base, addons)
    bring(g, card_id)
    moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.current == 0 and g.state.chain
    return g


def rhinocorn_talk(
    base: str = "uu-2nd", addons: tuple[str, ...] = (), card_id: str = "rhinocorn", target: str | None = None
) -> Session:
    """The same turn through the lines, for what the tracker asks; `target`, a card brought into Ben's Stable
    first."""
    s = talking.table(base, addons)
    talking.bring(s, card_id)
    if target is not None:
        talking.bring(s, target, into="Ben")
    s.handle("end turn")
    s.handle("draw")
    s.handle("end turn")
    assert s.game.state.current == 0 and s.game.state.chain
    return s


def test_rhinocorn_used_asks_to_end_the_turn_and_never_prompts_the_draw():
    """Rhinocorn (000 base deck): "If you do, your turn ends at once". Once its effect is done the tracker asks
    "End Ana's turn now?" (no Draw phase prompted, at any level); yes ends the turn and Ben's begins."""
    s = rhinocorn_talk(target="basic-unicorn-red")
    s.handle("verbosity coaching")
    talking.unwarned(s, "destroy basic red from Ben")
    said = s.handle("resolve")
    assert talking.asks(said) and "End Ana's turn now?" in said.speech
    assert "draws a card" not in said.speech
    assert s.game.table.prompt(s.game.state).kind is PromptKind.TURN_ENDS
    assert TurnEndsNow(0, "rhinocorn") in talking.facts(s)
    s.handle("yes")
    assert s.game.state.current == 1 and s.game.state.turn_ends is None


def test_rhinocorn_let_go_lets_the_turn_go_on():
    """The effect is optional ("you may"): drawing instead lets it go, and the turn goes on as usual."""
    g = rhinocorn_turn()
    moves(g, Draw(ANA))
    assert g.state.turn_ends is None and g.table.prompt(g.state).kind is PromptKind.ACTION


def test_no_to_ending_the_turn_lets_it_go_on_and_records_nothing():
    """No to "End Ana's turn now?" says the turn goes on; a draw then is the Draw phase's, and nothing is said to be
    "not recorded"."""
    s = rhinocorn_talk()
    assert talking.asks(s.handle("resolve"))
    events = len(s.game.log)
    assert s.handle("no").speech == "The turn goes on: the effect was not used."
    assert len(s.game.log) == events
    said = s.handle("draw").speech
    assert "Not recorded" not in said and s.game.state.current == 0 and s.game.state.turn_ends is None


@pytest.mark.parametrize(
    "base, addons, card_id",
    [
        # Zombie Unicorn (1st Edition): "your turn then jumps to its end"; (Rainbow Apocalypse): "skip straight to
        # your End of Turn phase"; Rainbow Sprinkles (Rainbow Apocalypse): "jump right to your End of Turn phase".
        ("uu-1st", (), "zombie-unicorn"),
        ("uu-1st", (), "rhinocorn"),
        ("uu-2nd", ("uu-rainbow-apocalypse",), "zombie-unicorn-ra"),
        ("uu-2nd", ("uu-rainbow-apocalypse",), "rainbow-sprinkles"),
    ],
)
def test_every_card_whose_effect_ends_the_turn_asks_to_end_it(base, addons, card_id):
    s = rhinocorn_talk(base, addons, card_id)
    said = s.handle("resolve")
    assert talking.asks(said) and "End Ana's turn now?" in said.speech
    s.handle("yes")
    assert s.game.state.current == 1


def test_reset_button_stays_in_play_during_its_effect_then_goes_to_the_discard_pile():
    """000: a Magic card "immediately takes effect and is then discarded"; 001: "Send the Magic Card to the Discard
    Pile after use". Reset Button shuffles the discard pile into the deck while its effect is done, so the deck gains
    the 3 cards there, not itself, and the discard pile then holds Reset Button alone."""
    g = table()
    moves(g, *(Discard(ANA, card) for card in ("neigh", "yay", "unicorn-poison")))
    deck = g.state.deck
    assert deck is not None
    moves(g, Play(ANA, "reset-button"), Resolve())
    assert "reset-button" not in g.state.discard
    moves(g, Reshuffle())
    assert g.state.deck == deck + 3 and g.state.discard == ()
    moves(g, Resolve())
    assert g.state.discard == ("reset-button",)


def test_a_magic_card_in_play_is_a_copy_seen():
    """A Magic card whose effect is being done is neither in the hand nor in the deck, even once Reset Button's
    reshuffle made the discard pile the deck: its one copy is seen, so taking it from the deck is warned."""
    g = table()
    moves(g, Play(ANA, "reset-button"), Resolve(), Reshuffle())
    assert any(isinstance(o, NoCopiesLeft) for o in declined(g, Take(ANA, "reset-button", Source.DECK)))


def sentences_of(text: str) -> list[str]:
    return [t.strip().rstrip(".") for t in text.split(". ") if t.strip()]


def test_every_leaving_card_says_its_own_leave_effect():
    """Each card with a leave effect (tag `leave_trigger`), in every deck and print, is said leaving with the clause
    of its text that is its leave effect ("If this card leaves your Stable, ...", "Should this card be sacrificed or
    destroyed, ..."), never another sentence; and every text with such a clause carries the tag."""
    wrong, untagged = [], []
    for deck_id, card in ((d, c) for d in sorted(deck_files()) for c in every_print(d)):
        found = leave_effect(sentences_of(card.text))
        if not card.has(Tag.LEAVE_TRIGGER):
            if found is not None:
                untagged.append((deck_id, card.id))
            continue
        said = card_gist(card, LEAVING).removesuffix(", and more")
        if found is None or said.split("; ")[0] not in found[1]:
            wrong.append((deck_id, card.id, said))
    assert wrong == [] and untagged == []


@pytest.mark.parametrize(
    "base, addons, card_id, line, said",
    [
        # Seductive Unicorn (1st Edition): it must give back the Unicorn it took, not take one again.
        ("uu-1st", (), "seductive-unicorn", "destroy seductive unicorn", "that Unicorn goes back to the Stable"),
        # Naked Narwhal (NSFW): sacrificed, it gives back the Basic Unicorn it stole.
        ("uu-nsfw", (), "naked-narwhal", "Ben sacrifice naked narwhal", "that Basic Unicorn goes back"),
        # Llama Pinata (Llamas): destroyed, its owner draws 2, not its save clause.
        ("llamas", (), "llama-pinata", "destroy llama pinata", "you draw 2 cards"),
        # Dragon Unicorn (Dragons): leaving "in any way", its owner may destroy a Unicorn.
        ("uu-2nd", ("uu-dragons",), "dragon-unicorn", "destroy dragon unicorn", "you may destroy a Unicorn card"),
    ],
)
def test_a_card_leaving_play_is_said_with_its_leave_effect(base, addons, card_id, line, said):
    s = talking.table(base, addons)
    talking.bring(s, card_id, into="Ben")
    reply = s.handle(line)
    if talking.asks(reply):
        reply = s.handle("yes")
    assert f"which does this: {said}" in reply.speech


def impossible(played: Game, event: Play) -> list[Impossible]:
    return [o for o in declined(played, event) if isinstance(o, Impossible)]


def test_a_magic_card_with_nothing_to_act_on_is_warned_as_impossible():
    """000: "If you have a card in your hand that requires you to perform an impossible action, you may not play
    it." Targeted Destruction (2nd Edition) with no Upgrade in another player's Stable and no Downgrade in one's
    own; Kiss of Life with no Unicorn in the discard pile. Once there is one, the play is not warned."""
    g = table()
    assert impossible(g, Play(ANA, "targeted-destruction")) == [
        Impossible(0, "targeted-destruction", Need.UPGRADE_THERE_OR_DOWNGRADE_HERE)
    ]
    assert impossible(g, Play(ANA, "kiss-of-life")) == [Impossible(0, "kiss-of-life", Need.UNICORN_IN_DISCARD)]
    bring(g, "yay", into=BEN)
    moves(g, Play(ANA, "targeted-destruction"))


def test_unicorn_poison_against_pandas_only_is_impossible():
    """Pandamonium (2nd Edition): the Unicorns in its Stable are Pandas, which an effect on Unicorn cards cannot
    touch; Unicorn Poison ("Destroy a Unicorn card in another player's Stable") then has nothing to destroy. Without
    Pandamonium, Ben's Baby Unicorn is a target. The warning says why (through the lines)."""
    s = talking.table()
    assert s.game.check(Play(0, "unicorn-poison")) == ()
    talking.bring(s, "pandamonium", into="Ben")
    found = [o for o in talking.warning(s, "play unicorn poison") if isinstance(o, Impossible)]
    assert found == [Impossible(0, "unicorn-poison", Need.OTHERS_UNICORN)]
    said = s.handle("play unicorn poison").speech
    assert "Unicorn Poison needs a Unicorn card it can destroy in another player's Stable" in said


def test_every_card_that_needs_a_target_is_found_by_its_text():
    """The cards whose whole effect needs a target (a Magic card's, or one that must be done as the card enters):
    each print of every deck, found by its wording."""
    prints = [card for deck_id in sorted(deck_files()) for card in every_print(deck_id)]
    found = sorted({(card.id, need.value) for card in prints if (need := needed_target(card.text))})
    assert found == [
        ("baby-trap", "others-baby"),
        ("berserkercorn", "others-unicorn"),
        ("dragon-s-breath", "others-unicorn"),
        ("dragon-s-fire", "any-upgrade-or-downgrade"),
        ("free-candy-unicorn", "others-baby"),
        ("horny-flying-unicorn", "others-unicorn-to-take"),
        ("horrifying-impaling", "others-unicorn"),
        ("kiss-of-life", "unicorn-in-discard"),
        ("naked-narwhal", "others-basic"),
        ("raze-the-stables", "any-upgrade-or-downgrade"),
        ("seductive-unicorn", "others-unicorn-to-take"),
        ("targeted-destruction", "any-upgrade-or-downgrade"),
        ("targeted-destruction", "upgrade-there-or-downgrade-here"),
        ("unicorn-poison", "others-unicorn"),
    ]


def double_dutch_turn() -> Game:
    """Ana's Action phase with Double Dutch's extra play (used before her Draw phase, 000)."""
    g = table()
    bring(g, "double-dutch")
    moves(g, EndTurn(), Draw(BEN), EndTurn(), Resolve(), Draw(ANA))
    return g


def test_double_dutch_gives_a_second_play_not_a_draw():
    """Double Dutch: "you may play 2 cards during your Action phase". After a play, a draw is no second action:
    it is warned, and recorded anyway it leaves the second play unused."""
    g = double_dutch_turn()
    moves(g, Play(ANA, "basic-unicorn-red", ANA))
    assert warned(g, Draw(ANA)) == (ExtraIsAPlay(0, "double-dutch"),)
    assert g.state.actions == 1
    moves(g, Play(ANA, "basic-unicorn-blue", ANA))


def test_unicorn_poison_on_a_panda_is_warned():
    """Pandamonium (2nd Edition): while it is in Ben's Stable his Unicorns are Pandas, and Unicorn Poison's
    "Destroy a Unicorn card" cannot touch them: destroying one while its effect is done is warned."""
    g = table()
    bring(g, "basic-unicorn-red", into=BEN)
    moves(g, Play(ANA, "unicorn-poison"), Resolve())
    bring(g, "pandamonium", into=BEN)
    found = declined(g, Destroy(ANA, "basic-unicorn-red", BEN))
    assert NotAUnicornHere("basic-unicorn-red", 1, "pandamonium", "unicorn-poison", UnicornAction.DESTROY) in found


def llamas() -> Game:
    return table("llamas", ("llamas-farmed",))


def test_the_kids_are_alright_protects_the_babies_in_its_field():
    """The Kids Are Alright (Farmed and Dangerous): the Baby Animal cards in its Field cannot be sacrificed,
    destroyed or stolen. Each is warned, as Rainbow Aura warns for Unicorns."""
    g = llamas()
    baby = g.state.players[1].stable[0]
    bring(g, "the-kids-are-alright", into=BEN)
    guarded = Protected(baby, "the-kids-are-alright", 1)
    assert guarded in declined(g, Destroy(ANA, baby, BEN))
    assert guarded in declined(g, Steal(ANA, baby, BEN))
    assert guarded in declined(g, Sacrifice(BEN, baby))


def test_scratchy_wool_blanket_is_sacrificed_once_the_hand_is_empty():
    """Scratchy Wool Blanket (Llamas): "If your hand is empty, sacrifice this card": said when the table reports
    a hand of 0."""
    g = llamas()
    bring(g, "scratchy-wool-blanket")
    found = moves(g, SetHand(ANA, 0))
    assert CardMustGo(0, "scratchy-wool-blanket", empty_hand=True) in found


def test_static_charged_alpaca_makes_whoever_aims_at_it_discard():
    """Static-Charged Alpaca (Llamas): whenever another player aims an effect at it, that player must discard a
    card: Ana stealing it lays the duty in the chain; once it is hers, her moving it lays none."""
    g = llamas()
    bring(g, "static-charged-alpaca", into=BEN)
    found = moves(g, Steal(ANA, "static-charged-alpaca", BEN))
    duty = Trigger("static-charged-alpaca", 1, TriggerKind.DUTY)
    assert any(isinstance(f, LinkAdded) and duty in f.link for f in found)
    moves(g, Discard(ANA), Resolve())  # the duty done: a resolve without it is warned (issue 103)
    found = moves(g, Move(ANA, "static-charged-alpaca", ANA, BEN))
    links = [f.link for f in found if isinstance(f, LinkAdded)]
    assert not any(t.kind is TriggerKind.DUTY for link in links for t in link)


def test_un_herd_of_says_a_herd_bonus_does_not_affect_its_owner():
    """Un Herd Of (Farmed and Dangerous): its owner is not affected by the other players' Herd Bonuses; when Ana's
    Llama Herd Bonus is offered, the table hears that it does not affect Ben."""
    g = llamas()
    for _ in range(3):
        bring(g, "basic-llama")
    bring(g, "un-herd-of", into=BEN)
    found = moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert HerdBonusIgnored(1, "un-herd-of", "llama") in found


def test_black_knight_unicorn_is_offered_and_its_save_replaces_the_destroy():
    """Black Knight Unicorn (2nd Edition): when one of its owner's Unicorns is about to be destroyed, they may
    sacrifice it instead. Destroying Ben's Basic Unicorn asks; yes records the save in place of the destroy: the
    Basic stays, Black Knight goes to the discard pile."""
    s = talking.table()
    talking.bring(s, "black-knight-unicorn", into="Ben")
    talking.bring(s, "basic-unicorn-red", into="Ben")
    s.handle("play unicorn poison")
    talking.unwarned(s, "resolve")
    asked = s.handle("destroy basic red from Ben")
    assert talking.asks(asked) and talking.objections(s) == ()
    assert "Ben may save Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead" in asked.speech
    said = s.handle("yes")
    assert s.game.log[-1] == Save(1, "basic-unicorn-red", "black-knight-unicorn")
    assert "Ben saved Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead" in said.speech
    ben = s.game.state.players[1].stable
    assert "basic-unicorn-red" in ben and "black-knight-unicorn" not in ben
    assert s.game.state.discard[-1] == "black-knight-unicorn"


def test_a_save_declined_records_what_was_said():
    s = talking.table()
    talking.bring(s, "black-knight-unicorn", into="Ben")
    talking.bring(s, "basic-unicorn-red", into="Ben")
    assert talking.asks(s.handle("destroy basic red from Ben"))
    s.handle("no")
    assert s.game.log[-1] == Destroy(0, "basic-unicorn-red", 1)


def test_black_knight_saves_from_a_destroy_only_and_unicorn_phoenix_costs_a_discard():
    """Black Knight Unicorn saves from being destroyed, not sacrificed: a sacrifice is not offered. Unicorn Phoenix
    (2nd Edition) saves itself from either by a discard: its owner's known hand goes down by 1."""
    s = talking.table()
    talking.bring(s, "black-knight-unicorn", into="Ben")
    talking.bring(s, "basic-unicorn-red", into="Ben")
    assert not talking.asks(s.handle("Ben sacrifice basic red"))
    talking.bring(s, "unicorn-phoenix", into="Ben")
    talking.unwarned(s, "hand Ben 3")
    asked = s.handle("Ben sacrifice unicorn phoenix")
    assert talking.asks(asked) and "by discarding 1 card instead" in asked.speech
    s.handle("yes")
    assert "unicorn-phoenix" in s.game.state.players[1].stable and s.game.state.players[1].hand == 2


def test_a_save_its_card_does_not_give_is_warned():
    g = table()
    bring(g, "rainbow-aura", into=BEN)
    bring(g, "basic-unicorn-red", into=BEN)
    found = declined(g, Save(BEN, "basic-unicorn-red", "rainbow-aura"))
    assert CannotSave(1, "basic-unicorn-red", "rainbow-aura") in found


def test_unicorn_lasso_gives_nothing_back_on_the_turn_it_arrived():
    """Unicorn Lasso (1st Edition): its effect comes at the beginning of its owner's turn, so on the turn it arrived
    it took nothing and nothing goes back; on a turn that began with it and used it, the reminder is said."""
    g = table("uu-1st")
    bring(g, "unicorn-lasso")
    bring(g, "basic-unicorn-red", into=BEN)
    assert not any(isinstance(f, GoesBackNow) for f in moves(g, EndTurn()))
    moves(g, Draw(BEN), EndTurn())
    assert g.state.opened == ("unicorn-lasso",)
    moves(g, Move(ANA, "basic-unicorn-red", BEN, ANA), Resolve(), Draw(ANA))
    back = GoesBackNow("unicorn-lasso", 0, "basic-unicorn-red", BEN, ANA)
    assert back in warned_facts(g, EndTurn())  # warned first: it goes back before the turn ends (issue 103)


def warned_facts(g: Game, event: EndTurn) -> tuple[object, ...]:
    """An event the core objects to, recorded anyway; its facts."""
    assert g.check(event)
    return g.push(event).facts


def test_bring_from_the_discard_pile_may_name_the_source_before_the_player():
    """`bring ginormous unicorn from discard into Ana` is the same as `... into Ana from discard`."""
    s = talking.table()
    talking.bring(s, "ginormous-unicorn", into="Ben")
    s.handle("destroy ginormous unicorn from Ben")
    talking.unwarned(s, "bring ginormous unicorn from discard into Ana")
    assert s.game.log[-1] == Bring(0, "ginormous-unicorn", 0, Source.DISCARD)


def test_baby_with_a_player_and_no_baby_asks_which():
    """`baby Ana` names no Baby: the tracker asks for one, rather than looking for a card called Ana."""
    said = talking.table().handle("baby Ana").speech
    assert said == "Say which card, for example: baby Ana red."


def test_a_card_whose_name_begins_with_the_is_found_with_it():
    """`card the goat` reads The G.O.A.T. (Farmed and Dangerous), not Basic Goat; `card the yay` still reads Yay."""
    assert talking.table("llamas", ("llamas-farmed",)).handle("card the goat").speech.startswith("The G.O.A.T.,")
    assert talking.table().handle("card the yay").speech.startswith("Yay,")


def test_a_rule_left_to_the_table_is_said_when_its_card_arrives():
    """Nanny Cam (2nd Edition): a hand kept face up is nothing the tracker sees, so the rule is the table's; when
    the card enters a Stable the table hears it, with whose Stable."""
    s = talking.table()
    said = s.handle("bring nanny cam into Ben").speech
    assert TableKeeps("nanny-cam", 1) in talking.facts(s)
    assert "Nanny Cam in Ben's Stable, kept by the table: Your hand must lie face up" in said


def test_every_rule_the_table_keeps_is_tagged_and_listed():
    """Both ways over every print of every deck: a text with a rule the table keeps carries `table_keeps`, a card
    with the tag has such a rule, and each is named in the card-rules test's list with its reason."""
    prints = [card for deck_id in sorted(deck_files()) for card in every_print(deck_id)]
    kept = {card.id for card in prints if table_rule(card.text) is not None}
    tagged = {card.id for card in prints if card.has(Tag.TABLE_KEEPS)}
    assert kept == tagged == {"nanny-cam"}
    assert kept <= set(LEFT_TO_THE_TABLE)


def test_a_unicorn_whose_entering_effect_must_take_what_is_not_there_is_impossible():
    """Naked Narwhal (NSFW): as it enters, its owner must steal a Basic Unicorn from another player's Stable; with
    none there, playing it is impossible. Under Mid-Sex Charlie Horse its triggered effect would not happen, so
    nothing impossible is asked."""
    g = table("uu-nsfw")
    assert impossible(g, Play(ANA, "naked-narwhal", ANA)) == [Impossible(0, "naked-narwhal", Need.OTHERS_BASIC)]
    bring(g, "horse-with-a-dildo", into=BEN)
    assert not [o for o in g.check(Play(0, "naked-narwhal", 0)) if isinstance(o, Impossible)]
    g = table("uu-nsfw")
    bring(g, "mid-sex-charlie-horse")
    assert not [o for o in g.check(Play(0, "naked-narwhal", 0)) if isinstance(o, Impossible)]


@pytest.mark.parametrize(
    "base, addons, card_id",
    [
        # Llamabot-3000 (Llamas): "If you do, you skip your Draw phase"; Hex (Legends): "you must skip this turn's
        # Draw phase"; Pony Play (NSFW): "If you do, skip your Draw phase".
        ("llamas", (), "llamabot-3000"),
        ("uu-2nd", ("uu-legends",), "hex"),
        ("uu-nsfw", (), "pony-play"),
    ],
)
def test_a_card_that_skips_the_draw_phase_prompts_no_draw(base, addons, card_id):
    """Once the effect is done, the tracker prompts no draw (by its `skips_draw`): a draw
    is warned, and `skip` goes on to the Action phase."""
    g = rhinocorn_turn(base, addons, card_id)
    assert PhaseSkipped(0, card_id, Phase.DRAW) in moves(g, Resolve())
    assert g.table.prompt(g.state).kind is PromptKind.SKIP_DRAW
    assert declined(g, Draw(ANA)) == (PhaseIsSkipped(0, card_id, Phase.DRAW),)
    moves(g, NextPhase(skip=True))
    assert g.state.phase is Phase.ACTION


def test_the_first_edition_blinding_light_takes_every_effect_but_keeps_the_count():
    """Blinding Light (1st Edition, first print): none of the effects of the Unicorn cards in its Stable can be
    used, so Ginormous Unicorn's "you cannot play Instant cards" stops nothing; the Unicorns keep their type, so
    Ginormous still counts 2. Its second print stops only triggered effects and carries no such tag."""
    g = table("uu-1st")
    bring(g, "ginormous-unicorn", into=BEN)
    bring(g, "blinding-light", into=BEN)
    moves(g, Play(ANA, "yay", ANA), Respond(BEN, "neigh"))
    assert g.table.tally(g.state)[1] == 3  # the Baby and Ginormous as 2
    light = next(c for c in every_print("uu-1st") if c.id == "blinding-light" and "triggered" in c.text)
    assert not light.has(Tag.UNICORNS_EFFECTLESS)


def resolve_all(g: Game) -> None:
    """Every link of the chain done and resolved, none of them warned."""
    while g.state.chain:
        moves(g, Resolve())


def a_basic(g: Game) -> str:
    """A Basic Unicorn of the game's deck, by its id (which the command language also takes)."""
    return next(card.id for card in g.table.cards if card.type is CardType.BASIC)


@pytest.mark.parametrize(
    "base, addons, card_id",
    [
        # Special Delivery (Rainbow Apocalypse): "you may bring a Baby Unicorn from the Nursery straight into your
        # Stable. Should you do so, skip your Action phase."; #Studlife (Llamas): "Doing so means you skip your
        # Action phase."
        ("uu-2nd", ("uu-rainbow-apocalypse",), "special-delivery"),
        ("llamas", (), "studlife"),
    ],
)
def test_a_baby_brought_by_a_card_that_skips_the_action_phase_skips_it(base, addons, card_id):
    """Used (the Baby brought from the Nursery as the turn begins), the Action phase never begins: after the Draw
    phase the End of turn phase, never an Action prompt; a play is warned with its reason, and the table may
    still record it."""
    g = rhinocorn_turn(base, addons, card_id)
    baby = g.state.nursery[0]
    assert PhaseSkipped(0, card_id, Phase.ACTION) in moves(g, Bring(ANA, baby, ANA, Source.NURSERY))
    resolve_all(g)
    assert g.table.prompt(g.state).kind is PromptKind.DRAW
    moves(g, Draw(ANA))
    assert g.state.phase is Phase.END
    assert g.table.prompt(g.state).kind is PromptKind.NEXT_TURN
    assert warned(g, Play(ANA, a_basic(g), ANA)) == (PhaseIsSkipped(0, card_id, Phase.ACTION),)
    assert g.state.pile and g.state.pile[0].card == a_basic(g)  # recorded anyway, as the table said


def test_a_play_in_a_skipped_action_phase_is_asked_with_its_reason():
    s = rhinocorn_talk("uu-2nd", ("uu-rainbow-apocalypse",), "special-delivery")
    talking.unwarned(s, f"bring {s.game.state.nursery[0]} into Ana from nursery")
    while s.game.state.chain:
        talking.unwarned(s, "resolve")
    talking.unwarned(s, "draw")
    said = s.handle(f"play {a_basic(s.game)}")
    assert talking.asks(said) and "skipped Ana's Action phase" in said.speech and "Record anyway?" in said.speech
    s.handle("yes")
    assert s.game.state.pile and s.game.state.pile[0].card == a_basic(s.game)


@pytest.mark.parametrize(
    "base, addons, card_id",
    [("uu-2nd", ("uu-rainbow-apocalypse",), "special-delivery"), ("llamas", (), "studlife")],
)
def test_a_card_that_skips_the_action_phase_let_go_keeps_it(base, addons, card_id):
    """Not used (a draw lets the optional effect go, no Baby brought), the Action phase comes as usual."""
    g = rhinocorn_turn(base, addons, card_id)
    moves(g, Draw(ANA))
    assert g.state.phase is Phase.ACTION and g.state.skipped == ()
    moves(g, Play(ANA, a_basic(g), ANA))


def test_sticky_situation_gives_up_the_phase_said_while_its_effect_waits():
    """Sticky Situation (NSFW): "you must give up one phase of this turn, your Draw phase or your Action phase,
    whichever you choose". `skip action` while its effect waits: after the draw, the End of turn phase."""
    g = rhinocorn_turn("uu-nsfw", (), "sticky-situation")
    assert PhaseSkipped(0, "sticky-situation", Phase.ACTION) in moves(g, SkipPhase(Phase.ACTION))
    resolve_all(g)
    assert g.table.prompt(g.state).kind is PromptKind.DRAW
    moves(g, Draw(ANA))
    assert g.state.phase is Phase.END
    assert declined(g, Play(ANA, a_basic(g), ANA)) == (PhaseIsSkipped(0, "sticky-situation", Phase.ACTION),)


def test_sticky_situation_asks_which_phase_and_skip_draw_goes_on_to_the_action_phase():
    """Its effect resolved with no phase said, the tracker asks which one; `skip draw` gives up the Draw phase: the
    Action phase begins at once, a play there is no play before the draw, and a draw is warned."""
    s = rhinocorn_talk("uu-nsfw", (), "sticky-situation")
    s.handle("verbosity coaching")
    said = s.handle("resolve")
    assert "Which phase does Ana give up this turn, the Draw or the Action phase?" in said.speech
    assert "say skip draw or skip action" in said.speech.lower() and "say draw." not in said.speech
    assert s.game.table.prompt(s.game.state).kind is PromptKind.GIVE_UP
    assert PhaseSkipped(0, "sticky-situation", Phase.DRAW) in talking.unwarned(s, "skip draw")
    assert s.game.state.phase is Phase.ACTION
    talking.unwarned(s, f"play {a_basic(s.game)}")


def test_sticky_situation_with_the_draw_taken_gives_up_the_action_phase():
    """Asked which phase, a Draw phase draw keeps the Draw phase, so the Action phase is the one given up."""
    g = rhinocorn_turn("uu-nsfw", (), "sticky-situation")
    moves(g, Resolve())
    assert PhaseSkipped(0, "sticky-situation", Phase.ACTION) in moves(g, Draw(ANA))
    assert g.state.phase is Phase.END


def test_skip_says_which_phase_or_none():
    """`skip` alone skips the current phase as before; `skip` with another word says what it takes."""
    s = rhinocorn_talk("uu-nsfw", (), "sticky-situation")
    said = s.handle("skip lunch")
    assert said.speech.startswith("Say skip alone for the current phase") and s.game.state.skipped == ()
