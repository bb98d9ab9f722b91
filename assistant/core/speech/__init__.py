"""The speech queue's rules and the speech settings as values."""
