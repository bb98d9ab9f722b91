"""Every sentence the app says or prints, made from cards, events and state, one module per subject.

Pure functions only, so the plain mode, the Textual screen and the speech say the same words, and the wording
is tested as data. Sentences are short and free of symbols a speech engine would mangle. The words only phrase:
every rule decision (what may be done now, what is important) is the core's, passed in.

`from assistant.core import words` gives every sentence by name; each lives in the module of its subject.
"""

from assistant.core.text import *  # noqa: F403
from assistant.core.words.announce import *  # noqa: F403
from assistant.core.words.cardtext import *  # noqa: F403
from assistant.core.words.entry import *  # noqa: F403
from assistant.core.words.errors import *  # noqa: F403
from assistant.core.words.gameplay import *  # noqa: F403
from assistant.core.words.position import *  # noqa: F403
from assistant.core.words.scans import *  # noqa: F403
from assistant.core.words.screen import *  # noqa: F403
from assistant.core.words.voice import *  # noqa: F403
