"""A benchmark's daphne: ``python _serve.py --without NAME,… --probes NAME,… -- <daphne's arguments>``.

It runs daphne's own command line, as ``daphne …`` does, with two things only a measurement
wants: the speed-ups of tabletop/serving/ named by ``--without`` left out (to measure one
alone: ``bench/latency --without eager_writes``), and probes writing to daphne's log
(``_probes.py``: ``gc``, each full garbage collection; ``stalls``, each stall of the event
loop). A deployment runs daphne itself, with every speed-up and no probe.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from _venv import ROOT

PROBES = ("gc", "stalls")


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def serving_with(without: list[str], probes: list[str]) -> None:
    """Makes ``tabletop.asgi``'s call of ``serving.install`` leave out ``without`` and start
    ``probes`` once the application is built (the stall probe hooks into the live feed)."""
    import _probes

    from tabletop import serving

    install: Callable[..., Any] = partial(serving.install, without=without)

    def install_and_probe(application: Any) -> Any:
        application = install(application)
        if "gc" in probes:
            _probes.log_full_collections()
        if "stalls" in probes:
            _probes.watch_stalls()
        return application

    serving.install = install_and_probe  # type: ignore[assignment]


def main(argv: list[str]) -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    cli.add_argument("--without", type=_names, default=[])
    cli.add_argument("--probes", type=_names, default=[])
    cli.add_argument("daphne", nargs=argparse.REMAINDER, help="daphne's own arguments, after --")
    options = cli.parse_args(argv)
    if set(options.probes) - set(PROBES):
        cli.error(f"--probes: {', '.join(PROBES)}")
    sys.path.insert(0, str(ROOT))
    serving_with(options.without, options.probes)
    from daphne.cli import CommandLineInterface

    rest = options.daphne[1:] if options.daphne[:1] == ["--"] else options.daphne
    sys.argv = ["daphne", *rest]  # daphne's command line, as tabletop.serving.under_daphne reads it
    CommandLineInterface().run(rest)


if __name__ == "__main__":
    main(sys.argv[1:])
