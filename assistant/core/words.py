"""Every sentence the app says or prints, made from cards, events and state.

Pure functions only, so the plain mode, the Textual screen and the speech say the same words, and the wording
is tested as data. Sentences are short and free of symbols a speech engine would mangle.
"""

from __future__ import annotations

import re

from assistant.core import brailletable
from assistant.core.cards import Card, CardSet, CardType, Deck, DeckInfo, Vocabulary
from assistant.core.lookup import Resolution
from assistant.core.search import search_words

#: The longest untrusted text (a QR payload, a typed line) shown or spoken, in characters.
MAX_UNTRUSTED = 300

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_untrusted(text: str, limit: int = MAX_UNTRUSTED) -> str:
    """Make untrusted text safe to show and speak: no terminal escapes or control characters, capped length.

    Markup is not touched here: the UI shows every text literally (markup off), so "[b]" stays "[b]".
    """
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub(" ", text.replace("\r\n", "\n"))
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"  # an ellipsis is spoken as a pause, not read out
    return text


def type_name(card_type: CardType, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The spoken name of a card type: "Baby Unicorn", "Magical Animal", "Magic card", "Instant card"."""
    creature = vocabulary.creature
    return {
        CardType.BABY: f"Baby {creature}",
        CardType.BASIC: f"Basic {creature}",
        CardType.MAGICAL: f"Magical {creature}",
        CardType.UPGRADE: "Upgrade card",
        CardType.DOWNGRADE: "Downgrade card",
        CardType.MAGIC: "Magic card",
        CardType.INSTANT: "Instant card",
    }[card_type]


def card_title(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """ "Rainbow Aura, Upgrade card." """
    return f"{card.name}, {type_name(card.type, vocabulary)}."


def describe_card(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The full spoken description of a card: name, type, then its text."""
    return f"{card_title(card, vocabulary)} {card.text}"


def card_lines(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> list[str]:
    """A card as screen lines, one fact per line (for braille displays)."""
    lines = [card.name, f"Type: {type_name(card.type, vocabulary)}", f"Copies in the deck: {card.copies}"]
    if card.variation:
        lines.append(f"Variation: {card.variation.replace('+', ' and ')}")
    lines.append(card.text)
    return lines


def numbered_choices(cards: list[Card]) -> str:
    """ "2 matches: 1 Rainbow Aura, 2 Rainbow Unicorn." """
    count = len(cards)
    items = ", ".join(f"{n} {card.name}" for n, card in enumerate(cards, start=1))
    return f"{count} {'match' if count == 1 else 'matches'}: {items}."


def describe_resolution(resolution: Resolution, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """What to say after a lookup: the card, the choices, or that nothing matched."""
    if resolution.match is not None:
        return describe_card(resolution.match, vocabulary)
    problem = query_problem(resolution.query)
    if problem:
        return problem
    query = spoken_query(resolution.query)
    if resolution.candidates:
        choices = numbered_choices([c.card for c in resolution.candidates])
        return f"No card called {query}. {choices} Type a number to choose."
    return f"No card called {query}, and nothing close. Check the spelling or try the abbreviation."


def describe_deck(deck: Deck) -> str:
    """One line about a deck: title, size and completeness."""
    info = deck.info
    unique = len(deck.cards)
    sentence = f"{info.title}: {unique} cards, {deck.total_copies} copies."
    if not info.complete:
        sentence += " This card list is incomplete."
    return sentence


def import_hint(deck: Deck) -> str:
    """How to complete an incomplete deck."""
    return (
        f"Only {len(deck.cards)} cards are known. Import the reference sheet that came with your deck with: "
        f"table-assistant deck import FILE --base {deck.id}."
    )


def deck_chosen(cards: CardSet) -> str:
    """Said when the app starts on a card set: the decks, what an imported sheet changed, what is missing."""
    base = cards.base
    sentence = f"Deck: {base.info.title}."
    addons = [d.info.title for d in cards.decks[1:] if d.info.kind != "import"]
    if addons:
        sentence += f" With {name_list(addons)}."
    imported = sum(len(d.cards) for d in cards.decks if d.info.kind == "import")
    if imported:
        sentence += f" {cards_count(imported)} from your reference sheet."
    elif not base.info.complete:
        sentence += f" This card list is incomplete. {import_hint(base)}"
    return sentence


def cannot_add_to(addon: DeckInfo, base: DeckInfo) -> str:
    """An add-on chosen for a base deck it does not go with."""
    if addon.kind != "expansion":
        return f"{addon.title} is not an expansion, so it cannot be added to a deck."
    return f"{addon.title} cannot be added to {base.title}."


#: The most search results read out; the rest are counted.
SEARCH_READ_OUT = 10


def search_results(query: str, found: list[Card]) -> str:
    """The cards a search found, numbered so that a digit reads one."""
    words_said = " ".join(search_words(query)) or "that"
    if not found:
        return f"No card mentions {words_said}."
    shown = found[:SEARCH_READ_OUT]
    items = ", ".join(f"{n} {card.name}" for n, card in enumerate(shown, start=1))
    count = f"{cards_count(len(found))} mention" if len(found) > 1 else "1 card mentions"
    first = f" The first {len(shown)}:" if len(found) > len(shown) else ""
    return f"{count} {words_said}.{first} {items}. Type a number to hear one."


SEARCH_NOTHING = "Say what to search for, for example: search destroy, or search hand limit."


def import_written(deck_title: str, matched: int, added: int, problems: int, path: str) -> str:
    """The outcome of importing a reference sheet."""
    sentence = f"Imported {cards_count(matched + added)} for {deck_title}: {matched} replace the shipped texts"
    sentence += f", {added} {'is' if added == 1 else 'are'} new." if added else "."
    if problems:
        sentence += f" {problems} {'line needs' if problems == 1 else 'lines need'} a look, listed below."
    return f"{sentence} Saved as {path}."


def import_bad_id(deck_id: str) -> str:
    """An import id that is not a slug or is a shipped deck's."""
    return (
        f"{deck_id} cannot be the imported deck's id: use lower-case letters, digits and dashes, "
        "and not the id of a shipped deck."
    )


def sheet_unreadable(path: str, exc: Exception) -> str:
    """The sheet file cannot be read."""
    return f"The sheet {clean_untrusted(path)} cannot be read: {clean_untrusted(str(exc))}."


def import_failed(problems: int) -> str:
    """Nothing in the sheet could be imported."""
    return f"Nothing was imported: no line of the sheet could be used ({problems} listed below)."


NO_CHOICE_PENDING = "There is no list to choose from. Type a card name first."


def choice_out_of_range(number: int, count: int) -> str:
    """Said when a digit does not pick one of the candidates read out."""
    return f"There is no choice {number}. Choose 1 to {count}."


HELP_LINES = (
    "Type a card name, part of a name, or its braille abbreviation, then Enter: its full text is shown and spoken.",
    "When several cards match, they are read with numbers: type the number to choose.",
    "search WORDS: the cards that mention the words, for example search destroy.",
    "Type help to hear this again.",
)
HELP_SPOKEN = " ".join(HELP_LINES)

NO_TERMINAL = (
    "The app needs a terminal. To use it line by line, from a script or a screen reader, run: table-assistant --plain"
)


# Braille look-up and six-key entry (assistant/braille, assistant/core/sixkey.py)

#: Longer queries are refused with a message: no card name comes close to this length.
MAX_QUERY = 100
NOTHING_TYPED = "Nothing typed. Type a card name or its braille abbreviation."
NO_LETTERS = "That had no letters, digits or braille cells in it. Type a card name or its braille abbreviation."
LIBLOUIS_MISSING = (
    "Contracted braille needs liblouis, which is not installed. Uncontracted braille and letters still work."
)
SIXKEY_SPACE = "space"
SIXKEY_DOTS_CLEARED = "dots cleared"
SIXKEY_NOTHING_TO_DELETE = "nothing to delete"
SIXKEY_CHORD_ON = "Six-key entry: F D S J K L are dots 1 to 6, pressed together for each cell."
SIXKEY_SPACE_ON = "Six-key entry: press the dots of a cell with F D S J K L, then Space."
SIXKEY_OFF = "Six-key entry off: keys type letters again."


def query_too_long(length: int) -> str:
    """Said when a query is far longer than any card name."""
    return f"That is {length} characters, too long for a card name. Type a card name or its braille abbreviation."


def query_problem(query: str) -> str:
    """The message for a query that cannot be looked up at all, or an empty string when it can."""
    stripped = query.replace(brailletable.BLANK, " ").strip()  # the blank braille cell is a space
    if not stripped:
        return NOTHING_TYPED
    if len(stripped) > MAX_QUERY:
        return query_too_long(len(stripped))
    text = clean_untrusted(stripped, MAX_QUERY)
    if not any(ch.isalnum() or brailletable.has_cells(ch) for ch in text):
        return NO_LETTERS
    return ""


def spoken_query(query: str) -> str:
    """How to name a query in a sentence: as typed, or for braille cells, how they read in uncontracted braille."""
    if not brailletable.has_cells(query):
        return clean_untrusted(query, 60)
    reading = clean_untrusted(brailletable.from_cells(query), 60)
    if brailletable.has_cells(reading) or not reading.strip():
        return "that braille"  # cells with no uncontracted reading: spelling braille patterns aloud helps no one
    return f"{reading}, typed in braille"


def cell_echo(cell: str) -> str:
    """What to say when a six-key cell is finished: its letter, a sign's name, or its dots."""
    letter = brailletable.letter_of(cell)
    if letter:
        return letter
    names = {
        brailletable.NUMBER_SIGN: "number sign",
        brailletable.CAPITAL_SIGN: "capital sign",
        brailletable.GRADE1_SIGN: "grade 1 sign",
        " ": "space",
    }
    if cell in names:
        return names[cell]
    return "dots " + " ".join(str(dot) for dot in brailletable.dots_of(cell))


def cell_deleted(cell: str) -> str:
    """What to say when Backspace removes a cell."""
    return f"{cell_echo(cell)} deleted"


def braille_map_damaged(title: str) -> str:
    """Said once when a deck's abbreviation file cannot be used."""
    return f"The braille abbreviations of {title} are damaged, so abbreviations made by the rule are used instead."


def braille_labels_written(count: int, path: str, kind: str) -> str:
    """Printed after writing braille labels."""
    return f"Wrote {count} braille labels to {path} ({kind})."


# The game tracker (assistant/core/game.py, chain.py, tally.py, commands.py, tracker.py). Every sentence about a
# game is made here from events, facts and state, in the rule profile's words (Stable or Field, Unicorn or Animal).

from assistant.core import events as ev  # noqa: E402  (the game section keeps its imports with it)
from assistant.core import game as gm  # noqa: E402
from assistant.core.chain import Link, PileCard, Trigger, TriggerKind  # noqa: E402
from assistant.core.tally import Ending, name_letters  # noqa: E402

NO_GAME = (
    "No game is being tracked. Start one with: new game, then the players' names, for example new game Ana Ben Cy."
)
NOTHING_TO_CONFIRM = "There is nothing to confirm."
NOT_RECORDED = "Not recorded."
NOTHING_TO_UNDO = "There is nothing to undo."
NOTHING_TO_REDO = "There is nothing to redo."
NOTHING_TO_ANSWER = (
    "No card is being played, so there is nothing to answer. A card brought directly into a Stable cannot be Neighed."
)
NO_SAVED_GAME = "There is no saved game to continue."
CONFIRM_QUESTION = "Record it anyway? Say yes or no."
GAME_HELP_LINES = (
    "new game Ana Ben Cy: start a game; add first Ben, rules uu-five, win 6, two player, babies red pink blue, hands.",
    "baby Ana red: a Baby from the Nursery into Ana's Stable.",
    "play rainbow aura, play slowdown into Ben: play a card; then neigh Ben, super neigh Cy, or resolve.",
    "draw, draw 2, discard, discard neigh, bring CARD, steal CARD from Ben, destroy CARD, sacrifice CARD.",
    "return CARD, take CARD from deck or discard, swap CARD with CARD, swap hands Ana Ben, move CARD to Ben.",
    "next: the next phase, or the next thing to resolve. resolve: the top of the pile or the next link. end turn.",
    "turn, tally, stable Ana, pile, chain, hands, deck, discards, nursery, log, rules, card NAME.",
    "hand Ana 5, deck 40, deck empty, reshuffle, win 6. undo, undo 3, redo. yes or no after a warning.",
)


def player_name(table: gm.Table, seat: int) -> str:
    """A player's name."""
    return table.setup.players[seat]


def game_card_name(table: gm.Table, card_id: str | None) -> str:
    """A card's printed name, or "a card" when the table did not name it."""
    if card_id is None:
        return "a card"
    card = table.cards.get(card_id)
    return card.name if card is not None else card_id


def area_of(table: gm.Table, seat: int) -> str:
    """ "Ana's Stable" or "Ana's Field"."""
    return f"{player_name(table, seat)}'s {table.profile.vocabulary.area}"


def creatures(table: gm.Table, count: int) -> str:
    """ "1 Unicorn", "3 Unicorns", "2 Animals"."""
    word = table.profile.vocabulary.creature
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def cards_count(count: int) -> str:
    """ "1 card", "3 cards"."""
    return "1 card" if count == 1 else f"{count} cards"


def name_list(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


PHASE_NAMES = {
    ev.Phase.BEGINNING: "Beginning of turn phase",
    ev.Phase.DRAW: "Draw phase",
    ev.Phase.ACTION: "Action phase",
    ev.Phase.END: "End of turn phase",
}
SOURCE_NAMES = {
    ev.Source.HAND: "hand",
    ev.Source.DECK: "the deck",
    ev.Source.DISCARD: "the discard pile",
    ev.Source.NURSERY: "the Nursery",
}


def describe_event(table: gm.Table, event: ev.Event, before: gm.GameState) -> str:
    """What an event did, in the past tense, without a full stop: "Ana played Rainbow Aura"."""
    name = lambda seat: player_name(table, seat)  # noqa: E731
    card = lambda card_id: game_card_name(table, card_id)  # noqa: E731
    if isinstance(event, ev.Play):
        into = "" if event.into in (None, event.player) else f" into {area_of(table, event.into)}"
        return f"{name(event.player)} played {card(event.card)}{into}"
    if isinstance(event, ev.Respond):
        return f"{name(event.player)} played {card(event.card)}"
    if isinstance(event, ev.Resolve):
        if before.pile:
            top = before.pile[-1]
            return f"{card(top.card)} by {name(top.player)} resolved"
        if before.chain:
            return f"{link_names(table, before.chain[0])} resolved"
        return "Nothing resolved"
    if isinstance(event, ev.Bring):
        source = "" if event.source is ev.Source.HAND else f" from {SOURCE_NAMES[event.source]}"
        return f"{name(event.player)} brought {card(event.card)} into {area_of(table, event.into)}{source}"
    if isinstance(event, ev.Steal):
        return f"{name(event.player)} stole {card(event.card)} from {area_of(table, event.owner)}"
    if isinstance(event, ev.Destroy):
        return f"{name(event.player)} destroyed {card(event.card)} in {area_of(table, event.owner)}"
    if isinstance(event, ev.Sacrifice):
        return f"{name(event.player)} sacrificed {card(event.card)}"
    if isinstance(event, ev.Discard):
        return f"{name(event.player)} discarded {card(event.card)}"
    if isinstance(event, ev.ReturnToHand):
        return f"{card(event.card)} went from {area_of(table, event.owner)} back to {name(event.owner)}'s hand"
    if isinstance(event, ev.Draw):
        return f"{name(event.player)} drew {'a card' if event.count == 1 else cards_count(event.count)}"
    if isinstance(event, ev.Take):
        return f"{name(event.player)} took {card(event.card)} from {SOURCE_NAMES[event.source]} and showed it"
    if isinstance(event, ev.Swap):
        return (
            f"{card(event.card)} in {area_of(table, event.owner)} and {card(event.other_card)} in "
            f"{area_of(table, event.other_owner)} changed places"
        )
    if isinstance(event, ev.SwapHands):
        return f"{name(event.player)} and {name(event.other)} swapped hands"
    if isinstance(event, ev.Move):
        return f"{card(event.card)} moved from {area_of(table, event.owner)} to {area_of(table, event.into)}"
    if isinstance(event, ev.ToNursery):
        return f"{card(event.card)} went from {area_of(table, event.owner)} back to the Nursery"
    if isinstance(event, ev.NextPhase):
        skipped = "skipped" if event.skip else "ended"
        return f"{name(before.current)}'s {PHASE_NAMES[before.phase]} {skipped}"
    if isinstance(event, ev.EndTurn):
        to = "" if event.to is None else f", and {name(event.to)} takes the next turn"
        return f"{name(before.current)}'s turn ended{to}"
    if isinstance(event, ev.SetHand):
        return f"{name(event.player)} holds {cards_count(event.count)}"
    if isinstance(event, ev.SetDeck):
        return f"The deck holds {cards_count(event.count)}"
    if isinstance(event, ev.DeckEmpty):
        return "The deck ran out"
    if isinstance(event, ev.Reshuffle):
        return "The discard pile was shuffled into a new deck"
    if isinstance(event, ev.SetGoal):
        return f"{creatures(table, event.count)} now win"
    return type(event).__name__  # pragma: no cover - every event kind is described above


def describe_trigger(table: gm.Table, trigger: Trigger) -> str:
    """One effect in the chain: "Claw Machine, may do", "Rainbow Unicorn entering Ana's Stable"."""
    card = game_card_name(table, trigger.card)
    if trigger.kind is TriggerKind.BEGIN:
        return f"{card}, must do"
    if trigger.kind is TriggerKind.BEGIN_OPTIONAL:
        return f"{card}, may do"
    if trigger.kind is TriggerKind.HERD:
        return f"the {trigger.card.capitalize()} Herd Bonus, may do"
    if trigger.kind is TriggerKind.ENTER:
        return f"{card} entering {area_of(table, trigger.owner)}"
    if trigger.kind is TriggerKind.LEAVE:
        return f"{card} leaving {area_of(table, trigger.owner)}"
    return f"the effect of {card}, played by {player_name(table, trigger.owner)}"


def describe_link(table: gm.Table, link: Link) -> str:
    """A link of the chain: its effects, joined."""
    return name_list([describe_trigger(table, t) for t in link])


def link_names(table: gm.Table, link: Link) -> str:
    """A link by its cards' names alone: "Sadistic Ritual and Claw Machine"."""
    names = [
        f"the {t.card.capitalize()} Herd Bonus" if t.kind is TriggerKind.HERD else game_card_name(table, t.card)
        for t in link
    ]
    return name_list(list(dict.fromkeys(names)))


def _pile_card(table: gm.Table, card: PileCard) -> str:
    return f"{player_name(table, card.player)}'s {game_card_name(table, card.card)}"


def describe_fact(table: gm.Table, fact: gm.Fact, state: gm.GameState) -> str:
    """One sentence for one fact, or "" when the event's own sentence already says it."""
    if isinstance(fact, gm.PileStopped):
        stopper = _pile_card(table, fact.stopper)
        stopped = _pile_card(table, fact.stopped)
        if fact.played:
            return f"{stopper} resolves: {stopped} is Neighed and goes to the discard pile."
        return f"{stopper} resolves and stops {stopped}. Both go to the discard pile."
    if isinstance(fact, gm.PileOpenAgain):
        return f"The pile is open again: {_pile_card(table, fact.top)} is on top."
    if isinstance(fact, gm.InstantResolved):
        return f"{_pile_card(table, fact.card)} resolves."
    if isinstance(fact, gm.PlayResolved):
        played = fact.card
        card = table.cards.get(played.card)
        name = game_card_name(table, played.card)
        if played.into is not None:
            return f"{name} is played: it enters {area_of(table, played.into)}."
        if card is not None and card.type is CardType.MAGIC:
            return f"{name} is played: it takes effect, then goes to the discard pile."
        return f"{name} is played and goes to the discard pile."
    if isinstance(fact, gm.BabyToNursery):
        return f"{game_card_name(table, fact.card)} goes back to the Nursery, as Babies always do."
    if isinstance(fact, gm.LinkAdded):
        if fact.position == 1:
            return f"Effect chain: {describe_link(table, fact.link)}."
        return f"Added to the chain, in place {fact.position}: {describe_link(table, fact.link)}."
    if isinstance(fact, gm.LinkResolved):
        return "The chain is resolved." if fact.next is None else ""
    if isinstance(fact, gm.TriggersLost):
        lost = name_list([game_card_name(table, t.card) if t.kind is not TriggerKind.HERD
                          else f"the {t.card.capitalize()} Herd Bonus" for t in fact.triggers])  # fmt: skip
        return f"Optional effects not used are lost for this turn: {lost}."
    if isinstance(fact, gm.MandatoryRemain):
        must = name_list([game_card_name(table, t.card) for t in fact.triggers])
        return f"Mandatory, so still to do: {must}."
    if isinstance(fact, gm.TurnBegan):
        return f"Turn {fact.turn}: {player_name(table, fact.player)}'s turn."
    if isinstance(fact, gm.PhaseBegan):
        return f"{PHASE_NAMES[fact.phase]}."
    if isinstance(fact, gm.OverHandLimit):
        excess = fact.hand - fact.limit
        return (
            f"{player_name(table, fact.player)} holds {cards_count(fact.hand)}, over the hand limit of {fact.limit}: "
            f"discard {excess}."
        )
    if isinstance(fact, gm.DeckRanOut):
        return "The deck is empty."
    if isinstance(fact, gm.Reshuffled):
        return f"Shuffle the discard pile to make a new deck: {cards_count(fact.count)}."
    if isinstance(fact, gm.TallyChanged):
        changed = [seat for seat, (a, b) in enumerate(zip(fact.before, fact.after)) if a != b]
        return " ".join(f"{player_name(table, seat)} has {creatures(table, fact.after[seat])}." for seat in changed)
    if isinstance(fact, gm.WinWaits):
        waiting = "pile and chain are" if state.pile and state.chain else "pile is" if state.pile else "chain is"
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)}, enough to win once the "
            f"{waiting} resolved."
        )
    if isinstance(fact, gm.GameOver):
        return describe_outcome(table, fact.outcome, state)
    return ""


def describe_outcome(table: gm.Table, outcome, state: gm.GameState) -> str:
    """The end of the game."""
    counts = table.tally(state)
    if outcome.ending is Ending.GOAL:
        winner = outcome.winner
        return f"{player_name(table, winner)} wins with {creatures(table, counts[winner])}! The game is over."
    if outcome.ending is Ending.NO_WINNER:
        return "The deck ran out and by these rules nobody wins. The game is over."
    tied = name_list([player_name(table, seat) for seat in outcome.tied])
    most = creatures(table, max(counts))
    if outcome.ending is Ending.MOST:
        return f"The deck ran out. {player_name(table, outcome.winner)} wins with the most, {most}. The game is over."
    letters = {seat: name_letters(state.stables[seat], table.cards) for seat in outcome.tied}
    if outcome.ending is Ending.LETTERS:
        spread = ", ".join(f"{player_name(table, s)} {letters[s]}" for s in outcome.tied)
        return (
            f"The deck ran out. {tied} tie with {most}. Letters in the names of their "
            f"{table.profile.vocabulary.creature} cards: {spread}. {player_name(table, outcome.winner)} wins. "
            "The game is over."
        )
    return (
        f"The deck ran out. {tied} tie with {most} and with {letters[outcome.tied[0]]} letters in their names: "
        "everyone loses. The game is over."
    )


def describe_objection(table: gm.Table, objection: gm.Objection) -> str:
    """Why an event looks against the rules, in one sentence."""
    o = objection
    rule = gm.Rule
    name = lambda seat: player_name(table, seat)  # noqa: E731
    card = game_card_name(table, o.card) if o.card else ""
    other = game_card_name(table, o.other) if o.other else ""
    sentences = {
        rule.GAME_OVER: lambda: "The game is over.",
        rule.NOT_YOUR_TURN: lambda: f"It is {name(o.owner)}'s turn, not {name(o.player)}'s.",
        rule.NOT_DRAWN: lambda: f"{name(o.player)} has not drawn in the Draw phase yet.",
        rule.ACTION_USED: lambda: f"{name(o.player)} has already played a card or drawn in this Action phase.",
        rule.ACTION_OVER: lambda: f"{name(o.player)}'s Action phase is over.",
        rule.CHAIN_OPEN: lambda: "Effects in the chain must resolve first: say resolve when each is done.",
        rule.INSTANT_NOT_PLAYED: lambda: f"{card} is an Instant card: it answers another player's card.",
        rule.BABY_NOT_IN_HAND: lambda: (
            f"{card} is a Baby: Babies only enter a {table.profile.vocabulary.area} from the Nursery and are never "
            "in a hand, the deck or the discard pile."
        ),
        rule.NOT_A_BABY: lambda: f"{card} is not a Baby.",
        rule.NOT_FOR_STABLE: lambda: f"{card} does not go into a {table.profile.vocabulary.area}.",
        rule.REMOVED_CARD: lambda: f"{card} was taken out of the deck for the 2-player game.",
        rule.NO_COPIES_LEFT: lambda: (
            f"The deck has {'only 1 copy' if o.number == 1 else f'{o.number} copies'} of {card}, "
            "and the tracker already sees them all."
        ),
        rule.EMPTY_HAND: lambda: f"{name(o.player)} has no cards in hand.",
        rule.NOTHING_TO_ANSWER: lambda: NOTHING_TO_ANSWER,
        rule.NOT_INSTANT: lambda: f"{card} is not an Instant card.",
        rule.CANNOT_BE_ANSWERED: lambda: f"{card} cannot be answered.",
        rule.OWN_CARD: lambda: f"The top card, {card}, is {name(o.player)}'s own: Instants answer another player.",
        rule.CANNOT_NEIGH: lambda: (
            f"{name(o.player)} cannot play Neigh cards while {other} is in {area_of(table, o.player)}."
        ),
        rule.CANNOT_BE_NEIGHED: lambda: (
            f"{name(o.player)}'s cards cannot be Neighed while {other} is in {area_of(table, o.player)}."
        ),
        rule.NOT_IN_STABLE: lambda: f"{card} is not in {area_of(table, o.owner)}.",
        rule.STEAL_OWN: lambda: f"Stealing takes a card from another player's {table.profile.vocabulary.area}.",
        rule.DESTROY_OWN: lambda: (
            f"Destroying is for another player's {table.profile.vocabulary.area}; from your own it is a sacrifice."
        ),
        rule.PROTECTED: lambda: f"{area_of(table, o.owner)} holds {other}, which protects cards there.",
        rule.NOT_IN_DISCARD: lambda: f"{card} is not in the discard pile.",
        rule.NOT_IN_NURSERY: lambda: f"{card} is not in the Nursery.",
        rule.DECK_EMPTY: lambda: f"The deck has only {cards_count(o.number)}." if o.number else "The deck is empty.",
        rule.HAND_OVER_LIMIT: lambda: (
            f"{name(o.player)} holds {cards_count(o.number)}, over the hand limit of {o.limit}: "
            f"discard {o.number - o.limit} first."
        ),
        rule.NO_RESHUFFLE: lambda: "These rules do not shuffle the discard pile into a new deck.",
        rule.NOTHING_TO_RESOLVE: lambda: "Nothing is waiting to resolve.",
    }
    return sentences[o.rule]()


def confirm_question(table: gm.Table, objections) -> str:
    """Asked before recording an event that looks against the rules."""
    reasons = " ".join(describe_objection(table, o) for o in objections)
    return f"That looks against the rules. {reasons} {CONFIRM_QUESTION}"


def describe_prompt(table: gm.Table, state: gm.GameState) -> str:
    """What the table may do now: answer the pile, resolve the chain, or the phase's choices."""
    if state.outcome is not None:
        return "Say undo to go back, or new game to play again."
    current = player_name(table, state.current)
    if state.pile:
        top = state.pile[-1]
        card = table.cards.get(top.card)
        if card is not None and (card.has("super_neigh") or card.has("cannot_be_neighed")):
            return f"{game_card_name(table, top.card)} cannot be answered: say resolve."
        neigh = game_card_name(table, table.neigh_card) if table.neigh_card else "Instant"
        return f"Any {neigh} for {_pile_card(table, top)}? Say {neigh.lower()} and a name, or resolve."
    if state.chain:
        link = state.chain[0]
        if all(t.kind.is_optional_at_beginning for t in link):
            return "Use them and say resolve, or say draw to let them go."
        if all(t.kind in _BEGIN_KINDS for t in link):
            return "Do them, then say resolve."
        return f"Next in the chain: {describe_link(table, link)}. Do it, then say resolve."
    if state.phase is ev.Phase.BEGINNING:
        return f"{current} draws a card: say draw."
    if state.phase is ev.Phase.DRAW:
        return f"{current} draws a card: say draw."
    if state.phase is ev.Phase.ACTION:
        if state.actions >= table.allowed_actions(state):
            return "Say end turn when the turn is over."
        return f"{current} plays a card or draws one more: say play and a card, or draw. Then end turn."
    limit = table.hand_limit(state, state.current)
    hand = state.players[state.current].hand
    unknown = name_list([game_card_name(table, c) for c in limit.unknown])
    extra = f" {unknown} changes the hand limit: check the card." if limit.unknown else ""
    if hand is not None and hand > limit.limit:
        excess = hand - limit.limit
        return f"{current} discards {excess}, down to the hand limit of {limit.limit}.{extra} Then say next."
    return f"The hand limit is {limit.limit}.{extra} Say next for the next turn."


_BEGIN_KINDS = (TriggerKind.BEGIN, TriggerKind.BEGIN_OPTIONAL, TriggerKind.HERD)


def describe_begin_effects(table: gm.Table, link: Link) -> str:
    """The beginning-of-turn effects, mandatory ones first."""
    must = [game_card_name(table, t.card) for t in link if t.kind is TriggerKind.BEGIN]
    may = [game_card_name(table, t.card) for t in link if t.kind is TriggerKind.BEGIN_OPTIONAL]
    herd = [t.card for t in link if t.kind is TriggerKind.HERD]
    parts = []
    if must:
        parts.append(f"must do {name_list(must)}")
    if may:
        parts.append(f"may do {name_list(may)}, lost once the Draw phase begins")
    sentence = f"Beginning of turn effects: {'; '.join(parts)}." if parts else ""
    known = dict(table.cards.base.info.herd_bonus)  # what the deck file knows of each bonus
    for variation in herd:
        kind = variation.capitalize()
        sentence += f" Herd Bonus: {table.profile.herd_bonus} or more {kind}s, so the {kind} Herd Bonus may be used."
        if known.get(variation):
            sentence += f" It does this: {known[variation]}"
    return sentence.strip()


def announce_step(table: gm.Table, step: gm.Step) -> list[str]:
    """Everything to say after an event was recorded: the event, what followed, and what the table may do now."""
    lines: list[str] = []
    if not isinstance(step.event, (ev.Resolve, ev.NextPhase, ev.EndTurn)):
        lines.append(describe_event(table, step.event, step.before) + ".")
    phases = [f for f in step.facts if isinstance(f, gm.PhaseBegan)]
    for fact in step.facts:
        if isinstance(fact, gm.PhaseBegan) and fact is not phases[-1]:
            continue  # "draw" at the start of a turn passes the Draw phase: say only where the turn is now
        if isinstance(fact, gm.LinkAdded) and any(t.kind in _BEGIN_KINDS for t in fact.link):
            sentence = describe_begin_effects(table, fact.link)
        elif (
            isinstance(fact, gm.PhaseBegan)
            and fact.phase is ev.Phase.END
            and any(isinstance(f, gm.OverHandLimit) for f in step.facts)
        ):
            sentence = f"{PHASE_NAMES[fact.phase]}."
        else:
            sentence = describe_fact(table, fact, step.after)
        if sentence:
            lines.append(sentence)
    if isinstance(step.event, ev.Resolve) and not any(
        isinstance(f, (gm.PlayResolved, gm.PileStopped, gm.InstantResolved, gm.LinkResolved)) for f in step.facts
    ):
        lines.append("Nothing was waiting to resolve.")
    if isinstance(step.event, ev.Resolve) and any(isinstance(f, gm.LinkResolved) for f in step.facts):
        lines.insert(0, describe_event(table, step.event, step.before) + ".")
    if step.after.outcome is None or not any(isinstance(f, gm.GameOver) for f in step.facts):
        lines.append(describe_prompt(table, step.after))
    return lines


def is_important_step(step: gm.Step) -> bool:
    """Turn changes and the end of the game are never dropped by speech."""
    return any(isinstance(f, (gm.TurnBegan, gm.GameOver, gm.WinWaits, gm.DeckRanOut)) for f in step.facts)


def undone(table: gm.Table, step: gm.Step) -> list[str]:
    """Said after an undo: what was undone and where the game is now."""
    return [f"Undone: {describe_event(table, step.event, step.after)}.", describe_position(table, step.after)]


def redone(table: gm.Table, step: gm.Step) -> list[str]:
    """Said after a redo."""
    return [f"Redone: {describe_event(table, step.event, step.before)}.", describe_position(table, step.after)]


def undone_many(table: gm.Table, steps: list[gm.Step], redo: bool = False) -> list[str]:
    """Said after undoing or redoing several events."""
    if len(steps) == 1:
        return redone(table, steps[0]) if redo else undone(table, steps[0])
    verb = "Redone" if redo else "Undone"
    state = steps[-1].after
    said = [describe_event(table, s.event, s.before if redo else s.after) for s in steps]
    if len(said) <= 5:
        return [f"{verb} {len(steps)} events: {'; '.join(said)}.", describe_position(table, state)]
    return [f"{verb} {len(steps)} events, {'up to' if redo else 'back to before'}: {said[-1]}.",
            describe_position(table, state)]  # fmt: skip


def describe_position(table: gm.Table, state: gm.GameState) -> str:
    """Where the game stands: turn, player, phase, and what waits."""
    if state.outcome is not None:
        return "The game is over. " + describe_outcome(table, state.outcome, state).replace(" The game is over.", "")
    sentence = f"Turn {state.turn}, {player_name(table, state.current)}'s {PHASE_NAMES[state.phase]}."
    if state.pile:
        sentence += f" On the pile: {describe_pile_cards(table, state)}."
    if state.chain:
        sentence += f" Chain: {len(state.chain)} {'link' if len(state.chain) == 1 else 'links'}."
    return sentence


def describe_pile_cards(table: gm.Table, state: gm.GameState) -> str:
    """The pile from the top down."""
    return name_list([_pile_card(table, c) for c in reversed(state.pile)])


def describe_pile(table: gm.Table, state: gm.GameState) -> str:
    """The Instant pile, top first."""
    if not state.pile:
        return "The pile is empty: no card is being played."
    return f"The pile, from the top: {describe_pile_cards(table, state)}. {describe_prompt(table, state)}"


def describe_chain(table: gm.Table, state: gm.GameState) -> list[str]:
    """The effect chain, first link first."""
    if not state.chain:
        return ["The chain is empty."]
    links = "1 link" if len(state.chain) == 1 else f"{len(state.chain)} links"
    lines = [f"The chain has {links}, first to resolve first."]
    lines += [f"{n}: {describe_link(table, link)}." for n, link in enumerate(state.chain, start=1)]
    return lines


def describe_stable(table: gm.Table, state: gm.GameState, seat: int) -> str:
    """What is in one player's Stable, and how many Unicorns it counts."""
    stable = state.players[seat].stable
    counts = table.tally(state)
    names = name_list([game_card_name(table, c) for c in stable]) if stable else "nothing"
    return f"{area_of(table, seat)}: {names}. {creatures(table, counts[seat])}."


def describe_tally(table: gm.Table, state: gm.GameState) -> str:
    """Every player's count and the number to win."""
    counts = table.tally(state)
    parts = ", ".join(f"{player_name(table, s)} {n}" for s, n in enumerate(counts))
    return f"{table.profile.vocabulary.creature}s: {parts}. {state.goal} to win."


def describe_herd(table: gm.Table, state: gm.GameState, seat: int) -> str:
    """Animals per variation in a Field (Llamas Unleashed), or "" for other games."""
    if not table.profile.herd_bonus:
        return ""
    counts = table.herd(state, seat)
    if not counts:
        return ""
    parts = ", ".join(f"{n} {v.capitalize()}{'' if n == 1 else 's'}" for v, n in sorted(counts.items()))
    return f"{player_name(table, seat)}'s herd: {parts}."


def describe_turn(table: gm.Table, state: gm.GameState) -> str:
    """Whose turn and which phase, with what the player may do."""
    return f"{describe_position(table, state)} {describe_prompt(table, state)}"


def describe_hands(table: gm.Table, state: gm.GameState) -> str:
    """Hand sizes the tracker knows."""
    parts = [f"{player_name(table, s)} {'unknown' if p.hand is None else p.hand}" for s, p in enumerate(state.players)]
    return f"Cards in hand: {', '.join(parts)}."


def describe_draw_pile(table: gm.Table, state: gm.GameState) -> str:
    """Cards left in the deck."""
    rule = {
        "most-wins": "when it runs out, the most Unicorns wins",
        "no-winner": "when it runs out, the game ends with no winner",
        "reshuffle": "when it runs out, the discard pile is shuffled into a new deck",
    }[table.deck_out_rule.value].replace("Unicorns", f"{table.profile.vocabulary.creature}s")
    return f"The deck holds about {cards_count(state.deck)}; {rule}."


def describe_discard(table: gm.Table, state: gm.GameState) -> str:
    """The discard pile, newest first."""
    if not state.discard:
        return "The discard pile is empty."
    names = [game_card_name(table, c) for c in reversed(state.discard)]
    return f"The discard pile, {cards_count(len(names))}, newest first: {name_list(names)}."


def describe_nursery(table: gm.Table, state: gm.GameState) -> str:
    """The Babies in the Nursery."""
    if not state.nursery:
        return "The Nursery is empty."
    return f"The Nursery: {name_list([game_card_name(table, c) for c in state.nursery])}."


def describe_rules(table: gm.Table, state: gm.GameState) -> str:
    """The rule profile in play."""
    p = table.profile
    variant = " 2-player variant." if table.setup.two_player else ""
    return (
        f"Rules: {p.title}. {creatures(table, state.goal)} to win. Hand limit {p.hand_limit}. "
        f"{describe_draw_pile(table, state)}{variant}"
    )


def describe_log(table: gm.Table, game: gm.Game, count: int = 5) -> list[str]:
    """The last few events, oldest first."""
    if not game.log:
        return ["No events yet."]
    start = max(0, len(game.log) - count)
    return [
        f"{n + 1}: {describe_event(table, game.log[n], game.state_before(n))}." for n in range(start, len(game.log))
    ]


DECK_COUNT_GUESS = "This deck's card list is incomplete, so the deck count is a guess: say deck and a number to set it."


def game_started(table: gm.Table, state: gm.GameState) -> list[str]:
    """Said when a new game starts."""
    setup = table.setup
    players = name_list(list(setup.players))
    lines = [
        f"New game: {players}, clockwise. Rules: {table.profile.title}.",
        f"{creatures(table, state.goal)} to win. The deck holds about {cards_count(state.deck)} after the deal.",
    ]
    if setup.two_player:
        removed = name_list([game_card_name(table, c) for c in sorted(table.removed)])
        neigh = " Each player is handed a Neigh before the deal." if table.rules.two_player_neigh_each else ""
        lines.append(f"2-player variant: take out {removed}.{neigh}")
    if not table.cards.base.info.complete:
        lines.append(DECK_COUNT_GUESS)
    if not setup.babies:
        lines.append(
            f"Each player puts a Baby from the Nursery in their {table.profile.vocabulary.area}: say baby, a name "
            "and the Baby, for example baby Ana red."
        )
    lines.append(f"Turn 1: {player_name(table, state.current)} goes first. {describe_prompt(table, state)}")
    return lines


def game_resumed(table: gm.Table, game: gm.Game) -> str:
    """Said when a saved game is continued."""
    players = name_list(list(table.setup.players))
    return f"Continuing the game of {players}, {len(game.log)} events. {describe_turn(table, game.state)}"


def save_damaged(kept: int, set_aside: int, where: str) -> str:
    """Said when a save had damaged lines."""
    return (
        f"The saved game was damaged: {set_aside} damaged {'line was' if set_aside == 1 else 'lines were'} set aside "
        f"in {where}, and {kept} events were kept."
    )


def save_failed(reason: str) -> str:
    """Said when an event could not be written to disk: it is not recorded."""
    return f"Could not save the game ({reason}), so that was not recorded. Try again."


def unknown_player(phrase: str, names: tuple[str, ...]) -> str:
    """A name that is not a player's."""
    return f"No player called {clean_untrusted(phrase, 40)}. The players are {name_list(list(names))}."


def ambiguous_player(phrase: str, names: list[str]) -> str:
    """A short name that fits several players."""
    return f"{clean_untrusted(phrase, 40)} could be {name_list(names)}. Say the whole name."


def whose_stable(card: str) -> str:
    """A card found in no Stable, or in several, when no owner was said."""
    return f"Whose {card}? Add from and a name."


def choose_card_for(query: str, candidates: list) -> str:
    """Candidates for a card named in a command."""
    return f"Which card is {spoken_query(query)}? {numbered_choices(candidates)} Type a number to choose."


def no_card_for(query: str) -> str:
    """A card named in a command that matches nothing."""
    return f"No card called {spoken_query(query)}. Check the spelling or try the abbreviation."


def script_unreadable(path: str, exc: Exception) -> str:
    """Said when a --script file cannot be read."""
    reason = getattr(exc, "strerror", None) or exc.__class__.__name__
    return f"Cannot read the script {clean_untrusted(path, 80)}: {reason}."


def save_damaged_unrepaired(kept: int, damaged: int) -> str:
    """Said by a read-only look at a save with damaged lines."""
    return (
        f"The saved game has {damaged} damaged {'line' if damaged == 1 else 'lines'}; {kept} events can be read. "
        "Continue the game to set the damaged part aside."
    )


# Game commands that cannot be read, and the tracker's own questions.

NAME_MISSING = "A player's name is missing."
TAKE_FROM_WHERE = "Say where from: take, a card, then from deck or from discard."
SWAP_HANDS_NAMES = "Say swap hands and two names, for example swap hands Ana Ben."
HAND_NAME_NUMBER = "Say hand, a name and a number, for example hand Ana 5."
DISCARD_ONE_AT_A_TIME = "Discard one card at a time, so each is counted: say discard, or discard and its name."
NEW_GAME_OVER_GAME = "A game is in progress; it stays saved. Start a new one? Say yes or no."
DECKS_AT_START = "Other decks can only be chosen when the app starts, with --deck and --addon."
NAMES_NEEDED = "Say the players' names in clockwise order, for example new game Ana Ben Cy."
DECK_OUT_CHOICES = "When the deck runs out: say stickler, rule-breaker, most-wins, no-winner or reshuffle."
NOTHING_WAITING = "Nothing is waiting to resolve."


def say_which_card(example: str) -> str:
    """A command that needs a card but has none."""
    return f"Say which card, for example: {example}."


def say_a_number(verb: str, example: int) -> str:
    """A command that needs a number."""
    return f"Say {verb} and a number, for example {verb} {example}."


def swap_with(example: str) -> str:
    """A swap without its second card."""
    return f"Say swap, a card, with, and the other card, for example {example}."


def move_where(example: str) -> str:
    """A move without its destination."""
    return f"Say where to, for example {example}."


def new_game_not_understood(word: str) -> str:
    """A word of a new game line that is neither a name nor an option."""
    return f"I did not understand {clean_untrusted(word, 40)} in the new game line. Say help for the options."


def reserved_name(name: str) -> str:
    """A player's name that is a command word."""
    return f"{clean_untrusted(name, 40)} cannot be a player's name: it is a command word. Choose another."


def no_neigh_card(super_neigh: bool) -> str:
    """A Neigh command with a deck that has no such card."""
    return f"This deck has no {'Super Neigh' if super_neigh else 'Neigh'} card."


def who_plays(said: str, card: str = "it") -> str:
    """A Neigh without the name of who plays it."""
    return f"Who plays {card}? Say {said} and a name, for example {said} Ben."


def not_an_event(verb: str) -> str:
    """A query routed as an event (never said in practice)."""
    return f"{verb} does not record an event."


def cannot_start(problems: str) -> str:
    """A new game whose setup cannot start."""
    return f"Cannot start that game: {problems}."


def baby_unclear(phrase: str, names: list[str]) -> str:
    """A Baby in a new game line that fits none or several Babies."""
    fits = name_list(names) if names else "no Baby"
    return f"Baby {clean_untrusted(phrase, 40)} could be {fits}. Say it so it fits one Baby."


def save_unreadable(reason: str) -> str:
    """The save cannot be read or reopened from disk."""
    return f"The saved game could not be read ({reason})."


def save_cannot_continue(reason: str) -> str:
    """The save's setup is damaged or names decks that are not installed."""
    return f"The saved game cannot be continued: {reason}."


def rules_for_another_game(deck_title: str) -> str:
    """Rules chosen for the other game than the deck's."""
    return f"Note: these rules are for another game than the deck {deck_title}."


def describe_players(table: gm.Table) -> str:
    """The players in seating order."""
    return f"Players, clockwise: {name_list(list(table.setup.players))}."


def goal_out_of_range(highest: int) -> str:
    """A number to win that no game could use."""
    return f"The number to win must be from 1 to {highest}."


def event_refused(problem: str) -> str:
    """An event that could not be saved as it stands (a number far too large)."""
    return f"That cannot be recorded: {problem}."


# The scanner (assistant/scanner, assistant/core/payloads.py, sightings.py, aiming.py, the scan command).
# Payloads are untrusted: every one is passed through clean_untrusted before it is put in a sentence.

NO_CAMERA = "No camera found. Type card names instead; plug a camera in and restart to scan codes."
CAMERA_LOST = "The camera stopped working. Trying again every few seconds; type card names meanwhile."
CAMERA_BACK = "The camera is working again."
NO_DECODER = "No QR decoder is installed, so codes cannot be read. Install zxing-cpp or pyzbar."
NEED_OPENCV = "OpenCV is not installed, so the camera, videos and images cannot be read."
STICKERS_NEED_PILLOW = "QR stickers need the qrcode and Pillow packages, which are not installed."
SCANNING_LIVE = "Scanning. Hold a card's code up to the camera. Press Control C to stop."
SCAN_NOTHING_GIVEN = "Say what to scan: image or video files, a folder, or --camera."
UNKNOWN_CODE_EMPTY = "Unknown code, with nothing in it."

#: The words of each aiming cue (`assistant.core.aiming.Cue` values); the confirmation is deliberately unlike
#: the others, and short, since the card's name follows it.
AIMING_WORDS = {
    "read": "Got it.",
    "move left": "Move left.",
    "move right": "Move right.",
    "move up": "Move up.",
    "move down": "Move down.",
    "more light": "More light.",
    "closer": "Closer.",
    "hold still": "Hold still.",
}


def aiming_words(cue_value: str) -> str:
    """What to say for an aiming cue."""
    return AIMING_WORDS[cue_value]


def decoder_missing(name: str) -> str:
    """Said once when one decoder library is missing and the others carry on."""
    return f"The {name} decoder is not installed or does not load; codes are read without it."


def camera_opened(index: int) -> str:
    """Said when the camera starts."""
    return f"Camera {index} ready. Hold a card's code up to it."


def camera_unavailable(index: int) -> str:
    """Said when the camera asked for cannot be opened."""
    return f"Camera {index} cannot be opened. Check it is plugged in and not used by another program."


def camera_failed(kind: str) -> str:
    """The camera thread stopped on an error nobody foresaw; the app carries on without it."""
    return f"Scanning stopped after an unexpected error ({kind}). Type card names instead."


def scan_not_found(path: str) -> str:
    """A path given to scan that does not exist."""
    return f"{clean_untrusted(path, 120)}: no such file or folder."


def scan_unreadable(path: str) -> str:
    """A file given to scan that is not an image or a video OpenCV can read."""
    return f"{clean_untrusted(path, 120)}: not an image or video that can be read."


def scan_folder_empty(path: str) -> str:
    """A folder given to scan with no image or video in it."""
    return f"{clean_untrusted(path, 120)}: no images or videos in this folder."


def unknown_code(payload: str) -> str:
    """A code that names no card: say so, then what it holds."""
    shown = clean_untrusted(payload)
    return f"Unknown code: {shown}" if shown else UNKNOWN_CODE_EMPTY


def label_not_in_play(deck_id: str, card_id: str) -> str:
    """One of our labels, for a card of a deck that is not loaded."""
    card, deck = clean_untrusted(card_id, 60), clean_untrusted(deck_id, 30)
    return f"A label for {card} from the deck {deck}, which is not in play."


def scanned_text(payload: str) -> str:
    """A code holding words, such as a card's text: said as it is, cleaned."""
    return clean_untrusted(payload)


def scan_file_summary(path: str, count: int, cards: list[str], milliseconds: float) -> str:
    """One line per scanned file: how many codes, which cards, how long decoding took."""
    codes = "no code" if count == 0 else f"{count} {'code' if count == 1 else 'codes'}"
    named = f": {', '.join(cards)}" if cards else ""
    return f"{clean_untrusted(path, 120)}: {codes}{named} ({milliseconds:.1f} ms)."


def scan_frame_summary(frame: int, count: int, cards: list[str], milliseconds: float) -> str:
    """One line per video frame with `--frames`."""
    codes = "no code" if count == 0 else f"{count} {'code' if count == 1 else 'codes'}"
    named = f": {', '.join(cards)}" if cards else ""
    return f"  frame {frame}: {codes}{named} ({milliseconds:.1f} ms)."


def scan_payload_line(payload: str) -> str:
    """A payload as listed under its file by the scan command."""
    return f"  payload: {clean_untrusted(payload)}"


def sticker_sheet_heading(title: str, page: int, pages: int, width_mm: float, height_mm: float) -> str:
    """The line at the top of every page of QR stickers."""
    return (
        f"{title}: QR stickers, page {page} of {pages}. Each sticker {width_mm:.0f} by {height_mm:.0f} mm: "
        "print at actual size (100 %), no scaling."
    )


def sticker_sheet_written(count: int, pages: int, paths: list[str], width_mm: float, height_mm: float) -> str:
    """Printed after writing a sheet of QR stickers."""
    where = paths[0] if len(paths) == 1 else f"{paths[0]} to {paths[-1]}"
    return (
        f"{count} QR stickers of {width_mm:.0f} by {height_mm:.0f} mm on {pages} "
        f"{'page' if pages == 1 else 'pages'}, written to {where}. Print at actual size."
    )


def sticker_sheet_kind(path: str) -> str:
    """A sheet asked for in a format we do not write."""
    return f"{clean_untrusted(path, 120)}: QR stickers are written as FILE.pdf or FILE.png."


def sticker_sheet_unwritable(path: str, reason: str) -> str:
    """The sheet could not be written."""
    return f"Could not write {clean_untrusted(path, 120)}: {reason}."


# Speech (assistant/core/speechqueue.py, assistant/speech, assistant/storage/settings.py, the say command)


def speech_backend_chosen(engine: str, player: str = "") -> str:
    """The backend the speech service chose, reported once."""
    names = {"speechd": "speech-dispatcher", "pyttsx3": "pyttsx3 with espeak-ng"}
    played = f", played with {player}" if player and player != engine else ""
    return f"Speech: {names.get(engine, engine)}{played}."


def speech_silent(reason: str = "") -> str:
    """No speech engine works: the one written notice."""
    because = f" {reason}" if reason else ""
    return f"Speech is off: no speech engine works here.{because} Everything is still written on screen."


SPEECH_SET_SILENT = "The settings file chose silence (backend = silent)."
NO_PLAYER = "No sound player is installed (aplay, paplay or pw-play)."


def engine_unavailable(engine: str, reason: str) -> str:
    """A speech engine that cannot be used, and why."""
    return f"{engine} cannot speak: {clean_untrusted(reason, 160).rstrip('.')}."


def speech_cannot_render(engine: str) -> str:
    """`say --to` with an engine that does not write sound files."""
    return f"{engine} cannot write sound files."


def voice_unknown(voice: str) -> str:
    """A voice in the settings that the engine does not have."""
    return f"The voice {clean_untrusted(voice, 60)} was not found; the default voice is used."


def player_missing(player: str, reason: str) -> str:
    """The sound player program cannot be started."""
    return f"The sound player {player} cannot be started ({clean_untrusted(reason, 80)}): speech is silent."


def player_failed(player: str, status: int) -> str:
    """The sound player stopped with an error (no sound device, a wrong device name)."""
    return (f"The sound player {player} stopped with error {status}: check the sound device. "
            "Everything is still written on screen.")  # fmt: skip


def screen_reader_speaks(reader: str) -> str:
    """Speech left off because a screen reader is talking."""
    return (f"{clean_untrusted(reader, 40)} is running, so this app does not speak. "
            "To hear it anyway, start it with speech = on in its settings file.")  # fmt: skip


def settings_damaged(reason: str, kept_as: str) -> str:
    """A settings file that could not be used."""
    return (f"The settings file is damaged ({clean_untrusted(reason, 120)}): the defaults are used, "
            f"and the damaged file was kept as {kept_as}.")  # fmt: skip


#: What each earcon means, said when sounds are off.
EARCON_WORDS = {"code-seen": "Code seen.", "card-read": "Card read.", "error": "Error.", "your-turn": "Your turn."}

SPEECH_STOPPED = "Speech stopped."
NO_SPEECH_KEYS = "Speech is off, so the speech keys do nothing."
SPEECH_MUTED = "Speech muted. Press F5 to unmute."
SPEECH_UNMUTED = "Speech on."
NOTHING_SAID_YET = "Nothing has been said yet."
HISTORY_OLDEST = "That was the oldest thing said."
HISTORY_NEWEST = "That was the newest thing said."
PRIVATE_OFF = "Private reading off: cards are read aloud to the table."
PRIVATE_NO_DEVICE = (
    "Private reading on, but no headphones device is set (private_device in the settings file): "
    "cards are only written on screen, not read aloud."
)


def private_on(device: str) -> str:
    """The reminder when private reading is switched on."""
    return (f"Private reading on: put your headphones on. Cards are read only on {clean_untrusted(device, 60)}, "
            "never to the table.")  # fmt: skip


def wav_written(path: str, seconds: float) -> str:
    """`say --to`: the file written."""
    return f"Wrote {seconds:.1f} seconds of speech to {path}."


def say_failed(reason: str) -> str:
    """`say`: nothing could be spoken or written."""
    return f"Nothing was said: {reason}"
