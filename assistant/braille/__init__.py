"""Braille: the abbreviation maps, translation with liblouis, the card resolver, labels for deck makers.

liblouis and rapidfuzz are imported inside functions, so importing this package stays cheap.
"""
