"""`python -m assistant` does what the `table-assistant` command does."""

from assistant.cli import main

raise SystemExit(main())
