"""The benchmarks run in the project's virtualenv: imported first by every script (and by every
module here that needs a project package), it re-executes the script with ``.venv/bin/python``
when another python started it (``bench/latency`` from a shell runs the system's)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def _reexec_in_venv() -> None:
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve():
        return
    if not VENV_PYTHON.exists():
        sys.exit(f"No virtualenv at {ROOT / '.venv'}: run `make install-dev` first.")
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), sys.argv[0], *sys.argv[1:]])


_reexec_in_venv()
