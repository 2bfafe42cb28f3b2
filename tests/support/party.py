"""A table seated as the tests of actions seat it: its GM, two players and a spectator."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tabletop import services
from tabletop.models import Membership, Role, Table


def seat_four(tag: str, system: str, name: str) -> tuple[Table, Membership, Membership, Membership, Membership]:
    """A table of ``system``: its GM (Gail, so that two tables' logs name her alike), two players
    (Ann and Bob) and a spectator, each with its user read along."""
    gm_user = get_user_model().objects.create_user(f"gm-{tag}")
    table = services.table_create(gm=gm_user, name=name, system=system)
    gm = table.members.get(role=Role.GM)
    services.membership_rename(target=gm, actor=gm, display_name="Gail")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann, bob = (services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                         display_name=who) for who in ("Ann", "Bob"))
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    return table, gm, ann, bob, watcher
