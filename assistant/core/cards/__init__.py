"""Cards and decks: the values, the card-text format, the owner's reference sheet, look-up and search."""
