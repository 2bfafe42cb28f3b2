"""Creates the demo GM and a Demon City table with people, characters, a deck and a short
history, once; prints how to get in (the GM's login, the links, each player's seat link).
``--system <key>`` makes a demo table of another system instead, seated with its sample
characters (GameSystem.samples). Safe to run again: an existing demo table is left as it is."""

from __future__ import annotations

import hashlib
import os
import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from games import registry
from games.core.rng import Rng, system_rng
from tabletop import selectors, services
from tabletop.models import Character, Membership, Role, Table

DEMO_USER = "demo-gm"
DEMO_TABLE = "Night Shift at Saint Ursula's"
SYSTEM = "demon_city"  # the demo's content may name a system; nothing else under tabletop/ does

PLAYERS = (
    ("Mara", "Sister Agnes", {"agility": "3", "toughness": "3", "hand_to_hand": "2",
                              "skills": "Exorcism: 5\nLatin: 4", "side": "players",
                              "notes": "Knows every corridor of the old wing."}),
    ("Theo", "Danny Cruz", {"agility": "4", "toughness": "4", "firearms": "4",
                            "skills": "Driving: 6", "side": "players",
                            "notes": "Night porter; keeps a revolver in his locker."}),
)
# The decks a system's table plays with from its first move, brought out as the GM's buttons
# would: a Shadows table draws every action from the Minor Arcana and keeps fate in the Major.
DECKS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "shadows": (("minor_arcana", "Minor Arcana", False), ("major_arcana", "Major Arcana", True)),
}
NPCS = (
    ("The Thing in the Chapel", {"agility": "2", "toughness": "6", "hand_to_hand": "5",
                                 "supernatural": "on", "side": "demons"}),
    ("Orderly Kemp", {"agility": "3", "toughness": "3", "hand_to_hand": "2", "side": "demons"}),
)


SERVED_AT = ".served_at"  # written by `make run` (its HOST and PORT): the address it serves


def served_at() -> str:
    """Where the demo's links point: the PORT of this shell when it names one (`make run` passes
    it), else the address `make run` last served (so `python manage.py demo` typed by hand
    afterwards prints the links that work), else the default port."""
    if os.environ.get("PORT"):
        return f"http://127.0.0.1:{os.environ['PORT']}"
    try:
        written = (settings.BASE_DIR / SERVED_AT).read_text().strip()
    except OSError:
        written = ""
    return written if written.startswith(("http://", "https://")) else "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = "Create a demo GM and a Demon City table if missing; print the logins and links."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--base-url",
            default=None,
            help="Where the server answers (default: $PORT's address, else where `make run` last "
                 "served, else http://127.0.0.1:8000).",
        )
        parser.add_argument("--system", default=SYSTEM, choices=list(registry.SYSTEMS),
                            help="The demo table's system (default: Demon City's, with a story so far).")

    def handle(self, *args: Any, base_url: str | None = None, system: str = SYSTEM, **options: Any) -> None:
        base_url = base_url or served_at()
        users = get_user_model()
        # The demo password is derived from SECRET_KEY: stable across runs, unguessable elsewhere.
        password = "demo-" + hashlib.sha256(f"demo:{settings.SECRET_KEY}".encode()).hexdigest()[:12]
        gm_user, created = users.objects.get_or_create(username=DEMO_USER)
        if created or not gm_user.check_password(password):
            gm_user.set_password(password)
            gm_user.save()
        name = DEMO_TABLE if system == SYSTEM else f"Demo: {registry.get(system).name}"
        table = Table.objects.filter(gm=gm_user, name=name).first()
        if table is None:
            with transaction.atomic():  # all of it or nothing, so a second run never finds half a table
                table = self._set_the_table(gm_user) if system == SYSTEM else self._seat_samples(gm_user, system, name)
        base = base_url.rstrip("/")
        self.stdout.write(f"GM: {DEMO_USER} / {password}")
        self.stdout.write(f"Player link: {base}{reverse('join', args=[table.player_token])}")
        self.stdout.write(f"Spectator link: {base}{reverse('watch', args=[table.spectator_token])}")
        self.stdout.write(f"Table: {base}{reverse('table', args=[table.pk])}")
        for member in table.members.filter(role=Role.PLAYER, removed_at=None):
            self.stdout.write(f"{member.display_name}'s seat: {base}{reverse('seat', args=[member.seat_token])}")

    def _set_the_table(self, gm_user: Any) -> Table:
        """A table a visitor can read at a glance: two players with their characters, two NPCs,
        a Tarot deck in use, a few lines of play, and an Action Round where the Thing has
        announced and Sister Agnes is next."""
        rng: Rng = random.Random(3)
        table = services.table_create(gm=gm_user, name=DEMO_TABLE, system=SYSTEM)
        table.members.filter(role=Role.GM).update(display_name="The Host")  # how players know the GM
        gm = table.members.get(role=Role.GM)
        people: dict[str, Membership] = {}
        characters = []
        for player, name, sheet in PLAYERS:
            member = services.membership_join(table=table, user=services.guest_user_create(),
                                              role=Role.PLAYER, display_name=player)
            people[player] = member
            characters.append(services.character_create(table=table, actor=member, name=name, sheet=sheet))
        for name, sheet in NPCS:
            characters.append(services.character_create(table=table, actor=gm, name=name, sheet=sheet, npc=True))
        services.chat_post(table=table, actor=gm, text="3:12 a.m. The chapel doors stand open; the candles are lit.")
        services.chat_post(table=table, actor=people["Theo"], text="Danny checks his revolver. Five rounds.")
        deck = services.deck_create(table=table, actor=gm, kind="tarot", rng=rng, name="Fate",
                                    players_may_use=True, allow_reversed=True)
        drawn = services.pile_draw(deck=deck, actor=people["Mara"], count=3)
        services.card_play(table=table, actor=people["Mara"], deck_id=deck.pk, card_id=drawn[0].removesuffix("/r"))
        services.dice_roll(table=table, actor=people["Theo"], notation="1d10", mode="public", rng=rng)
        services.chat_post(table=table, actor=people["Mara"], text="Agnes raises her crucifix and steps inside.")
        # the chapel on the felt: everyone's token but Orderly Kemp's, who has not been seen yet
        self._set_the_scene(table, gm, "The chapel, 3 a.m.", "#3d3a4f", characters,
                            hidden={"Orderly Kemp"}, at={"Sister Agnes": (0.22, 0.75), "Danny Cruz": (0.14, 0.62),
                                                         "The Thing in the Chapel": (0.78, 0.3),
                                                         "Orderly Kemp": (0.9, 0.85)})
        game = registry.get(SYSTEM)
        start = game.command("start")
        assert start is not None
        facts = selectors.table_facts(Table.objects.get(pk=table.pk))
        args = start.parse({"characters": [str(c.pk) for c in characters]}, facts)
        services.procedure_command(table=table, actor=gm, command={**args, "type": "start"}, rng=rng)
        announce = game.command("announce")
        assert announce is not None
        thing = next(c for c in characters if c.name == "The Thing in the Chapel")
        agnes = next(c for c in characters if c.name == "Sister Agnes")
        facts = selectors.table_facts(Table.objects.get(pk=table.pk))
        for who, target, what in ((thing, agnes, "lunges out of the dark at Agnes"),):
            args = announce.parse({"combatant": [facts.character(who.pk).cid], "kind": ["melee"],
                                   "target": [facts.character(target.pk).cid], "description": [what]}, facts)
            services.procedure_command(table=table, actor=gm, command={**args, "type": "announce"}, rng=rng)
        return Table.objects.get(pk=table.pk)

    def _seat_samples(self, gm_user: Any, system: str, name: str) -> Table:
        """A table of ``system`` with two players, each with a sample character, and the samples' NPCs."""
        game = registry.get(system)
        table = services.table_create(gm=gm_user, name=name, system=system)
        gm = table.members.get(role=Role.GM)
        if system == "freeform":  # its samples stand on a designed sheet: the table's own, as its GM would design it
            from games.freeform.samples import SAMPLE_DESIGN
            from tabletop.services.designed import design_save
            design_save(table=table, actor=gm, design=SAMPLE_DESIGN)
        pcs = [s for s in game.samples if not s.npc]
        for i, player in enumerate(("Mara", "Theo")):
            member = services.membership_join(table=table, user=services.guest_user_create(),
                                              role=Role.PLAYER, display_name=player)
            sample = pcs[i % len(pcs)]
            services.character_create(table=table, actor=member, sheet=sample.sheet,
                                      name=sample.name if i < len(pcs) else f"{sample.name} {i + 1}")
        for sample in (s for s in game.samples if s.npc):
            services.character_create(table=table, actor=gm, name=sample.name, sheet=sample.sheet, npc=True)
        for kind, deck_name, reversed_ in DECKS.get(system, ()):
            services.deck_create(table=table, actor=gm, kind=kind, rng=system_rng(), name=deck_name,
                                 allow_reversed=reversed_)
        services.chat_post(table=table, actor=gm, text=f"Welcome to {game.name}: the table is set.")
        self._set_the_scene(table, gm, "Where it begins", "#4a6741",
                            list(Character.objects.filter(table=table).order_by("pk")))
        return Table.objects.get(pk=table.pk)

    @staticmethod
    def _set_the_scene(table: Table, gm: Membership, name: str, colour: str, characters: list[Character],
                       hidden: frozenset[str] | set[str] = frozenset(),
                       at: dict[str, tuple[float, float]] | None = None) -> None:
        """A plain board, shown, with a token for each character (``hidden`` ones the GM's alone),
        ``at`` its place (fractions of the board's width and height) where given."""
        scene = services.scene_create(table=table, actor=gm, name=name, colour=colour, shape="wide")
        for character in characters:
            token = services.token_place(scene=scene, character=character, actor=gm, hidden=character.name in hidden)
            if at and character.name in at:
                x, y = at[character.name]
                services.token_move(token=token, actor=gm, x=round(scene.width * x), y=round(scene.height * y))
        services.scene_show(scene=scene, actor=gm)
