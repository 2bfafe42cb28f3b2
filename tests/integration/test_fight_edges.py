"""Issue 33, the platform's side of a fight's edges, on a test-only system (tests/support/skirmish.py):
"When one side has no one able to act, every seat reads 'The fight is over: <side> stands', no new
round or Turn starts by itself, and the GM has 'End the fight' at the top of the panel." Sides
are "PCs and NPCs by default; the GM may move one"."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.models import Event, Role
from tests.support import skirmish

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(monkeypatch):
    monkeypatch.setitem(registry.SYSTEMS, "skirmish", registry.check_registration(skirmish.SYSTEM))
    table = services.table_create(gm=get_user_model().objects.create_user("sk-gm", password="a long gm password 1"),
                                  name="Brawl", system="skirmish")
    gm = table.members.get(role=Role.GM)
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann")
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    hero = services.character_create(table=table, actor=ann, name="Hero", sheet={})
    foe = services.character_create(table=table, actor=gm, name="Foe", npc=True, sheet={})
    clients = {}
    for key, member in (("gm", gm), ("ann", ann), ("watcher", watcher)):
        clients[key] = Client()
        clients[key].force_login(member.user)
    return {"table": table, "hero": hero, "foe": foe, "clients": clients}


def post(f, who, command, data):
    return f["clients"][who].post(reverse("table_command", args=[f["table"].pk, command]), data,
                                  HTTP_HX_REQUEST="true")


def banner(f, who) -> str:
    page = f["clients"][who].get(reverse("table", args=[f["table"].pk])).content.decode()
    start = page.index('<div id="turn-banner"')
    return page[start:page.index("</div>", start)]


def test_every_seat_reads_the_fight_is_over_and_the_gm_alone_may_end_it(fight) -> None:
    assert post(fight, "gm", "start", {"characters": [fight["hero"].pk, fight["foe"].pk]}).status_code == 200
    assert all("The fight is over" not in banner(fight, who) for who in ("gm", "ann", "watcher"))
    assert post(fight, "gm", "down", {"combatant": f"c{fight['foe'].pk}"}).status_code == 200
    end_url = reverse("table_command", args=[fight["table"].pk, "end"])
    for who in ("gm", "ann", "watcher"):
        said = banner(fight, who)
        assert "The fight is over: the PCs&#x27; side stands." in said, who
        assert (end_url in said and "End the fight" in said) == (who == "gm"), who
    # the out cannot be hit again
    before = Event.objects.filter(table=fight["table"]).count()
    refused = post(fight, "gm", "down", {"combatant": f"c{fight['foe'].pk}"})
    assert refused.status_code == 400 and "Foe is down and cannot be knocked down" in refused.content.decode()
    assert Event.objects.filter(table=fight["table"]).count() == before
    # the banner's button ends it, and the banner clears
    assert fight["clients"]["gm"].post(end_url, {}, HTTP_HX_REQUEST="true").status_code == 200
    assert all("The fight is over" not in banner(fight, who) for who in ("gm", "ann", "watcher"))


def test_the_gm_moves_a_character_to_another_side_and_the_fight_reads_it(fight) -> None:
    assert post(fight, "gm", "start", {"characters": [fight["hero"].pk, fight["foe"].pk]}).status_code == 200
    # a player may not move anyone
    assert post(fight, "ann", "set_side", {"character": fight["foe"].pk, "side": "PCs"}).status_code == 400
    assert post(fight, "gm", "set_side", {"character": fight["foe"].pk, "side": "PCs"}).status_code == 200
    assert Event.objects.filter(table=fight["table"], kind="skirmish.side_set").exists()
    # one side alone: nobody has been fought, so the fight is not over
    assert "The fight is over" not in banner(fight, "gm")
    assert post(fight, "gm", "set_side", {"character": fight["foe"].pk, "side": "Rebels"}).status_code == 200
    assert post(fight, "gm", "down", {"combatant": f"c{fight['hero'].pk}"}).status_code == 200
    assert "The fight is over: the Rebels&#x27; side stands." in banner(fight, "ann")
    refused = post(fight, "gm", "set_side", {"character": fight["foe"].pk, "side": "x" * 41})
    assert refused.status_code == 400 and "at most 40 characters" in refused.content.decode()
