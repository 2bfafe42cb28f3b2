"""Every game system the tabletop knows.

A system is one package (or one module) under ``games/`` exposing ``SYSTEM``
(``games.contract.GameSystem``): docs/adding-a-system.md, "The package skeleton".
Adding one edits ``PACKAGES`` and nothing else on the platform's side; every system listed
there is offered.
"""

from __future__ import annotations

from importlib import import_module

from games.contract import Check, GameSystem, Page, Panel, Visibility

__all__ = [
    "Check", "GameSystem", "Page", "Panel", "SYSTEMS", "UnknownSystem",
    "Visibility", "get",
]

# The registration line: the packages under games/ that are systems, in the order offered.
PACKAGES = ("freeform", "demon_city", "report_card", "harsh_light", "shadows", "passages")


class UnknownSystem(LookupError):
    pass


class BadRegistration(TypeError):
    """A system's registration lacks a part another part needs."""


def check_registration(system: GameSystem) -> GameSystem:
    """Refuses, at import, a registration the platform could not serve, naming the fault."""
    def need(ok: object, what: str) -> None:
        if not ok:
            raise BadRegistration(f"{system.key}: {what}")

    need(system.key.isidentifier() and system.key.islower(), "a key is a lower-case identifier")
    need(system.clean_sheet is not None, "a system cleans its sheet")
    need(any(not s.npc for s in system.samples) and any(s.npc for s in system.samples),
         "a system gives sample characters: a player's and an NPC")
    # the table page shows a system's forms and answers them through its panel's templates
    need(not (system.commands or system.checks) or system.panel is not None, "commands and checks need a panel")
    for parts, kind in ((system.commands, "command"), (system.checks, "check"), (system.pages, "page")):
        names = [getattr(p, "slug" if kind == "page" else "name") for p in parts]
        need(len(set(names)) == len(names), f"two {kind}s share a name")
        need(all(n.isidentifier() for n in names), f"a {kind}'s name is an identifier")
    need(system.engine is None or bool(system.engine.events), "an engine folds the events it emits")
    need(all(m.subject for m in system.commands if m.sender == "controller"),
         "a move a player may send names its subject (the argument holding the character it is for)")
    need(system.fights is None or system.command(system.fights.end) is not None,
         "a system's fights name the move that ends one among its commands")
    emitted = system.event_kinds()
    undeclared = sorted(emitted - set(system.audience_rules))
    need(not undeclared, f"no audience declared for {', '.join(undeclared)} (secret is the default; say who sees it)")
    unknown = sorted(set(system.audience_rules) - emitted)
    need(not unknown, f"an audience for an event it never emits: {', '.join(unknown)}")
    return system


def _load() -> dict[str, GameSystem]:
    systems: dict[str, GameSystem] = {}
    for package in PACKAGES:
        system = check_registration(import_module(f"games.{package}").SYSTEM)
        if system.key != package:
            raise BadRegistration(f"games.{package} registers the key {system.key!r}")
        systems[system.key] = system
    return systems


SYSTEMS: dict[str, GameSystem] = _load()


def get(key: str) -> GameSystem:
    """The system with this key; ``UnknownSystem`` otherwise."""
    try:
        return SYSTEMS[key]
    except KeyError:
        raise UnknownSystem(f"No game system called {key!r}.") from None
