"""axe-core (axe-playwright-python ships it), run in the page as a person finally sees it: after
every animation has run (a card dealt live slides in, a die tumbles), since a colour read halfway
through a fade is no colour a reader meets."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

SERIOUS = ("serious", "critical")
SETTLED_JS = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def serious_violations(page, where: str | None = None) -> list[str]:
    """axe-core's serious and critical violations on the page (or the part ``where`` selects)."""
    page.wait_for_function(SETTLED_JS, timeout=10_000)
    results = Axe().run(page, where) if where else Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[(n['target'], n.get('failureSummary', '')[:200]) for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v.get("impact") in SERIOUS]
