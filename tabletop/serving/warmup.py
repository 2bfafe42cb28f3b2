"""A serving process loads what it will need before its first request, then sets it aside
from the garbage collector.

Python's cyclic collector stops the whole process while it walks every tracked object: a
full collection of a freshly started daphne (100 000 objects: Django, Twisted, the compiled
templates) took 65 ms on the project's machine, and one came every few hundred requests,
so a roll now and then reached the table 60-170 ms late (the tail of bench/latency;
docs/performance.md). The modules, URL patterns and templates loaded at start live as long
as the process, so after loading them ``gc.freeze()`` moves them out of every later
collection; what requests and sockets create is collected as before.

``serving.install`` calls ``settle`` last, in a daphne process only: not in the tests that
import the application.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

from django.template import TemplateDoesNotExist, TemplateSyntaxError, engines
from django.urls import get_resolver

logger = logging.getLogger(__name__)


def settle() -> bool:
    """Loads the URL patterns (and so every view) and compiles every project template, then
    freezes what the process holds; True when it ran."""
    get_resolver().url_patterns  # noqa: B018 -- imports the URL conf and the views
    for engine in engines.all():  # Django's, and Jinja2's for the log's lines
        for folder in engine.dirs:
            root = Path(folder)
            for path in sorted(root.rglob("*.html")):
                try:
                    engine.get_template(path.relative_to(root).as_posix())
                except (TemplateDoesNotExist, TemplateSyntaxError):
                    logger.warning("template %s did not load at start", path, exc_info=True)
    gc.collect()
    gc.freeze()
    return True
