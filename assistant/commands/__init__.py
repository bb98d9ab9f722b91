"""Sub-commands of `table-assistant`, one module each (see `assistant/cli.py`)."""
