"""The outage benchmark's timing of a reply: by the piece of the terminal's output that completed it."""

from benchmarks.outage_rig import completed_at


def test_a_text_is_timed_by_the_piece_that_completed_it_not_by_a_later_one():
    pieces = [(1.0, b"ab"), (2.0, b"cX"), (3.0, b"Y and"), (4.0, b" more XY"), (5.0, b" done")]
    assert completed_at(pieces, "XY", 1) == 3.0  # split across two pieces: the second completed it
    assert completed_at(pieces, "XY", 2) == 4.0
    assert completed_at(pieces, "XY", 3) is None
    assert completed_at(pieces, "ab", 1) == 1.0
    assert completed_at(pieces, "done", 1) == 5.0
    assert completed_at([], "XY", 1) is None
    assert completed_at([(1.0, "Ben\u2019s turn.".encode())], "Ben\u2019s turn.", 1) == 1.0
