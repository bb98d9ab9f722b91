"""User interfaces: the Textual app (`app.py`) and the plain line mode (`plain.py`)."""
