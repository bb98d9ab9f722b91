"""Braille labels for deck makers, written by the real command and read back through liblouis."""

import pytest

from assistant.braille.embossing import BRF_LINES
from assistant.braille.maps import deck_abbreviations, load_braille_map
from assistant.commands.labels import write_braille_labels
from assistant.storage.decks import load_deck
from assistant.storage.paths import braille_map_dir


@pytest.fixture(scope="module")
def written(cli, tmp_path_factory):
    folder = tmp_path_factory.mktemp("labels")
    braille, brf = str(folder / "uu-2nd.txt"), str(folder / "uu-2nd.brf")
    result = cli("labels", "uu-2nd", "--braille", braille, "--brf", brf, home=folder / "home")  # not the player's
    assert result.returncode == 0, result.stderr
    return folder, result


def test_the_command_says_what_it_wrote(written):
    folder, result = written
    lines = result.stdout.splitlines()
    assert lines == [
        f"Wrote 84 braille labels to {folder / 'uu-2nd.txt'} (Unicode braille text).",
        f"Wrote 84 braille labels to {folder / 'uu-2nd.brf'} (braille-ready file).",
    ]


def test_the_text_file_has_every_card_and_its_cells_read_back_to_the_label(written):
    import louis

    folder, _ = written
    deck = load_deck("uu-2nd")
    labels = load_braille_map(deck, braille_map_dir()).abbreviations
    rows = [line.split("\t") for line in (folder / "uu-2nd.txt").read_text(encoding="utf-8").splitlines()[3:]]
    assert len(rows) == len(deck.cards)
    for card, (cells, text, name, copies, where) in zip(deck.cards, rows):
        assert (text, name) == (labels[card.id].text, card.name)
        assert louis.backTranslateString(["unicode.dis", "en-ueb-g1.ctb"], cells) == text
        assert copies.startswith(f"{card.copies} cop") and where.startswith("page ")


def test_the_brf_file_has_one_label_per_copy_in_pages_an_embosser_reads(written):
    import louis

    folder, _ = written
    deck = load_deck("uu-2nd")
    labels = load_braille_map(deck, braille_map_dir()).abbreviations
    data = (folder / "uu-2nd.brf").read_bytes()
    assert data.isascii()
    pages = data.decode("ascii").split("\f")
    lines = [line for page in pages for line in page.split("\r\n")[:-1]]
    assert all(page.endswith("\r\n") for page in pages)
    assert all(len(page.split("\r\n")) - 1 <= BRF_LINES for page in pages)
    assert len(pages) == -(-deck.total_copies // BRF_LINES)
    expected = [labels[card.id].text for card in deck.cards for _ in range(card.copies)]
    read = [louis.backTranslateString(["en-us-brf.dis", "en-ueb-g1.ctb"], line) for line in lines]
    assert read == expected
    assert all(len(line) <= 40 for line in lines)


def test_the_sheet_says_where_each_label_is_in_the_brf_file(written):
    import louis

    folder, _ = written
    rows = [line.split("\t") for line in (folder / "uu-2nd.txt").read_text(encoding="utf-8").splitlines()[3:]]
    brf_pages = (folder / "uu-2nd.brf").read_bytes().decode("ascii").split("\f")
    for _cells, text, _name, _copies, where in rows[::7]:
        _, page, _, line = where.split()
        brf_line = brf_pages[int(page) - 1].split("\r\n")[int(line) - 1]
        assert louis.backTranslateString(["en-us-brf.dis", "en-ueb-g1.ctb"], brf_line) == text


def test_an_unwritable_file_is_a_message_and_status_2(tmp_path, capsys):
    deck = load_deck("uu-2nd")
    status = write_braille_labels(deck, deck_abbreviations(deck, braille_map_dir()), tmp_path / "gone" / "x.txt", None)
    assert status == 2
    assert "Could not write" in capsys.readouterr().err


def test_an_unknown_deck_is_a_message_not_a_traceback(cli, tmp_path):
    result = cli("labels", "no-such-deck", "--braille", str(tmp_path / "x.txt"))
    assert result.returncode == 2
    assert "No deck called 'no-such-deck'" in result.stderr and "Traceback" not in result.stderr
