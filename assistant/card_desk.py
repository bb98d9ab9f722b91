"""The session's cards and scanning: a card looked up or searched by name, a code the camera read, and a card learnt
from a scanned text.

`CardDesk` answers these for the `Session` that holds it (`assistant/session.py`), through the few things it reads
and sets there (`CardHolder`): the cards in play and their resolver, the open question and the card just read. The
session decides what a typed line means and hands the desk a look-up or a search; the camera's codes and aiming cues
come to the desk directly.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from assistant.core.cards.card import Card, CardSet, CardType, Deck, normalize, split_other_print
from assistant.core.cards.learning import NewCard, read_card_text, type_from_prefix
from assistant.core.cards.lookup import CardResolver, NameResolver, Resolution
from assistant.core.cards.search import search_cards, search_words
from assistant.core.cards.sheet import matching_card
from assistant.core.game.about import (
    CardMeant,
    CardsFound,
    CardTypeAsked,
    KeepWords,
    NewCardOffered,
    ReplaceWords,
    YesNotEnough,
)
from assistant.core.game.history import Game
from assistant.core.game.segment import of_lines
from assistant.core.language.builders import cards_with_words
from assistant.core.language.reply import Choice, Pending, Question, Reply
from assistant.core.scanning.aiming import Cue
from assistant.core.words.cardtext import (
    SEARCH_NOTHING,
    SEARCH_READ_OUT,
    card_lines,
    describe_card,
    describe_print_variants,
    describe_resolution,
    print_variant_lines,
    search_results,
    type_name,
)
from assistant.core.words.learned import (
    REPLACE_WORDS,
    code_differs,
    name_only_close,
    still_waits,
    words_kept,
)
from assistant.core.words.scans import (
    CARD_REFUSED,
    LEARNT_BY_NAME,
    aiming_words,
    card_learned,
    card_not_learned,
    card_of_deck_not_in_play,
    card_words_learned,
    label_card_not_in_deck,
    label_not_in_play,
    scanned_text,
    unknown_code,
)

__all__ = ["CardDesk", "CardHolder"]


class _WhenGoneThrough:
    """The installed decks, read only when a payload is gone through for them (a label or a name of a card not in
    play): a card of the decks in play never waits for every deck file to be read (a tenth of a second or more,
    on the app's event loop)."""

    def __init__(self, load: Callable[[], Sequence[Deck]]) -> None:
        self.load = load

    def __iter__(self) -> Iterator[Deck]:
        return iter(self.load())


class CardHolder(Protocol):
    """What the card desk reads and sets on the session that holds it (`Session`)."""

    cards: CardSet
    """The cards in play."""
    resolver: CardResolver | None
    """Their resolver; None: the standard-library name resolver."""
    pending: Pending | None
    """The open question."""
    subject: Card | None
    """The card just read."""
    learn: Callable[[NewCard, CardType], tuple[str, CardSet, CardResolver | None]] | None
    """Adds a scanned card to the owner's deck; None: scanned texts are only read out."""
    installed: Callable[[], Sequence[Deck]] | None
    """The decks installed; None: only the cards in play are known."""

    @property
    def game(self) -> Game | None:
        """The game in progress, or None."""

    def keep(self, reply: Reply) -> Reply:
        """Remember what a reply leaves open and the card it is about; then return it."""

    def keep_said(self, reply: Reply) -> Reply:
        """Keep an answer for `repeat` and `history`; then return it."""

    def use_cards(self, cards: CardSet, resolver: CardResolver | None) -> None:
        """Make these cards and their resolver the session's (and the lobby's)."""


class CardDesk:
    """Look-ups, search and scanning on the cards of the session that holds it."""

    def __init__(self, session: CardHolder) -> None:
        self.session = session

    def find_cards(self, query: str, most: int = 10) -> list[Card]:
        """Cards of the game's decks (the session's, with no game) a device's search names: the resolver's match and
        candidates (names, abbreviations, braille), then names with a word starting with each word typed."""
        game = self.session.game
        cards = game.table.cards if game is not None else self.session.cards
        if not query.strip():
            return []
        resolution = self.resolve(query)
        found = [resolution.match] if resolution.match is not None else []
        found += [c.card for c in resolution.candidates]
        found += cards_with_words(cards, query)
        seen: dict[str, Card] = {}
        for card in found:
            if card is not None and cards.get(card.id) is not None:
                seen.setdefault(card.id, card)
        return list(seen.values())[:most]

    def resolve(self, query: str) -> Resolution:
        """Resolve a query with the best resolver available."""
        return self.resolver().resolve(query)

    def prepare(self) -> None:
        """Build ahead what the first look-up would: the app calls it before its screen is first drawn, so the player's
        first key does not wait for it (a braille look-up's index and the fuzzy matcher's import take tens of ms)."""
        self.resolver().prepare()

    def resolver(self) -> CardResolver:
        """The resolver given, or the standard-library one on the cards in play."""
        return self.session.resolver if self.session.resolver is not None else NameResolver(self.session.cards)

    def search(self, query: str) -> Reply:
        """The cards whose name, text or tags mention the words, numbered so that a digit reads one."""
        if not search_words(query):
            return Reply.error(SEARCH_NOTHING)
        found = [f.card for f in search_cards(self.session.cards, query)]
        sentence = search_results(query, found)
        offered = tuple(found[:SEARCH_READ_OUT])
        # the cards found are offered (a digit reads one), not asked: not important, but held as the question
        found_reply = (
            Reply.asking(CardsFound(query, tuple(found)), Choice(offered, self.card_reply), important=False)
            if offered
            else None
        )
        return self.session.keep(found_reply or Reply.of(sentence))

    def look_up(self, query: str) -> Reply:
        """Resolve a card query and describe the outcome; "NAME, other print" reads the card's other prints."""
        query, other_print = split_other_print(query)
        answer = self._print_reply if other_print else self.card_reply
        if other_print and not query.strip() and self.session.subject is not None:
            return self.session.keep(answer(self.session.subject))  # "other print" alone: the card just read
        resolution = self.resolve(query)
        bare = re.sub(r"^\s*the\s+", "", query, flags=re.IGNORECASE)
        if resolution.match is None and bare != query:  # "card the yay": the article was not part of a name
            resolution = self.resolve(bare)
        notice = self.resolver().take_notice()
        if resolution.match is not None:
            reply = answer(resolution.match)
        elif len(resolution.candidates) == 1:  # the one card close to it: simply read
            reply = answer(resolution.candidates[0].card)
        else:
            candidates = tuple(c.card for c in resolution.candidates)
            titles = {deck.info.id: deck.info.title for deck in self.session.cards.decks}
            sentence = describe_resolution(resolution, self.session.cards.vocabulary, titles)
            meant = CardMeant(resolution, self.session.cards.vocabulary, tuple(titles.items()))
            reply = Reply.asking(meant, Choice(candidates, answer)) if candidates else Reply.error(sentence)
        if notice:  # said once, before the answer, and kept on screen with it
            reply = reply.before(notice)
        return self.session.keep(reply)

    def card_reply(self, card: Card) -> Reply:
        """A card's full text; the card becomes the subject of the next command."""
        vocabulary = self.session.cards.vocabulary
        lines = card_lines(card, vocabulary, self.session.cards.copies_known(card))
        said = describe_card(card, vocabulary)  # the lines shown, said in one description
        return self.session.keep(Reply(card=card, segments=of_lines(lines, said)))

    def _print_reply(self, card: Card) -> Reply:
        """What the card does in its other prints ("card seductive unicorn, other print")."""
        vocabulary = self.session.cards.vocabulary
        lines = print_variant_lines(card, vocabulary)
        said = describe_print_variants(card, vocabulary)
        return self.session.keep(Reply(card=card, segments=of_lines(lines, said)))

    def scanned(self, payload: str | bytes) -> Reply:
        """Answer a code read by the camera (untrusted payload): its card, its words, or "unknown code". While a
        question waits (numbered cards, yes or no), the code is only read out and the question stays as it was."""
        waiting = self.session.pending
        reply, learnable = self._scanned(payload, asking=waiting is not None)
        if waiting is None:
            return self.session.keep_said(reply)
        self.session.pending = waiting  # the card read is the subject as usual; the question is kept as it was
        note = still_waits(isinstance(waiting, Choice), learnable)
        said = reply.after(note)
        return self.session.keep_said(dataclasses.replace(said, pending=None, important=True))

    def _scanned(self, payload: str | bytes, asking: bool) -> tuple[Reply, bool]:
        """A scanned code's reply, and whether it could have been learnt. With `asking` (a question waits) nothing
        is offered or learnt."""
        from assistant.core.scanning.payloads import PayloadKind, resolve_payload

        installed = _WhenGoneThrough(self.session.installed) if self.session.installed is not None else ()
        meaning = resolve_payload(
            payload, self.session.cards, lambda query: self.resolver().resolve(query).match, installed
        )
        elsewhere = card_of_deck_not_in_play(*reversed(meaning.elsewhere)) if meaning.elsewhere[0] else ""
        if meaning.card is not None and meaning.kind is not PayloadKind.TEXT:
            return self.card_reply(meaning.card), False
        if meaning.kind is PayloadKind.TEXT:
            new = meaning.new_card or read_card_text(meaning.payload) if meaning.new_card_text else None
            new = new if self.session.learn is not None else None
            if new is not None and meaning.card is None:
                same = matching_card(new.name, self.session.cards.base)
                if same is not None and normalize(same.name) != normalize(new.name):  # a typo is never that card
                    sentence = name_only_close(new.name, same.name, new.text)
                    return Reply.of(sentence, important=True), False
                if not asking:
                    offer = self._offer_card(new, same)
                    return self.session.keep(offer.before(elsewhere) if elsewhere else offer), True
            text = scanned_text(meaning.payload)
            told = meaning.told
            lines: tuple[str, ...] = (text,)
            if meaning.card is not None and normalize(told) != normalize(meaning.card.text):
                lines = (code_differs(meaning.card.name, told or meaning.payload),)
                if told.strip() and self.session.learn is not None:
                    if asking:
                        return Reply.of(*lines, card=meaning.card), True
                    if meaning.card.text == LEARNT_BY_NAME:  # learnt by its name alone: its words complete it
                        return self.session.keep(self._offer_completing(meaning.card, told)), True
                    return self.session.keep(self._offer_words(meaning.card, told)), True
            return self.session.keep(Reply.of(*lines, card=meaning.card)), new is not None
        if meaning.kind is PayloadKind.LABEL and meaning.deck_in_play:
            sentence = label_card_not_in_deck(meaning.deck, meaning.card_id)
        elif meaning.kind is PayloadKind.LABEL:
            sentence = elsewhere or label_not_in_play(meaning.deck, meaning.card_id)
        else:
            sentence = unknown_code(meaning.payload)
        return Reply.error(sentence), False

    def _offer_completing(self, card: Card, text: str) -> Reply:
        """Offer to keep a code's words for a card learnt by its name alone; yes learns them (as its type)."""
        keep = Question(lambda: self._learn(NewCard(card.name, text, card.type), card.type, card))
        return Reply.asking(KeepWords(card.name, text), keep, card=card)

    def _offer_words(self, card: Card, text: str) -> Reply:
        """A code naming a card in other words: said, with the deck's words and the deliberate answer that takes
        the code's (`REPLACE_WORDS`, never a single key: yes alone is told it does nothing)."""
        differs = code_differs(card.name, text)
        new = NewCard(card.name, text, card.type)

        def deliberate(line: str) -> Reply | None:
            if " ".join(line.lower().strip(".! ").split()) != REPLACE_WORDS:
                return None
            return self._learn(new, card.type, card)

        def stray_yes() -> Reply:
            return Reply.asking(YesNotEnough(card.name), question)

        question = Question(stray_yes, deliberate, declined=words_kept(card.name))
        return Reply.asking(ReplaceWords(card.name, card.text), question, card=card).before(differs)

    def _learn(self, new: NewCard, card_type: CardType, same: Card | None) -> Reply:
        """Add a scanned card, or give a deck's card (`same`) the scanned words; said either way."""
        if self.session.learn is None:  # nothing is offered for learning without a learner (`_scanned`)
            return Reply.error(card_not_learned(new.name, CARD_REFUSED))
        try:
            path, cards, resolver = self.session.learn(new, card_type)
        except (OSError, LookupError, ValueError) as exc:
            return Reply.error(card_not_learned(new.name, str(exc).splitlines()[0]))
        self.session.use_cards(cards, resolver)
        if same is not None:
            sentence = card_words_learned(same.name, path)
            return Reply.of(sentence, important=True, card=cards.get(same.id))
        sentence = card_learned(new.name, type_name(card_type, cards.vocabulary), path)
        return Reply.of(sentence, important=True, card=cards.find_exact(new.name))

    def _offer_card(self, new: NewCard, same: Card | None) -> Reply:
        """Offer to add a scanned card this deck does not have; its type from its words, or the player's answer.
        `same`: the base deck's card of the same name (folded), not in play: its words, deliberately."""
        if same is not None:
            return self._offer_words(self.session.cards.get(same.id) or same, new.text)

        def other(text: str) -> Reply | None:
            card_type = type_from_prefix(text)
            return None if card_type is None else self._learn(new, card_type, None)

        vocabulary = self.session.cards.vocabulary
        kind = type_name(new.type, vocabulary) if new.type is not None else ""

        def then() -> Reply:
            if new.type is not None:
                return self._learn(new, new.type, None)
            return Reply.asking(CardTypeAsked(), question)

        question = Question(then, other)
        return Reply.asking(NewCardOffered(new.name, kind, new.text), question)

    def aiming(self, cue: Cue) -> Reply:
        """An aiming cue (`assistant.core.scanning.aiming.Cue`) as a hint reply."""
        sentence = aiming_words(cue.value)
        # the confirmation's sound is the card reply's "card-read" that follows it
        return Reply.of(sentence, hint=True, sound="" if cue is Cue.READ else "code-seen")
