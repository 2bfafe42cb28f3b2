"""Whether this process is a daphne serving the application.

Settings import daphne's server module in every process (``daphne`` is an installed app), so
its presence says nothing; what started the process does.
"""

from __future__ import annotations

import sys
from pathlib import Path


def under_daphne() -> bool:
    """True in a process started by daphne's command line: ``daphne …`` or ``python -m daphne …``."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("daphne", "daphne.__main__"):
        return True
    return bool(sys.argv) and Path(sys.argv[0]).name == "daphne"
