"""The pure core: cards, rules, game state and every sentence the app says.

Standard library only. Adapters (storage, scanner, braille, speech, ui) import the core; the core never
imports them. `tests/test_architecture.py` checks this in a fresh interpreter.
"""
