"""The deck chosen on the `new game` line is the deck everywhere: a Llamas Unleashed game started from the default
deck reads the Llamas braille labels as a player types them off the cards, in the plain mode run as a player runs
it; the help names its cards in its words; an imported sheet's Goats make a herd and offer their Herd Bonus."""

from __future__ import annotations

SCRIPT = """gin-rammy
new game Ana Ben Cy deck llamas
m ginrammy
m gin-rammy
m llamadon
dg ramifications
m magical alpacacorn
ug studlife
help
help commands all
"""


def test_a_llamas_game_started_on_the_default_deck_reads_the_llamas_labels(cli, tmp_path):
    result = cli("--plain", "--no-speech", stdin=SCRIPT, home=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    lines = out.splitlines()
    assert lines[1] == "Deck: Unstable Unicorns, 2nd Edition base game."
    # before the game, the default deck has no such card; once it starts, every label is a Llamas card
    assert lines[2].startswith("No card called gin-rammy")
    named = [lines[i - 1] for i, line in enumerate(lines) if line.startswith("Type: ")]
    assert named == [
        "Gin Rammy",
        "Gin Rammy",
        "Prehistoric Llamadon",
        "Legal Ramifications",
        "Magical Alpacacorn",
        "#Studlife",
    ]
    assert "Llamacorn" not in named and "No card called m" not in out
    short = out[out.index("Help: type help.") : out.index("Type a card name, part of a name")]  # the plain mode's
    assert "rainbow aura" not in short.lower() and "Neigh" not in short and "play #studlife" in short
    help_text = out[out.index("new game Ana Ben Cy: a new game") :]
    assert "rainbow aura" not in help_text.lower() and "neigh Ben" not in help_text
    assert "Ben play CARD (an Instant, while a card is on the pile): Ben answers with that Instant." in help_text
    assert "into Ana's Field" in help_text and "Stable" not in help_text
    assert "Traceback" not in result.stderr


SHEET = """name,type,text,copies
# our table's own sheet: a comment line
#Llamagram,Magical Llama card,"When this card enters your Field, you may draw a card.",1
Grumpy Goat,Basic Goat card,A goat with no effect.,3
Baby Ram,Baby Ram,A baby ram.,1
No Way,Instant,Play this card when any other player tries to play a card. Stop that card from being played.,2
"""


def test_imported_goats_make_a_herd_that_offers_the_goat_herd_bonus_to_read_on_the_reference_card(cli, tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    home = tmp_path / "home"
    imported = cli("deck", "import", str(sheet), "--base", "llamas", home=home)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert "3 are new" in imported.stdout
    game = "\n".join(
        [
            "new game Ana Ben Cy deck llamas",
            "draw",
            *["bring grumpy goat into Ben"] * 3,
            "stable Ben",
            "end turn",
            "#llamagram",
        ]
    )
    result = cli("--plain", "--no-speech", stdin=game + "\n", home=home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Ben's herd: 3 Goats." in lines
    bonus = next(line for line in lines if line.startswith("Goat Herd Bonus: "))
    assert bonus.startswith("Goat Herd Bonus: Printed on the back of your reference card")
    assert "Goat Herd Bonus, a colon and its text" in bonus
    assert lines[lines.index("#Llamagram") + 1 :][:3] == ["Type: Magical Animal", "Copies in the deck: 1",
                                                          "Variation: llama"]  # fmt: skip


def test_a_herd_bonus_from_the_sheet_is_read_in_place_of_the_deck_s(cli, tmp_path):
    home = tmp_path / "home"
    both = tmp_path / "both.csv"
    both.write_text("Grumpy Goat,Basic Goat,A goat.,3\nGoat,Herd Bonus,Each other player discards a card.,\n")
    imported = cli("deck", "import", str(both), "--base", "llamas", home=home)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert "Goat Herd Bonus from your sheet" in imported.stdout
    game = "new game Ana Ben deck llamas\ndraw\n" + "bring grumpy goat into Ben\n" * 3 + "end turn\n"
    lines = cli("--plain", "--no-speech", stdin=game, home=home).stdout.splitlines()
    bonus = next(line for line in lines if line.startswith("Goat Herd Bonus: "))
    assert bonus.startswith("Goat Herd Bonus: Each other player discards a card. Your reference sheet says so.")
