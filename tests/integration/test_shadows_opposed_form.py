"""The GM's opposed-action form offers as many sides as the rules take (seed 000: "two or more
people trying to argue a point to convince additional parties"; the engine takes up to six)."""

from __future__ import annotations

import re

from django.urls import reverse

from tabletop import services
from tabletop.models import Event
from tests.integration.test_shadows_table import ok, sh, stack  # noqa: F401 (sh is a fixture)


def test_the_opposed_form_offers_six_sides_and_an_opposed_action_of_six_resolves(sh) -> None:
    more = [services.character_create(table=sh["table"], actor=sh["gm"], name=name, npc=True,
                                      sheet={"quickness": 4, "mind": 2 + i})
            for i, name in enumerate(("Crow", "Hound", "Wight"))]
    page = sh["clients"]["gm"].get(reverse("table", args=[sh["table"].pk])).content.decode()
    form = page[page.index(reverse("table_command", args=[sh["table"].pk, "opposed"])):]
    form = form[: form.index("</form>")]
    assert re.findall(r'name="character_([a-z])"', form) == list("abcdef")
    # the third to sixth may be nobody: an opposed action of two stays the default
    assert form.count('<option value="">nobody else</option>') == 4
    people = [sh["alma"], sh["bram"], sh["ghoul"], *more]
    stack(sh, ["S2", "S3", "S4", "S5", "S6", "S14", "S7"])
    ok(sh, "gm", "opposed", **{f"character_{tag}": person.pk for tag, person in zip("abcdef", people)},
       **{f"attribute_{tag}": "mind" for tag in "abcdef"})
    [made] = Event.objects.filter(table=sh["table"], kind="shadows.opposed_resolved")
    sides = made.payload["event"].get("shown_sides") or made.payload["event"]["sides"]
    assert [s["name"] for s in sides] == ["Alma", "Bram", "Ghoul", "Crow", "Hound", "Wight"]
    assert len(made.payload["event"]["totals"]) == 6
