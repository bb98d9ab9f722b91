"""Storage adapter: every file the app reads or writes (deck files, imports, settings, saved games)."""
