"""The table benchmark's reading of its log (`benchmarks/table_hands.py`): what counts as a tap in silence, and the
fewest of her keys one voice must hold back at her pace."""

from benchmarks.table_hands import measure, one_voice_bound


def _utterance(number: int, given: float, text: str, other: bool, moves: tuple[int, ...] = ()) -> dict:
    pieces = [{"topic": "move" if moves else "reply", "moves": list(moves), "start": 0, "end": None, "decisive": True}]
    return {"utterance": number, "given": given, "full": text, "other": other, "voice": "hers", "own_from": 0,
            "pieces": pieces}  # fmt: skip


def _sentence(number: int, start: float, seconds: float, text: str = "words.") -> dict:
    return {"text": text, "start": start, "end": start + seconds, "seconds": seconds, "whole": True, "of": number,
            "audio": start, "place": 0.0}  # fmt: skip


def test_a_tap_while_a_reply_is_rendered_or_between_its_sentences_is_not_a_tap_in_silence():
    records = [
        # her reply, taken at 4.9, its sound from 5.2 (rendered meanwhile), two sentences with a gap at 6.2
        _utterance(0, 4.9, "Ben's Stable: nothing. 0 Unicorns.", other=False),
        _sentence(0, 5.2, 1.0),
        _sentence(0, 6.25, 1.0),
        {"utterance_done": 0, "at": 7.3},
        # Ben's three moves, tapped at 5.0 (rendering), 6.21 (between her sentences) and 9.0 (nothing said)
        *(
            {
                "shown": at + 0.01,
                "own": False,
                "speech": "Ben played.",
                "moves": {str(n): ["Ben", "PLAY"]},
                "win": False,
            }
            for n, at in ((1, 5.0), (2, 6.21), (3, 9.0))
        ),  # fmt: skip
        _utterance(1, 7.3, "Ben played Neigh and Neigh.", other=True, moves=(1, 2)),
        _sentence(1, 7.35, 1.0),
        {"utterance_done": 1, "at": 8.4},
        _utterance(2, 9.02, "Ben played Neigh.", other=True, moves=(3,)),
        _sentence(2, 9.1, 1.0),
        {"utterance_done": 2, "at": 10.1},
    ]
    taps = [("Ben", 5.0), ("Ben", 6.21), ("Ben", 9.0)]
    figures = measure(records, [], [0.0, 4.9], taps)
    assert figures["tap_to_first_audio_busy_ms"]["count"] == 2
    assert figures["tap_to_first_audio_idle_ms"] == {"count": 1, "median": 100.0, "p90": 100.0, "max": 100.0}
    assert figures["earcon_moves"] == 0
    # one voice at her pause: the first two moves held while she typed, each known by its earcon (the second held
    # again in a later reply: its first earcon counts)
    earcons = [{"at": 5.03, "moves": [1]}, {"at": 6.41, "moves": [2]}, {"at": 6.9, "moves": [1, 2]}]
    figures = measure(records, [], [0.0, 4.9], taps, earcons)
    assert figures["earcon_moves"] == 2
    assert figures["tap_to_earcon_ms"]["max"] == 200.0 and figures["tap_to_earcon_ms"]["median"] == 115.0


def test_one_voice_holds_back_at_least_the_keys_its_moves_cannot_fit_between_her_replies():
    keys = [1.2 * n for n in range(1, 12)]  # 11 keys, 10 gaps
    records = []
    for n, key in enumerate(keys, start=1):
        speech = "Ok." if n == 3 else "Her reply of five words."
        records.append({"shown": key + 0.005, "own": True, "speech": speech, "moves": {}, "win": False})
        if n != 5:  # her fifth reply never began: its first sentence taken at her pace, 2 s
            records.append(_utterance(n, key + 0.01, speech, other=False))
            records.append(_sentence(n, key + 0.02, 0.2 if n == 3 else 2.0, speech))  # the third: 1.0 s free
    for m, start in enumerate((2.5, 4.9, 7.3, 9.7), start=100):  # four of another hand's sentences, 0.8 s each
        records += [_utterance(m, start - 0.01, "Ben drew.", other=True, moves=(m,)), _sentence(m, start, 0.8)]
    cut = {**_sentence(104, 11.0, 0.8), "end": 11.2, "whole": False}  # cut before its last words: not heard
    records += [_utterance(104, 10.99, "Cy drew.", other=True, moves=(104,)), cut]
    bound = one_voice_bound(records, keys)
    assert bound["others_voice_s"] == 3.2 and bound["others_sentences"] == 4 and bound["shortest_s"] == 0.8
    assert bound["gaps"] == 10 and bound["gaps_that_fit"] == 1 and bound["free_s"] == 1.0
    assert bound["late_keys_at_least"] == 2  # (3.2 - 1.0) / 1.2, rounded up
    assert bound["keys"] == 11 and bound["late_keys_allowed"] == 1
    assert bound["faster_needed_x"] == 1.5  # 3.2 s to fit in 1.0 s free and one key's 1.2 s
    records = [r for r in records if r.get("shown") != 5 * 1.2 + 0.005]  # a key that showed no reply: its gap free
    assert one_voice_bound(records, keys)["late_keys_at_least"] == 1


def test_a_move_her_reader_reads_while_the_table_voice_says_it_is_said_twice_at_once():
    """Plain mode beside her reader: Ben's move printed (her reader reads it) and said by the table voice over the
    same seconds is said twice at once; Cy's, read by her reader after the table voice said it, twice but not at
    once; Dee's, said by the table voice alone, once."""
    shown = [{"shown": at, "own": False, "speech": "moved.", "moves": {str(n): [who, "DRAW"]}, "win": False}
             for n, who, at in ((1, "Ben", 1.0), (2, "Cy", 5.0), (3, "Dee", 9.0))]  # fmt: skip
    table = [{**_utterance(10 + n, at + 0.05, "moved.", other=True, moves=(n,)), "voice": "table"}
             for n, at in ((1, 1.0), (2, 5.0), (3, 9.0))]  # fmt: skip
    records = [
        *shown,
        *table,
        *(_sentence(10 + n, at + 0.1, 1.0) for n, at in ((1, 1.0), (2, 5.0), (3, 9.0))),
        _utterance(-1, 1.1, "Ben drew a card.", other=True, moves=(1,)),
        _sentence(-1, 1.2, 1.0),  # over the table voice's 1.1 to 2.1
        _utterance(-2, 6.5, "Cy drew a card.", other=True, moves=(2,)),
        _sentence(-2, 6.5, 1.0),  # after the table voice's 5.1 to 6.1
    ]
    taps = [("Ben", 1.0), ("Cy", 5.0), ("Dee", 9.0)]
    figures = measure(records, [], [0.0], taps)
    assert figures["moves_said_by_both_voices"] == 2
    assert figures["moves_said_twice_at_once"] == 1


def test_a_question_said_after_a_move_answered_it_is_counted_and_one_said_while_open_is_not():
    """Her `pile` asks "Any Neigh for Ben's Yay?"; Cy's Neigh is recorded before her reply says the question (said
    after its answer), and Dee's draw after the table voice said the next question (said while open)."""
    from benchmarks.table_hands import questions_after_answer

    question, neigh = "Any Neigh for Ben's Yay?", "Any Neigh for Cy's Neigh?"
    records = [
        {"shown": 1.0, "own": True, "speech": f"The pile: Ben's Yay. {question}", "moves": {}, "win": False},
        {**_utterance(0, 1.01, f"The pile: Ben's Yay. {question}", other=False), "question": question},
        _sentence(0, 1.02, 1.5, "The pile: Ben's Yay."),
        {
            "shown": 2.0,
            "own": False,
            "speech": f"Cy played Neigh. {neigh}",
            "moves": {"4": ["Cy", "NEIGH"]},
            "win": False,
        },  # fmt: skip
        _sentence(0, 2.6, 1.2, question),  # said after Cy's Neigh closed it
        {**_utterance(1, 3.9, f"Cy played Neigh. {neigh}", other=True), "question": neigh},
        _sentence(1, 3.9, 0.9, "Cy played Neigh."),
        _sentence(1, 4.8, 1.0, neigh),  # still open: said in time
        {"shown": 6.0, "own": False, "speech": "Dee drew a card.", "moves": {"5": ["Dee", "DRAW"]}, "win": False},
    ]
    assert questions_after_answer(records) == [question]
    assert measure(records, [], [0.9], [("Cy", 1.95), ("Dee", 5.95)])["questions_after_their_answer"] == [question]


def test_the_table_voices_backends_are_found_to_mark_its_sounds():
    """The sounds of the table voice are told from hers by its backends (`_note_sounds`): looked for where the service
    keeps them, its worker (they were looked for on the service itself after the service was split, found none, and
    her voice was measured on both voices' sounds, the table voice on none)."""
    from assistant.speech import SpeechService
    from benchmarks.table_hands import table_backends
    from tests.recording_backend import RecordingBackend

    backend = RecordingBackend()
    service = SpeechService(backend)
    try:
        assert table_backends(service) == [backend]
    finally:
        service.close()
    assert table_backends(None) == []


def test_her_reply_said_without_the_question_a_move_closed_is_heard():
    """Her `pile` shown with "Any Neigh for Ben's Basic Unicorn (Blue)?" at its end; Ben's card entered his Stable
    before her reply's turn to be said, so it was said without the question: heard, not never heard."""
    speech = "The pile, from the top: Ben's Basic Unicorn (Blue). Any Neigh for Ben's Basic Unicorn (Blue)?"
    records = [
        {"shown": 1.0, "own": True, "speech": speech, "moves": {}, "win": False},
        _utterance(0, 1.2, "The pile, from the top: Ben's Basic Unicorn (Blue).", other=False),
        _sentence(0, 1.25, 1.0),
        {"utterance_done": 0, "at": 2.3},
        {"shown": 3.0, "own": True, "speech": "Turn 6, Ben's Action phase.", "moves": {}, "win": False},
        _utterance(1, 3.1, "Ben's Stable: nothing.", other=False),  # (another reply: not hers of 3.0)
    ]
    figures = measure(records, [], [0.9, 2.9], [])
    assert figures["own_words_ms"]["count"] == 1 and figures["own_words_ms"]["median"] == 350.0
    assert figures["own_never_heard"] == ["Turn 6, Ben's Action phase."]
