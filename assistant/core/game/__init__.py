"""The game engine: events, the position, the rules, checks and moves, the chain, the tally, the log."""
