"""Sentences about cards and decks: a card's text, look-up results, search, imports, help."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.core.cards.card import Card, CardSet, CardType, Confidence, Deck, DeckInfo, PrintVariant, Vocabulary
from assistant.core.cards.lookup import Resolution
from assistant.core.cards.search import search_words
from assistant.core.cards.wording import leave_effect
from assistant.core.text import cards_count, clean_untrusted, name_list
from assistant.core.words.entry import query_problem, spoken_query

__all__ = [
    "type_name",
    "card_title",
    "CONFIDENCE_SENTENCES",
    "OTHER_PRINT_HINT",
    "confidence_sentence",
    "describe_card",
    "card_lines",
    "print_variant_lines",
    "describe_print_variants",
    "no_other_print",
    "print_settled",
    "herd_bonuses_imported",
    "numbered_choices",
    "numbered_names",
    "choice_name",
    "describe_resolution",
    "describe_deck",
    "import_hint",
    "deck_chosen",
    "cannot_add_to",
    "SEARCH_READ_OUT",
    "search_results",
    "SEARCH_NOTHING",
    "import_written",
    "import_bad_id",
    "sheet_unreadable",
    "import_failed",
    "NO_CHOICE_PENDING",
    "choice_out_of_range",
    "HELP_LINES",
    "NO_TERMINAL",
    "GIST_WORDS",
    "card_gist",
    "LEAVING",
    "no_such_deck",
    "card_tags",
    "sheet_too_large",
]


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


#: Said after a card text that is not confirmed by two independent sources.
CONFIDENCE_SENTENCES = {
    Confidence.SINGLE_SOURCE: "From a single source: check the card.",
    Confidence.UNVERIFIED: "Not confirmed by any source: check the card.",
}
#: Said after the text of a card whose other print reads differently in a way that changes play.
OTHER_PRINT_HINT = "Another print of this card differs: say other print after its name to hear it."


def confidence_sentence(confidence: Confidence) -> str:
    """ "From a single source: check the card.", or "" for a confirmed text."""
    return CONFIDENCE_SENTENCES.get(confidence, "")


def _after_text(card: Card) -> list[str]:
    """What follows a card's text: how sure it is, and that another print differs."""
    said = [confidence_sentence(card.confidence)]
    if card.print_variants:
        said.append(OTHER_PRINT_HINT)
    return [sentence for sentence in said if sentence]


def describe_card(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The full spoken description of a card: name, type, its text, then how sure the text is."""
    return " ".join([card_title(card, vocabulary), card.text, *_after_text(card)])


def card_lines(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN, copies_known: bool = True) -> list[str]:
    """A card as screen lines, one fact per line (for braille displays)."""
    copies = str(card.copies) if copies_known else "not known"
    lines = [card.name, f"Type: {type_name(card.type, vocabulary)}", f"Copies in the deck: {copies}"]
    if card.variation:
        lines.append(f"Variation: {card.variation.replace('+', ' and ')}")
    lines.append(card.text)
    return lines + _after_text(card)


def print_variant_lines(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> list[str]:
    """A card's other prints as screen lines: "card NAME, other print"."""
    if not card.print_variants:
        return [no_other_print(card)]
    lines = [card.name, f"Type: {type_name(card.type, vocabulary)}"]
    for variant in card.print_variants:
        lines.append(f"{variant.print}: {variant.text}")
        lines += [s for s in (confidence_sentence(variant.confidence),) if s]
    return lines


def describe_print_variants(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The spoken answer to "card NAME, other print"."""
    if not card.print_variants:
        return no_other_print(card)
    parts = [card_title(card, vocabulary)]
    for variant in card.print_variants:
        parts.append(_variant_said(variant))
    return " ".join(parts)


def _variant_said(variant: PrintVariant) -> str:
    sentence = f"In the {variant.print}: {variant.text}"
    extra = confidence_sentence(variant.confidence)
    return f"{sentence} {extra}" if extra else sentence


def no_other_print(card: Card) -> str:
    """A card asked for its other print that has none known."""
    return f"{card.name}: no other print is known to read differently."


def print_settled(name: str, print_name: str) -> str:
    """An import whose sheet matched one print of a card."""
    return f"{name}: your sheet is the {print_name}; that text is used."


def herd_bonuses_imported(variations: list[str]) -> str:
    """The Herd Bonuses a Llamas Unleashed sheet gave: they are read out in place of the deck's own."""
    names = [f"{variation.capitalize()}" for variation in variations]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    bonus = "Herd Bonus" if len(names) == 1 else "Herd Bonuses"
    return f"{listed} {bonus} from your sheet: read out when a herd gives {'it' if len(names) == 1 else 'them'}."


def numbered_choices(cards: list[Card], query: str = "", titles: dict[str, str] | None = None) -> str:
    """ "2 matches: 1 Rainbow Aura, 2 Rainbow Unicorn.", or with the query "2 matches for rnbw: ..."; cards of the
    same name are named by what differs (`choice_name`; `titles`: each deck's title by its id)."""
    return numbered_names([choice_name(card, cards, titles) for card in cards], query)


def numbered_names(names: Sequence[str], query: str = "") -> str:
    """`numbered_choices` from the cards' names as offered: "2 matches: 1 Rainbow Aura, 2 Rainbow Unicorn."."""
    count = len(names)
    items = ", ".join(f"{n} {name}" for n, name in enumerate(names, start=1))
    about = f" for {query}" if query else ""
    return f"{count} {'match' if count == 1 else 'matches'}{about}: {items}."


def choice_name(card: Card, offered: list[Card], titles: dict[str, str] | None = None) -> str:
    """A card's name in a numbered choice: where another card offered has the same name (a reprint that plays
    otherwise, the same card in the base game and an add-on), what tells them apart, in brackets: its print, its
    deck (by title, from `titles`), its type, its kind of Animal: "Neigh (Unstable Unicorns)", "Neigh (Dragons)"."""
    same = [c for c in offered if c is not card and c.name.casefold() == card.name.casefold()]
    if not same:
        return card.name
    told = []
    if card.print and any(c.print != card.print for c in same):
        told.append(card.print)
    if any(c.deck != card.deck for c in same):
        told.append(_title_apart(card.deck, [c.deck for c in same], titles or {}))
    if any(c.type is not card.type for c in same):
        told.append(type_name(card.type))
    if card.variation and any(c.variation != card.variation for c in same):
        told.append(card.variation)
    return f"{card.name} ({', '.join(told)})" if told else card.name


def _title_apart(deck: str, others: list[str], titles: dict[str, str]) -> str:
    """A deck's title without the words it begins with in common with the others' ("Rainbow Apocalypse expansion"
    beside "1st Edition (Kickstarter) base game", both "Unstable Unicorns ..."): only what tells them apart."""
    words = [titles.get(d, d).replace(":", ",").split() for d in [deck, *others]]
    common = 0
    while all(len(w) > common + 1 and w[common] == words[0][common] for w in words):
        common += 1
    return " ".join(words[0][common:]).strip(", ") or titles.get(deck, deck)


def describe_resolution(
    resolution: Resolution, vocabulary: Vocabulary = Vocabulary.UNICORN, titles: dict[str, str] | None = None
) -> str:
    """What to say after a lookup: the card, the choices (those of the same name by what differs; `titles`: each
    deck's title by its id), or that nothing matched."""
    if resolution.match is not None:
        return describe_card(resolution.match, vocabulary)
    problem = query_problem(resolution.query)
    if problem:
        return problem
    query = spoken_query(resolution.query)
    if resolution.candidates:  # (not "No card called": there are cards close to it)
        choices = numbered_choices([c.card for c in resolution.candidates], query, titles)
        return f"{choices} Type a number to choose."
    return f"No card called {query}, and nothing close. Check the spelling or try the abbreviation."


def describe_deck(deck: Deck) -> str:
    """One line about a deck: title, size and completeness."""
    info = deck.info
    unique = len(deck.cards)
    copies = f"{deck.total_copies} copies" if info.copies_known else "copy counts not known"
    sentence = f"{info.title}: {unique} cards, {copies}."
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
    words_said = clean_untrusted(" ".join(search_words(query)), 80) or "that"
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
        f"{clean_untrusted(deck_id, 60)} cannot be the imported deck's id: use lower-case letters, digits and dashes, "
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
    "A card name, then other print: what the card does in another print, where that print differs.",
    "Type help to hear this again.",
)
NO_TERMINAL = (
    "The app needs a terminal. To use it line by line, from a script or a screen reader, run: table-assistant --plain"
)


#: The most words of a card's text said as what it does, in a link of the chain.
GIST_WORDS = 14

#: `card_gist`'s `about` for a card leaving a Stable: its own leave effect ("If this card leaves your Stable, ...").
LEAVING = "leaving"


def card_gist(card: Card, about: str = "") -> str:
    """What a card does in a few words: its first sentence that mentions `about` ("enters", "beginning of your
    turn"), or its first sentence, without the opening "When this card enters your Stable," and cut when long."""
    sentences = [t.strip().rstrip(".") for t in card.text.split(". ") if t.strip()]
    if not sentences:
        return ""
    # An Instant's opening says when it is played, and a counter's next sentence that it stops the card: its
    # effect in the chain is what follows ("Then you and that player may each draw a card").
    # An opening that names the effect after a colon ("Play this card right after ... an Animal card: destroy one
    # Animal card ...", Surprise Emu Attack) keeps that effect.
    effect = [
        t.split(": ", 1)[1] if t.lower().startswith("play this card") and ": " in t else t
        for t in sentences
        if not t.lower().startswith(("play this card", "that card is stopped")) or ": " in t
    ]
    sentences = effect if card.type is CardType.INSTANT and effect else sentences
    leave = leave_effect(sentences) if about == LEAVING else None
    chosen = next((t for t in sentences if about and about in t.lower()), sentences[0])
    following = sentences[sentences.index(chosen) + 1 :]
    if leave is not None:  # the leave effect's own clause, never another sentence that says "destroyed"
        chosen, following = leave[1], sentences[leave[0] + 1 :]
    head, comma, rest = chosen.partition(", ")
    # A duty's "Each time any player, you included, plays ..." keeps its condition: it is what the duty waits for.
    while comma and rest and head.split()[0].lower() in ("when", "if", "at", "while"):
        chosen = rest  # "At the beginning of your turn, if this card is in your Stable, you may ...": the "you may"
        head, comma, rest = chosen.partition(", ")
    if following and (only_chooses(chosen) or not names_deed(chosen)):
        # "Choose any player." says nothing of what befalls them: the next sentence does (Unicorn Shrinkray), and a
        # "Choose one." its choices (Targeted Destruction)
        chosen = f"{chosen}: {following[0][0].lower()}{following[0][1:]}"
        following = following[1:]
        while following and following[0].lower().startswith("or "):  # "Choose one. ... Or ...": every choice
            chosen, following = f"{chosen}; {following[0][0].lower()}{following[0][1:]}", following[1:]
        if len(chosen.split()) <= 2 * GIST_WORDS and not (following and following[0].lower().startswith(FOLLOW_ON)):
            return chosen
    if following and following[0].lower().startswith(FOLLOW_ON):
        # "you may sacrifice this card. If you do, destroy a Unicorn card": the cost alone would mislead; and a
        # choice says what befalls the one chosen ("choose another player. That player misses their next turn")
        for sentence in following:
            if not sentence.lower().startswith(FOLLOW_ON):
                break
            chosen = f"{chosen}; {sentence[0].lower()}{sentence[1:]}"
        if len(chosen.split()) <= 2 * GIST_WORDS:
            return chosen
    said = chosen.split()
    if len(said) <= GIST_WORDS:
        return chosen
    clauses = chosen.split(", ")
    kept: list[str] = []  # whole clauses while they fit, so the gist is never a stub such as "Every player"
    for clause in clauses:
        over = len(" ".join(kept + [clause]).split()) > GIST_WORDS + GIST_WORDS // 2
        if over and not (kept and only_chooses(", ".join(kept))):  # never cut after a choice alone (Unicorn Swap)
            break
        kept.append(clause)
    if len(kept) == len(clauses):
        return chosen  # the whole sentence fits: nothing left out, so no "and more"
    short = len(" ".join(kept).split()) < GIST_WORDS // 2
    gist = (" ".join(said[:GIST_WORDS]) if short else ", ".join(kept)).rstrip(",;:")
    whole = gist == chosen.rstrip(",;:") and chosen == sentences[-1]
    return gist if whole else gist + ", and more"  # "and more" only when something is left out


#: The most words of a chain's duty said whole as a decisive fact (about a second and a half of speech); a longer one
#: is cut to its first clause.
DUTY_WORDS = 7
# A place that goes without saying in a duty: the Stable, Field or hand a card is in, comes from or goes to.
_DUTY_PLACE = re.compile(
    r"(\bcards?|\b[A-Z][\w'-]*) (?:in|into|from|out of) (?:another|any|each|your|their|that|a|the)(?: other)?"
    r"(?: player's)?(?: own)? (?:Stable|Field|hand)\b"
)
# Openings that make a duty a condition, not a deed ("Each time ...", "Whenever ..."): not cut to their first clause.
_CONDITION = ("each time", "whenever", "when", "if", "should", "for each", "while", "as long as")


def duty_short(gist: str) -> str:
    """A chain's duty as its deed, about a second of speech: "Destroy a Unicorn." for "Destroy a Unicorn card in
    another player's Stable"; "May draw 2 cards." for "then you may draw 2 cards"; a cost with what it buys, "May
    discard a card, then steal a Goat." for "you may discard a card; if you do, steal a Goat card". The place a card is
    in (a Stable, a Field, a hand) and the word "card" after its kind go without saying; a duty still longer than
    `DUTY_WORDS` is cut to its first clause unless it is a condition. "" for ""."""
    text = gist.strip().removesuffix(", and more").rstrip(".").strip()
    text = _ASIDE.sub("", text)  # "every player, you included, must ...": the deed is after the aside
    text = re.sub(r"^(?:then )?(?:you (?=may|must|can|cannot))?", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^(?:for as long as|as long as|while) this card [^,]*, ", "", text, flags=re.IGNORECASE)
    text = re.sub(r"; (?:if you do|should you do so|should you)$", "", text)  # what it buys was cut: "and more"
    cost, *bought = _COST.split(text, maxsplit=1)
    if bought:  # the cost alone would mislead: what it buys, in its first words
        deed = _deed(bought[0], first_clause=True).split(" and ")[0]
        return _sentence(f"{_deed(cost, first_clause=True)}, then {deed}")
    if text.lower().startswith(_CONDITION):
        return _sentence(_deed(text, first_clause=False))
    return _sentence(_options_short(text))


# Where one option of a choice ends and the next begins ("destroy an Upgrade card ..., or sacrifice a Downgrade"),
# and where one step ends and the next, done after it, begins ("discard a card, then ...", "... and then draw 3").
_OR = re.compile(r"[;,] or ")
_THEN = re.compile(r"(?:[,;] |,? and )(?:only )?then ", re.IGNORECASE)


def _options_short(text: str) -> str:
    """Every option of a choice and every step of each, each cut to its first deed (`_deed`): "Choose one: destroy
    an Upgrade, or sacrifice a Downgrade"; never the first option alone."""
    options = _OR.split(text)
    if len(options) == 1:
        return _steps_short(text)
    head, colon, first = options[0].rpartition(": ")  # the choice itself: "Choose one", "that player picks one"
    said = [_steps_short(option) for option in [first, *options[1:]]]
    joiner = "; or " if any(", then " in option for option in said) else ", or "
    return f"{_deed(head, first_clause=False)}{colon}{joiner.join(said)}"


def _steps_short(text: str) -> str:
    """Each step of a deed done one after the other, each cut to its first deed: "Discard a card, then either
    sacrifice a card or destroy a card"; the deck an earlier step went through goes without saying in a later one
    ("Look through the deck, take out an Alpaca, then shuffle")."""
    steps = [_deed(step, first_clause=True) for step in _THEN.split(text) if step.strip()]
    later = [_SHUFFLE_DECK.sub("shuffle", step) for step in steps[1:]] if "deck" in "".join(steps[:1]) else steps[1:]
    return ", then ".join(steps[:1] + later)


_SHUFFLE_DECK = re.compile(r"\bshuffle the deck\b", re.IGNORECASE)


# An aside that names who else is meant, between a subject and its deed ("every player, you included, must ...").
_ASIDE = re.compile(r", (?:you included|yourself allowed|yourself included|your own included|even you),", re.IGNORECASE)
# The verbs of a rule a card keeps while it is in a Stable (a deed is `_DEED`'s).
_RULE = re.compile(
    r"\b(cannot|can|counts?(?= as)|is|are|has|have|affects?|stops?|enters?|peeks?|trades?|saves?|removes?|becomes?|"
    r"drops?|looks?|does|happens?)\b",
    re.IGNORECASE,
)

# A deed that puts cards somewhere, and the words that say where.
_PLACING = re.compile(r"^(?:may |must )?(?:put|send|bring)\b", re.IGNORECASE)
_PLACE = re.compile(r"\b(?:to|into|in|back|on|onto|from|out|straight)\b", re.IGNORECASE)

# A search that says only where it looks ("Look through the deck", "go through the deck").
_SEARCHING = re.compile(r"^(?:may |must )?(?:look|go|search) through the deck$", re.IGNORECASE)

# A cost and what it buys: "you may discard a card; if you do, steal a Goat card".
_COST = re.compile(r"; (?:if you do|should you do so|should you),? ")


def _deed(text: str, first_clause: bool) -> str:
    """A duty's words without the place a card is in and the word "card" after its kind; cut to its first clause
    when longer than `DUTY_WORDS` and `first_clause`."""
    text = _DUTY_PLACE.sub(r"\1", text)
    text = re.sub(r"(\b[A-Z][\w'-]*) cards\b", r"\1s", text)
    text = re.sub(r"(\b[A-Z][\w'-]*) card\b", r"\1", text)
    if first_clause and len(text.split()) > DUTY_WORDS:
        text = _first_deed(re.split(r"([;:]|, )", text), text)
    if first_clause and len(text.split()) > DUTY_WORDS and " and " in text:  # its first deed
        text = _first_deed(text.split(" and ", 1)[:1], text)
    return text.strip()


def _first_deed(pieces: list[str], whole: str) -> str:
    """The words up to the first clause that names a deed (`pieces` are clauses, each followed by its separator):
    "Choose any player: that player skips their next turn" keeps the choice with what befalls the one chosen; `whole`
    when no clause of them names one ("you and that player may each draw a card" is never cut to "you")."""
    for end in range(1, len(pieces) + 1, 2):
        kept = "".join(pieces[:end])
        if _PLACING.match(kept) and not _PLACE.search(kept):
            continue  # "Put this card, every card" is cut before where they go: that is the deed
        if _SEARCHING.match(kept):
            continue  # "Look through the deck" says where, not what is taken out: that is the deed
        if names_deed(kept):
            return kept if len(kept.split()) >= 2 else whole
    return whole


def names_deed(sentence: str) -> bool:
    """True when a sentence says a deed or a rule (who does what to what: "Destroy a Unicorn.", "Every player discards
    a card.", "Your Unicorns cannot be destroyed."), not a bare choice ("Choose any player.") or a bare subject
    ("Every player.")."""
    return bool(_DEED.search(sentence) or _RULE.search(sentence)) and not only_chooses(sentence)


def _sentence(text: str) -> str:
    """The words as a sentence: a capital first, a full stop last."""
    return f"{text[0].upper()}{text[1:]}." if text else ""


#: How a sentence begins that finishes the one before it (a cost, then what it buys): said with it in a gist.
FOLLOW_ON = ("if you do", "should you", "then ", "if so", "that player ", "its owner ")

#: A sentence that only chooses ("Choose one", "Choose any player", "Pick an Upgrade or Downgrade card in any
#: Stable"): no deed of its own, which the next sentence says.
_CHOOSES = re.compile(r"^(?:you )?(?:may |must )?(choose|pick)\b", re.IGNORECASE)
_DEED = re.compile(
    r"\b(destroy|sacrifice|steal|return|draw|discard|move|put|send|swap|look|give|take|bring|shuffle|play|skip|miss"
    r"|go|exchange|show|pull|pass|come)(s|es)?\b",
    re.IGNORECASE,
)


def only_chooses(sentence: str) -> bool:
    """True for a sentence of a card's text that only chooses a player or a card, and does nothing to it."""
    return bool(_CHOOSES.match(sentence)) and not _DEED.search(sentence)


def no_such_deck(deck_id: str, installed: list[str]) -> str:
    """A deck asked for by an id no installed deck has."""
    return f"No deck called {deck_id!r}. Installed decks: {', '.join(sorted(installed)) or 'none'}."


def card_tags(tags: list[str]) -> str:
    """A card's tags, under its fields in `deck show`."""
    return "Tags: " + ", ".join(sorted(tags))


def sheet_too_large(megabytes: int) -> str:
    """Why a reference sheet is not read (said with `sheet_unreadable`)."""
    return f"it is larger than {megabytes} MB"
