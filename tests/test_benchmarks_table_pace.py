"""The table-pace benchmark reads a reply in the sentences the app plays it in: in the game with the players' names
typed in lower case, three of her keys were reported never heard (`12 destroy basic red in ana`, ...) although their
own words were played at once. The benchmark split "ana 1 Unicorn. ben destroyed ..." as one sentence (a sentence
beginning with a name in lower case), the app as two."""

from __future__ import annotations

from assistant.core.text import split_sentences
from benchmarks.table_pace import GAMES, sentences, shadow_replies


def test_a_reply_is_read_in_the_sentences_the_app_plays_with_names_in_lower_case():
    replies, names = shadow_replies("uu-2nd-lower", "normal")
    steps = GAMES["uu-2nd-lower"].steps
    n = steps.index("destroy basic red in ana")
    reply = replies[n]
    assert sentences(reply.speech, names, reply) == [
        "ana 1 Unicorn.",
        "ben destroyed Basic Unicorn (Red) in ana's Stable.",
    ]
    assert len(split_sentences(reply.speech)) == 1  # (what the benchmark read before: one sentence, never played)


def test_the_same_game_with_capital_names_reads_the_same_sentences():
    lower, lower_names = shadow_replies("uu-2nd-lower", "normal")
    upper, upper_names = shadow_replies("uu-2nd", "normal")
    for low, up in zip(lower, upper, strict=True):
        assert len(sentences(low.speech, lower_names, low)) == len(sentences(up.speech, upper_names, up)), up.speech
