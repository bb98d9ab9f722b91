"""Braille without liblouis: the abbreviation rule, the map files, Unicode cells, six-key entry."""
