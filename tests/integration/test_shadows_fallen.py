"""Fights that end, at a table (issue 22): a combatant with no Health left is down, with no Life
left dead; the panel every seat is sent offers it no action and nobody a blow at it, the next
round deals it nothing, and the form for the next fight leaves it unticked; its card says so.

Seed 000: damage to Health is how "to put someone down (for them to go unconscious or become
physically "incapacitated")"; weapons "deteriorate the enemy's life force" (Life)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tabletop import services
from tabletop.models import Character, Event
from tabletop.feed.seat import GM
from tests.integration.test_shadows_table import cid, dealt_fight, held, ok, post, sh, t  # noqa: F401
from tests.support.frames import logged, seat_frame

pytestmark = pytest.mark.django_db


def page(sh: dict[str, Any], who: str) -> str:
    return sh["clients"][who].get(reverse("table", args=[sh["table"].pk])).content.decode()


def targets(html: str, who: str) -> list[str]:
    """The names offered in ``who``'s attack form's "Whom" list (none: no form)."""
    form = re.search(rf"<form[^>]*aria-label=\"Attack for {who}\".*?</form>", html, re.S)
    if form is None:
        return []
    whom = re.search(r'name="target"[^>]*>(.*?)</select>', form.group(0), re.S)
    return re.findall(r"<option [^>]*>([^<]*)</option>", whom.group(1))


def test_a_ghoul_felled_is_offered_no_action_no_blow_and_no_hand_then_left_out_of_the_next_fight(sh) -> None:
    dealt_fight(sh)
    alma, ghoul, bram = cid(sh["alma"]), cid(sh["ghoul"]), cid(sh["bram"])
    # Bram fights for a side of his own, so that the fight goes on once the Ghoul falls (a fight
    # whose last foe falls is over, and starts no new round: issue 33)
    ok(sh, "gm", "set_side", character=sh["bram"].pk, side="Bram")
    gm_page = page(sh, "gm")
    assert targets(gm_page, "Alma") == ["Ghoul", "Bram"] and "Attack for Ghoul" in gm_page
    # the GM brings the Ghoul to 2 Health; Alma's Swords 12 + Melee 6 against Defence 5 fells it
    ok(sh, "gm", "adjust", combatant=ghoul, field="health", value="2")
    ok(sh, "ann", "attack", combatant=alma, target=ghoul, weapon="Blade", skill="melee", cards=[t("S5")])
    ok(sh, "gm", "defend", combatant=ghoul, cards=[])
    [resolved] = Event.objects.filter(table=sh["table"], kind="shadows.attack_resolved")
    assert resolved.summary.endswith("Ghoul is down.")
    for who in ("gm", "ann", "bob", "watcher"):
        html = page(sh, who)
        assert "Attack for Ghoul" not in html and "Act now for Ghoul" not in html
        assert "Ghoul" not in targets(html, "Alma") + targets(html, "Bram")
        assert re.search(r'class="combatant is-out"[^>]*data-combatant="%s".*?<span class="badge sh-fallen">down</span>'
                         % ghoul, html, re.S), who
    # the GM reads its Health as nothing of 30, not as a figure below nothing
    assert "Health <strong>0</strong>/30" in page(sh, "gm").split(f'data-combatant="{ghoul}"')[1].split("</li>")[0]
    # the blow that fells an NPC writes its tracks back at once: its card says it is down to all,
    # and its figures stay the GM's
    hidden = page(sh, "ann").split(f'id="character-{sh["ghoul"].pk}"')[1].split("</article>")[0]
    assert '<span class="tag">Down</span>' in hidden and "Health" not in hidden
    assert "Life now 14" in page(sh, "gm") and "Life now 14" not in page(sh, "ann")
    refused = post(sh, "bob", "attack", combatant=bram, target=ghoul, weapon="Blade", cards=[t("C9")])
    assert refused.status_code == 400 and "Ghoul is down" in refused.content.decode()
    # the next round asks the Ghoul no focus and deals it no hand (its hand is the GM's)
    ok(sh, "gm", "new_round")
    assert f'id="focus-{ghoul}"' not in page(sh, "gm") and f'id="focus-{alma}"' in page(sh, "gm")
    ok(sh, "ann", "declare_focus", combatant=alma, focus="physical")
    ok(sh, "bob", "declare_focus", combatant=bram, focus="physical")
    ok(sh, "gm", "deal")
    assert held(sh, "gm") == [] and len(held(sh, "ann")) == 4 and len(held(sh, "bob")) == 4
    with logged() as events:
        ok(sh, "gm", "end_combat")
    assert Character.objects.get(pk=sh["ghoul"].pk).sheet["health_now"] == 0
    # the GM's live panel is drawn from the sheets the fight's end wrote back, not from before
    [ended] = [e for e in events if e.kind == "shadows.combat_ended"]
    assert f'value="{sh["ghoul"].pk}"> Ghoul <span class="muted">(down)</span>' in seat_frame(ended, GM)
    # its card says it is down, to every seat (an NPC's harm everyone sees happen)...
    for who in ("gm", "ann"):
        card = page(sh, who).split(f'id="character-{sh["ghoul"].pk}"')[1].split("</article>")[0]
        assert '<span class="tag">Down</span>' in card
    # ...and the form for the next fight leaves it unticked, the others ticked
    start = page(sh, "gm").split('id="shadows-start"')[1].split("</form>")[0]
    assert f'value="{sh["ghoul"].pk}"> Ghoul <span class="muted">(down)</span>' in start
    assert f'value="{sh["alma"].pk}" checked> Alma' in start


def test_a_dead_player_character_is_marked_dead_on_its_card_and_left_out_of_the_next_fight(sh) -> None:
    dealt_fight(sh)
    ok(sh, "gm", "adjust", combatant=cid(sh["alma"]), field="life", value="0")
    ok(sh, "gm", "end_combat")
    assert Character.objects.get(pk=sh["alma"].pk).sheet["life_now"] == 0
    card = page(sh, "watcher").split(f'id="character-{sh["alma"].pk}"')[1].split("</article>")[0]
    assert card.startswith(' class="character is-out"')  # greyed: out
    assert '<span class="tag">Dead</span>' in card and 'aria-label="Life 0 of 20"' in card
    start = page(sh, "gm").split('id="shadows-start"')[1].split("</form>")[0]
    assert f'value="{sh["alma"].pk}"> Alma <span class="muted">(dead)</span>' in start


def test_a_sheet_out_of_its_ranges_is_refused_naming_the_field_and_the_range(sh) -> None:
    """Health -5 was taken as a sheet value; now a figure out of its range is refused, nothing
    saved, with a message naming the field and its range."""
    url = reverse("character_edit", args=[sh["table"].pk, sh["ghoul"].pk])
    before = dict(Character.objects.get(pk=sh["ghoul"].pk).sheet)
    for field, value, says in (("health", "-5", "Health is from 1 to 999; -5 is not."),
                               ("armour", "-2", "Armour is from 0 to 40; -2 is not."),
                               ("skills", "Claws: 41", "The skill Claws is from 0 to 40; 41 is not.")):
        answer = sh["clients"]["gm"].post(url, {"name": "Ghoul", "version": sh["ghoul"].version,
                                               f"sheet_{field}": value})
        assert answer.status_code in (200, 400) and says in answer.content.decode(), field
        assert Character.objects.get(pk=sh["ghoul"].pk).sheet == before
    with pytest.raises(services.ServiceError, match="Health now is from 0 to 30"):
        services.character_update(character=sh["ghoul"], actor=sh["gm"], name="Ghoul",
                                  sheet={**before, "health_now": 31})
