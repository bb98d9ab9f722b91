"""Every sentence the app says or prints, one module per subject, each with its `__all__`: import a sentence from
its module (`from assistant.core.words.kinds import describe_event`). Pure functions only, so the plain mode, the
Textual screen and the speech say the same words, and the wording is reviewed and tested as data."""
