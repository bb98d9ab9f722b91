"""The command language (docs/commands.md): parsing, the conversation (warnings, yes or no, choosing a card by
number), the queries, and the session routing game commands while card look-ups keep working."""

from __future__ import annotations

import pytest

from assistant.commands.app import table_session
from assistant.core.game.events import Draw
from assistant.core.language.parser import CommandError
from assistant.core.language.reply import Reply
from assistant.core.language.verbs import parse_command
from assistant.core.words.cardtext import NO_CHOICE_PENDING
from assistant.core.words.errors import stray_digits
from assistant.core.words.help import HELP_TOPICS, INSTANT_WORD, PART_WORDS, Examples, offered_topics, unknown_topic
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.talking import asks

CARDS = load_card_set("uu-2nd")
NAMES = ("Ana", "Ben", "Cy")


def tracker() -> Session:
    return table_session(CARDS)


def game() -> Session:
    t = tracker()
    t.handle("new game Ana Ben Cy babies red pink narwhal")
    return t


@pytest.mark.parametrize(
    "line, verb, fields",
    [
        ("play rainbow aura", "play", {"card": "rainbow aura"}),
        ("play ginormous into Ben", "play", {"card": "ginormous", "target": "Ben"}),
        ("Ben plays unicorn on the cob", "play", {"actor": "Ben", "card": "unicorn on the cob"}),
        ("neigh Ben", "neigh", {"target": "Ben"}),
        ("Cy neigh", "neigh", {"actor": "Cy"}),
        ("super neigh Ana", "super-neigh", {"target": "Ana"}),
        ("resolve", "resolve", {}),
        ("done", "resolve", {}),
        ("next", "next", {}),
        ("end turn", "end", {}),
        ("end turn Ana", "end", {"target": "Ana"}),
        ("end phase", "next", {}),
        ("steal rainbow aura from Ben", "steal", {"card": "rainbow aura", "target": "Ben"}),
        ("destroy kiss of life", "destroy", {"card": "kiss of life"}),
        ("sacrifice change of luck", "sacrifice", {"card": "change of luck"}),
        ("return yay to hand", "return", {"card": "yay"}),
        ("draw", "draw", {}),
        ("draw 2", "draw", {"number": 2}),
        ("Ben draw three cards", "draw", {"actor": "Ben", "number": 3}),
        ("discard", "discard", {}),
        ("discard neigh", "discard", {"card": "neigh"}),
        ("take rainbow aura from the discard pile", "take", {"card": "rainbow aura", "word": "discard"}),
        ("take deck yay", "take", {"card": "yay", "word": "deck"}),
        (
            "swap yay from Ana with slowdown from Ben",
            "swap",
            {"card": "yay", "target": "Ana", "other_card": "slowdown", "other": "Ben"},
        ),
        ("swap hands Ana Ben", "swap-hands", {"target": "Ana", "other": "Ben"}),
        ("move slowdown from Ana to Ben", "move", {"card": "slowdown", "target": "Ana", "other": "Ben"}),
        ("baby Ana red", "baby", {"card": "red", "target": "Ana"}),
        ("nursery baby red from Ana", "nursery", {"card": "baby red", "target": "Ana"}),
        ("hand Ana 5", "hand", {"target": "Ana", "number": 5}),
        ("hands", "hands", {"asking": True}),
        ("deck 40", "deck", {"number": 40}),
        ("deck", "deck", {"asking": True}),
        ("deck empty", "deck-empty", {}),
        ("win 6", "win", {"number": 6}),
        ("whose turn", "turn", {}),
        ("stable Ana", "stable", {"target": "Ana"}),
        ("field", "stable", {}),
        ("tally", "tally", {}),
        ("discard pile", "discards", {}),
        ("what is rainbow aura", "card", {"card": "rainbow aura"}),
        ("undo 3", "undo", {"number": 3}),
        ("undo all", "undo", {"word": "all"}),
        ("yes", "yes", {}),
        ("no", "no", {}),
    ],
)
def test_commands_parse(line, verb, fields):
    command = parse_command(line, NAMES)
    assert command is not None and command.verb == verb
    for name, value in fields.items():
        assert getattr(command, name) == value, name


def test_new_game_line_with_every_option():
    command = parse_command("new game Ana Ben first Ben rules uu-first win 6 two player babies red pink stickler hands")
    assert command.verb == "new-game" and command.names == ("Ana", "Ben")
    assert command.options == {
        "first": "Ben", "rules": "uu-first", "win": 6, "two_player": True, "babies": ["red", "pink"],
        "deck_out": "stickler", "hands": True,
    }  # fmt: skip


@pytest.mark.parametrize("line", ["rainbow aura", "ug rainbow", "hello there", "⠗⠁⠔⠃⠪", "search unicorn"])
def test_lines_that_are_not_commands_are_card_lookups(line):
    assert parse_command(line, NAMES) is None


@pytest.mark.parametrize(
    "line, message",
    [
        ("new game Ana into", "cannot be a player's name"),
        ("take rainbow aura", "from deck or from discard"),
        ("swap yay", "with"),
        ("draw lots", "draw and a number"),
        ("win", "win and a number"),
    ],
)
def test_unreadable_commands_say_what_is_wrong(line, message):
    with pytest.raises(CommandError, match=message):
        parse_command(line, NAMES)


def test_a_warned_event_waits_for_yes_and_no_records_nothing():
    t = game()
    said = t.handle("play rainbow aura")  # before drawing
    assert asks(said) and said.important and "has not drawn" in said.speech and said.speech.endswith("Say yes or no.")
    assert t.handle("no").speech == "Not recorded."
    assert t.game.log == []
    t.handle("play rainbow aura")
    said = t.handle("confirm")
    assert "Ana played Rainbow Aura" in said.speech and len(t.game.log) == 1


def test_another_command_instead_of_yes_cancels_the_warned_event_and_is_answered():
    t = game()
    t.handle("play rainbow aura")
    said = t.handle("draw")
    assert said.lines[0] == "Not recorded." and "Ana drew a card" in said.speech
    assert [type(e) for e in t.game.log] == [Draw]


def test_a_card_lookup_while_a_warning_waits_keeps_the_question():
    t = game()
    t.handle("play rainbow aura")
    assert t.handle("yay").card.id == "yay"  # a look-up
    assert t.handle("card slowdown").card.id == "slowdown"
    said = t.handle("yes")
    assert "Ana played Rainbow Aura" in said.speech


def test_several_matching_cards_are_read_with_numbers_and_a_digit_chooses():
    t = game()
    t.handle("draw")
    said = t.handle("play rainbow")
    assert said.important and "Which card is rainbow?" in said.speech and "1 " in said.speech
    choices = [line for line in said.lines]
    assert "Rainbow Aura" in choices[0]
    number = next(n for n, name in enumerate(t.pending.cards, start=1) if name.id == "rainbow-aura")
    said = t.handle(str(number))
    assert "Ana played Rainbow Aura" in said.speech
    assert "There is no choice 9" in (t.handle("play rainbow"), t.handle("9"))[1].speech


def test_queries_answer_from_the_state():
    t = game()
    t.handle("draw")
    t.handle("play yay")
    assert t.handle("pile").speech.startswith("The pile, from the top: Ana's Yay.")
    t.handle("resolve")
    assert t.handle("stable Ana").speech == "Ana's Stable: Baby Unicorn (Red) and Yay. 1 Unicorn."
    assert t.handle("stable").lines[2] == "Cy's Stable: Baby Narwhal. 1 Unicorn."
    assert t.handle("whose turn").speech.startswith("Turn 1, Ana's Action phase.")
    assert t.handle("chain").speech == "The chain is empty."
    assert t.handle("hands").speech == "Cards in hand: Ana unknown, Ben unknown, Cy unknown."
    assert t.handle("nursery").speech.startswith("The Nursery: Baby Unicorn (Orange)")
    assert t.handle("discard pile").speech == "The discard pile is empty."
    assert t.handle("players").speech == "Players, clockwise: Ana, Ben and Cy."
    assert t.handle("rules").speech.startswith("Rules: Unstable Unicorns, current base game rules. 7 Unicorns to win.")
    assert t.handle("log").lines == ("1: Ana drew a card.", "2: Ana played Yay.", "3: Yay by Ana resolved.")
    assert t.handle("card yay").card.id == "yay"


def test_game_commands_need_a_game_and_unknown_players_are_named():
    t = tracker()
    assert "No game is being tracked" in t.handle("draw").speech
    t = game()
    said = t.handle("steal yay from Zed")
    assert said.important and "No player called Zed. The players are Ana, Ben and Cy." in said.speech
    t.handle("draw")
    assert "Whose Slowdown?" in t.handle("steal slowdown").speech


def test_starting_a_new_game_over_one_in_progress_asks_first():
    t = game()
    t.handle("draw")
    said = t.handle("new game Dee Eve")
    assert asks(said) and "stays saved" in said.speech
    t.handle("no")
    assert t.game.setup.players == ("Ana", "Ben", "Cy")
    t.handle("new game Dee Eve")
    t.handle("yes")
    assert t.game.setup.players == ("Dee", "Eve")


def test_new_game_errors_are_clear():
    t = tracker()
    assert "No rules called 'uu-ninth'" in t.handle("new game Ana Ben rules uu-ninth").speech
    assert "two players have the same name" in t.handle("new game Ana ana").speech
    assert "could be" in t.handle("new game Ana Ben babies unicorn narwhal").speech
    assert "stickler, rule-breaker" in t.handle("new game Ana Ben deck out maybe").speech


# The session: game commands go to the tracker, card look-ups still work.


def session() -> Session:
    return Session(CARDS)


def test_session_routes_game_commands_and_keeps_card_lookup():
    s = session()
    reply = s.handle("new game Ana Ben babies red pink")
    assert reply.important and reply.lines[0].startswith("New game: Ana and Ben")
    reply = s.handle("rainbow aura")
    assert reply.card is not None and reply.card.id == "rainbow-aura" and reply.lines[0] == "Rainbow Aura"
    reply = s.handle("card super neigh")
    assert reply.card.id == "super-neigh"
    reply = s.handle("play yay")
    assert asks(reply) and reply.important
    reply = s.handle("yes")
    assert "Ana played Yay" in reply.speech and not asks(reply)


def test_session_card_choice_by_digit_still_works_outside_the_game():
    s = session()
    reply = s.handle("rainbo")
    assert s.pending and "Type a number" in reply.speech
    reply = s.handle("1")
    assert reply.card is not None


def test_session_resolves_abbreviations_through_its_resolver():
    from assistant.commands.app import table_session

    s = table_session(CARDS)
    s.handle("new game Ana Ben babies red pink")
    s.handle("draw")
    reply = s.handle("play ug rainbow")  # the braille label's type prefix: several Rainbow cards, Upgrades first
    assert "Which card" in reply.speech or "Rainbow Aura" in reply.speech
    if "Which card" in reply.speech:
        reply = s.handle("1")
    assert "Ana played Rainbow Aura" in reply.speech
    reply = s.handle("neigh Ben")
    assert "Ben played Neigh" in reply.speech


def test_commands_in_braille_cells_are_read_through_the_sessions_resolver():
    """Uncontracted cells are read by the session itself; contracted ones by its resolver: the braille one reads
    them with liblouis, the standard-library one cannot, and the line is looked up as a card's name."""
    from assistant.core.cards.lookup import NameResolver

    s = game()
    s.handle("⠙⠗⠁⠺")  # draw, uncontracted
    reply = s.handle("⠢⠙⠀⠞⠥⠗⠝")  # end turn, contracted
    assert s.game.state.current == 1 and reply.lines == ("Turn 2: Ben's turn.",)
    assert NameResolver(CARDS).read_contracted("⠢⠙⠀⠞⠥⠗⠝") is None
    plain = Session(CARDS)
    plain.handle("new game Ana Ben Cy babies red pink narwhal")
    plain.handle("⠙⠗⠁⠺")
    assert plain.game.log[-1].__class__.__name__ == "Draw"
    reply = plain.handle("⠢⠙⠀⠞⠥⠗⠝")
    assert plain.game.state.current == 0 and reply.card is None and "Turn 2" not in reply.speech


def test_help_commands_lists_the_game_commands():
    reply = session().handle("help commands all")
    assert any("new game Ana Ben Cy" in line for line in reply.lines)
    assert any(line.startswith("Type a card name") for line in reply.lines)


def test_help_is_short_says_first_how_to_get_help_and_quit_and_names_its_topics():
    reply = session().handle("help")
    assert reply.lines[0] == "Help: F1 or help. Control Q quits."
    assert len(reply.speech.split()) <= 75  # about 30 seconds of speech
    for topic in HELP_TOPICS:
        assert topic in reply.lines[-1]
        if topic != "commands":
            said = session().handle(f"help {topic}")
            assert not said.important and 20 <= len(said.speech.split()) <= 110, topic  # under about 45 seconds
    said = session().handle("help juggling").speech  # the topics of the deck in play, neigh among them here
    assert said.startswith("No help on that.") and "neigh" in said and "instants" in said
    llamas = Session(load_card_set("llamas")).handle("help juggling").speech
    assert "neigh" not in llamas and "instants" in llamas  # (Llamas Unleashed: its Instants answer by number)


def test_help_names_every_topic_and_a_llamas_game_is_never_told_to_say_neigh():
    """`help` (F1 in the app) names every topic, the game's Instants too; in Llamas Unleashed, whose Instants answer
    a card by their numbers, no topic named, no topic said and no command line tells the player to say neigh or
    super neigh, in the app and in the plain mode."""
    for keys in (True, False):
        uu = session()
        uu.screen_keys = keys
        more = uu.handle("help").lines[-1]
        assert "instants" in more and "neigh" in more, more
        llamas = Session(load_card_set("llamas"))
        llamas.screen_keys = keys
        more = llamas.handle("help").lines[-1]
        assert "instants" in more and "neigh" not in more, more
        assert "neigh" not in offered_topics(Examples(neigh=INSTANT_WORD))
        for topic in ["", *offered_topics(), "commands all"]:
            said = llamas.handle(f"help {topic}").speech
            assert "neigh" not in said.lower(), (keys, topic, said)
        said = llamas.handle("help instants").speech  # how an Instant answers a card, now that no topic is "neigh"
        assert "the player's name, play and the Instant" in said
    assert "neigh" not in unknown_topic() and "instants" in unknown_topic()


def test_help_win_and_how_do_i_win_say_the_goal_of_the_rules_in_play():
    uu = session()
    said = uu.handle("help win").speech
    assert said.startswith("How to win, Unstable Unicorns, current base game rules: be the first to have 7 Unicorns")
    assert "in your Stable with 2 to 5 players and 6 with 6 to 8." in said and "the most Unicorns wins" in said
    for question in ("how do I win?", "How to win", "how can you win"):
        assert uu.handle(question).speech == said, question  # never a card (it read Slowdown)
    uu.handle("new game Ana Ben Cy rules uu-five")
    said = uu.handle("how do I win").speech
    assert "5 Unicorns in your Stable with 2 to 8 players." in said and "This game: 5 Unicorns to win." in said
    assert "discard pile is shuffled into a new deck" in said
    uu.handle("win 6")
    assert "This game: 6 Unicorns to win." in uu.handle("help win").speech
    llamas = Session(load_card_set("llamas")).handle("help win").speech
    assert llamas.startswith("How to win, Llamas Unleashed rules:") and "7 Animals in your Field" in llamas


def test_help_instants_numbers_instants_only_where_a_number_is_not_a_players():
    """In Unstable Unicorns a number typed while a card waits is a player's (that player Neighs): `help instants`
    numbers no Instant there ("2 Super Neigh" would be Ben's Neigh); in Llamas Unleashed it does (test_instants)."""
    said = session().handle("help instants").speech
    assert said.startswith("The Instants: Neigh and Super Neigh.")
    assert "that player's number" in said and not any(f"{n} Neigh" in said or f"{n} Super" in said for n in "12")
    plain = session()
    plain.screen_keys = False
    assert "number" not in plain.handle("help instants").speech  # no keys in the plain mode


def test_help_commands_comes_in_parts_a_listener_can_finish_and_all_of_them_make_the_whole():
    s = session()
    index = s.handle("help commands")
    assert index.lines[0].startswith("The commands, in ") and len(index.speech.split()) <= PART_WORDS
    count = int(index.lines[0].split()[3])
    lines = []
    for number in range(1, count + 1):
        part = s.handle(f"help commands {number}").lines
        assert part[0].startswith(f"Commands {number} of {count}: ")
        assert len(" ".join(part[1:]).split()) <= PART_WORDS or len(part) == 2, part
        lines += part[1:]
    assert tuple(lines) == s.handle("help commands all").lines  # every command, each once, in the table's order
    assert s.handle("help commands three").lines == s.handle("help commands 3").lines
    assert s.handle(f"help commands {count + 1}").important and s.handle("help commands zero").important


def test_help_examples_use_the_deck_in_play():
    s = session()
    s.handle("new game Cy Dee babies red pink")
    said = s.handle("help turn").speech
    assert "play rainbow aura" in said and "destroy basic" in said and "into Cy" in said


def test_a_neigh_said_alone_during_a_pile_asks_who():
    s = session()
    s.handle("new game Ana Ben babies red pink")
    s.handle("draw")
    s.handle("play yay")
    reply = s.handle("neigh")
    assert reply.important and "Who plays Neigh?" in reply.speech
    reply = s.handle("yes")
    assert reply.speech == "There is nothing to confirm."


def test_a_reply_of_lines_speaks_them_joined():
    said = Reply.of("One.", "Two.")
    assert said.speech == "One. Two." and said.lines == ("One.", "Two.")


def test_a_command_with_no_card_means_the_card_just_read_or_asks_which():
    t = game()
    t.handle("draw")
    assert "Say which card" in t.handle("play").speech
    assert t.handle("rainbow aura").card.id == "rainbow-aura"  # read (typed, or held to the camera)
    said = t.handle("play")
    assert "Ana played Rainbow Aura" in said.speech
    assert "Say which card" in t.handle("play").speech, "the card read is used once"
    t.handle("resolve")
    t.handle("end turn")
    t.handle("draw")
    assert "Ben played Basic Unicorn (Red)" in t.handle("play basic red").speech
    assert t.card_desk.scanned("TA1:UU-2ND:SUPER-NEIGH").card.id == "super-neigh"  # held up to the camera...
    said = t.handle("neigh Cy")  # ... the Instant just read is the one Cy plays
    assert "Cy played Super Neigh" in said.speech, said.speech


def test_numbers_and_names_no_game_could_use_are_refused_with_a_message():
    t = tracker()
    assert "needs a letter or a digit" in t.handle("new game Ana ⠁⠃").speech
    assert "from 1 to 50" in t.handle("new game Ana Ben win 0").speech
    t.handle("new game \x1b[31mAna Ben")
    assert t.game.setup.players[0] == "Ana", "terminal escapes are taken out of names"
    for line in ("draw 999", "hand Ben 900", "deck 600", "win 51"):
        said = t.handle(line)
        assert said.important and not asks(said), line
    assert t.game.log == []


def test_a_stray_digit_before_a_command_is_left_out_with_a_word_after_the_outcome():
    s = session()
    s.handle("new game Ana Ben babies red pink")
    s.handle("draw")
    reply = s.handle("0end turn")
    assert s.game.state.current == 1  # the turn ended
    assert reply.lines[0] == "Turn 2: Ben's turn." and reply.lines[1] == stray_digits("0")
    assert s.handle("12").lines == (NO_CHOICE_PENDING,)  # a number alone is still a number


#: What only the full-screen app has: its keys. The plain mode's help must name none of them.
APP_ONLY = ("F1", "F2", "F3", "F5", "F7", "Control", "Escape", "Page Up", "press 0", "0 for no", "or 0", "s then")


def test_the_plain_modes_help_names_lines_to_type_and_none_of_the_apps_keys():
    plain = session()
    plain.screen_keys = False
    reply = plain.handle("help")
    assert reply.lines[0] == "Help: type help. quit ends the plain mode."
    assert "resolve for no Neigh" in reply.speech and len(reply.speech.split()) <= 75
    for topic in HELP_TOPICS[:-1]:
        said = plain.handle(f"help {topic}").speech
        assert 20 <= len(said.split()) <= 110, topic
        assert not [key for key in APP_ONLY if key in said], (topic, said)
    assert "resolve" in plain.handle("help neigh").speech
    assert (
        "camera" in plain.handle("help scanning").speech and "Hold a card" not in plain.handle("help scanning").speech
    )
    llamas = Session(load_card_set("llamas"))
    llamas.screen_keys = False
    said = llamas.handle("help neigh").speech
    assert said.startswith("Answering a card with an Instant.") and "number" not in said
    # the app's own help still names its keys
    assert session().handle("help keys").speech.count("Escape") == 1


def test_a_prompt_asked_for_what_its_kind_lacks_says_so_and_a_record_with_no_event_is_refused():
    from assistant.core.game.events import EventError
    from assistant.core.game.history import Record, replay
    from assistant.core.game.table import PromptError

    t = game()
    prompt = t.game.table.prompt(t.game.state)
    for asked in (prompt.pile_top, prompt.shielded_by, prompt.hand_limit):
        with pytest.raises(PromptError, match=prompt.kind.name):
            asked()
    t.handle("draw")
    if asks(t.handle("play yay")):
        t.handle("yes")
    answer = t.game.table.prompt(t.game.state)
    assert answer.pile_top().card == "yay"
    with pytest.raises(PromptError, match="no hand limit"):
        answer.hand_limit()
    with pytest.raises(EventError, match="no event"):
        replay(t.game, Record("event"))


def test_help_share_says_every_form_of_the_share_command():
    """Before, no help text had `share allow`, `refuse`, `devices`, `remove` or `off`, and `help share` was none."""
    for keys in (True, False):
        table = session()
        table.screen_keys = keys
        said = table.handle("help share").speech
        forms = ["share allow Ana", "share refuse Ana", "share devices", "share remove Ana", "share remove Ana 2"]
        forms += ["share remove blue 7", "share off", "Ana share allow", "share 127.0.0.1:8123", "or blue 7 when two"]
        assert not [form for form in forms if form not in said], said
        assert ("F9" in said) is keys and ("share qr" in said) is keys  # the plain mode has no QR code
