"""The contract kit over a campaign (issue 35, "Done means"): every system with a clock is played,
seeded, over ten sessions, from each seat's own page: the GM opens a session, the party fights
(the systems with fights: the same two player characters, session after session, against fresh
NPCs, played as tests/integration/test_contract_kit_fights.py plays a fight), the GM puts
conditions on characters and takes some off, the scene ends, nights and weeks pass, the GM
closes the session with what its close form offers.

Before each fight the party must be able to fight again by the rules alone: what is out is
brought back by time passing (a night, then up to two weeks) or by the system's own rule move (a
fallen character raised); one dead by the rules is retired and its player makes a new one (no
sheet is edited for it). Anything else would be a **hand edit of a sheet**: the kit makes it
(through the sheet form, as a GM would), counts it, and asserts at the end that it made none.
Checked as it goes: no 500; each condition ends by itself when its span passes (and the log says
so); the log folds back to the stored state; every card is in one place. Counted and printed:
sessions, fights, nights and weeks passed, conditions, retirements, hand edits.
"""

from __future__ import annotations

import os
import random
import secrets
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse

from games import registry
from games.core import clock
from tabletop import services
from tabletop.forms import CharacterForm
from tabletop.models import BestiaryEntry, Character, Event, SheetRequest
from tabletop.selectors import procedure_state
from tests.integration.test_contract_kit_fights import PLANS, Tally, look, play_fight, start_fight
from tests.integration.test_sheet_requests import changed
from tests.support.kit import (
    KitTable, conserved, controls_in, fill_as_offered, fold, make_table, samples, stored_state,
)

pytestmark = pytest.mark.django_db

SESSIONS = int(os.environ.get("KIT_SESSIONS", "10"))
CLOCKED = [key for key, game in registry.SYSTEMS.items() if game.engine is not None and game.engine.clock is not None]
STEPS_WITHOUT_FIGHTS = 12  # what a session of a system without fights plays from the panels
LASTS = (clock.SCENE, clock.NIGHT, clock.WEEK, clock.SESSION, clock.REMOVED)
# What a table does by the rules for one who is out (or, in Harsh Light, bleeding out, which the
# clock will not pass over): the moves its pages offer for it, by system. Shadows' GM raises the
# fallen; Passages' Personae tend untended Wounds (seed: "Wounds must be tended") and rest; Harsh
# Light's Storyteller tends the dying (Heal).
REMEDIES = {"shadows": ("raise",), "passages": ("tend", "rest"), "harsh_light": ("heal",)}
AIMED = ("patient", "target", "combatant", "character")  # the field naming whom a remedy is for


def test_every_system_with_fights_keeps_a_clock() -> None:
    """Issue 35: "Recovery as rules" in every system; Report Card, which has no fight, keeps
    one for its Days and its lasting Penalties."""
    assert set(CLOCKED) >= set(PLANS) | {"report_card"}, CLOCKED


@dataclass
class Campaign:
    sessions: int = 0
    fights: int = 0
    spans: dict[str, int] = field(default_factory=dict)
    conditions: int = 0
    ended_by_themselves: int = 0
    retired: int = 0
    gone: set[int] = field(default_factory=set)  # the retired characters' ids
    raised: int = 0
    hand_edits: list[str] = field(default_factory=list)
    steps: int = 0
    requests: int = 0  # players' asked changes (issue 36), and what the GM made of them
    approved: int = 0
    refused: int = 0
    paid: int = 0  # approvals paid from the character's pool (experience, Experiences)
    free: int = 0  # granted without charge
    awarded: int = 0  # experience the GM gave at the sessions' close
    fielded: int = 0  # NPCs brought from the GM's bestiary
    npcs_retired: int = 0  # the fallen NPCs the GM retired after a fight


class _CloseFields(HTMLParser):
    """The fields the GM's page lays out for the session's close (``form="session-close"``), as
    the browser sends them: each box as it is ticked, each choice as it stands."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: dict[str, list[str]] = {}
        self.select: str | None = None

    def handle_starttag(self, tag: str, raw: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in raw}
        if attrs.get("form") != "session-close" and not (tag == "option" and self.select):
            return
        if tag == "input" and attrs.get("name"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.data.setdefault(attrs["name"], []).append(attrs.get("value", "on"))
        elif tag == "select" and attrs.get("name"):
            self.select = attrs["name"]
        elif tag == "option" and self.select and (self.select not in self.data or "selected" in attrs):
            self.data[self.select] = [attrs.get("value", "")]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


def page(kt: KitTable, seat: Any) -> str:
    return seat.client.get(reverse("table", args=[kt.table.pk])).content.decode()


def post(kt: KitTable, seat: Any, url: str, data: dict[str, Any] | None = None) -> int:
    status = kt.post(seat, url, data or {})
    assert status < 500, f"{kt.game.key}: {url} {data} -> {status}"
    return status


def campaign_url(kt: KitTable, move: str) -> str:
    return reverse("campaign_command", args=[kt.table.pk, move])


def pass_time(kt: KitTable, span: str, tally: Campaign, rnd: random.Random) -> None:
    """The GM's button on the campaign box; every condition lasting the span ends by itself. A
    clock that will not pass (Harsh Light over one bleeding out) is answered by the rules' remedy
    for everyone out, and asked again."""
    lasting = [c for c in clock.conditions(procedure_state(kt.table) or {}) if c["lasts"] in clock.ENDS[span]]
    status = post(kt, kt.gm, campaign_url(kt, "pass_time"), {"span": span})
    if status != 200:
        for character in Character.objects.filter(table=kt.table).order_by("pk"):
            if is_out(kt, character)[0]:
                remedy(kt, character, rnd, tally)
        status = post(kt, kt.gm, campaign_url(kt, "pass_time"), {"span": span})
    assert status == 200, f"{kt.game.key}: {span}"
    tally.spans[span] = tally.spans.get(span, 0) + 1
    left = {c["id"] for c in clock.conditions(procedure_state(kt.table) or {})}
    for made in lasting:
        assert made["id"] not in left, f"{kt.game.key}: {made['name']} lasted past {span}"
        assert Event.objects.filter(table=kt.table, kind=f"{kt.game.key}.condition_ended",
                                    summary__endswith=f"{clock.WHY_ENDED[span]}.").exists()
        tally.ended_by_themselves += 1


def add_condition(kt: KitTable, rnd: random.Random, tally: Campaign) -> None:
    """The GM puts a condition on someone, as the campaign box's form offers it."""
    [control] = [c for c in controls_in(page(kt, kt.gm), kt.table.pk) if c.name == "add_condition"]
    data = fill_as_offered(control, rnd, {}, keep=1.0)
    data.update({"name": rnd.choice(["Splinted leg", "Shaken", "Grabbed", "Cursed", "Bruised"]),
                 "lasts": rnd.choice(LASTS)})
    effects = [o for f in control.fields if f.name == "effect" for o in f.options if o]
    if effects and rnd.random() < 0.6:
        data.update({"effect": rnd.choice(effects), "amount": str(rnd.choice([-1, 1, -2]))})
    assert post(kt, kt.gm, control.url, data) == 200, f"{kt.game.key}: add_condition {data}"
    tally.conditions += 1


def maybe_end_one(kt: KitTable, rnd: random.Random) -> None:
    """Now and then the GM ends a condition that lasts until removed, by its button."""
    removable = [c for c in clock.conditions(procedure_state(kt.table) or {}) if c["lasts"] == clock.REMOVED]
    if removable and rnd.random() < 0.5:
        made = rnd.choice(removable)
        assert post(kt, kt.gm, campaign_url(kt, "end_condition"), {"condition": str(made["id"])}) == 200


def party(kt: KitTable, tally: Campaign) -> list[Character]:
    """The player characters at the table, each played by Ann or Bob (the kit's campaign party),
    less those retired."""
    return list(Character.objects.filter(table=kt.table, is_npc=False, owner__isnull=False)
                .exclude(pk__in=tally.gone).order_by("pk"))


def is_out(kt: KitTable, character: Character) -> tuple[bool, bool]:
    """Whether the character's card says it is out, and whether its tags say it is dead."""
    character.refresh_from_db()
    glance = kt.game.glance(character.sheet)
    dead = any(word in tag.lower() for tag in glance.tags for word in ("dead", "killed"))
    return glance.out, dead


def made_ready(kt: KitTable, rnd: random.Random, tally: Campaign, weak: dict[str, Any]) -> list[Character]:
    """The party as it goes into a fight: the out brought back by the rules (time, the system's
    raise), the dead retired and replaced; a hand edit, counted, only if nothing else would do."""
    for attempt in range(4):
        outs = [(c, dead) for c in party(kt, tally) for out, dead in [is_out(kt, c)] if out]
        if not outs:
            break
        for character, dead in outs:
            if dead:
                retire(kt, character, weak, tally)
        outs = [c for c, dead in outs if not dead]
        if not outs:
            continue
        for character in outs:
            remedy(kt, character, rnd, tally)
        pass_time(kt, clock.NIGHT if attempt == 0 else clock.WEEK, tally, rnd)
    for character in party(kt, tally):
        out, dead = is_out(kt, character)
        if out:
            told = [e.private_summary or e.summary for e in Event.objects.filter(table=kt.table).order_by("-seq")
                    if character.name in (e.private_summary or e.summary)][:int(os.environ.get("KIT_TOLD", "6"))]
            tally.hand_edits.append(f"{character.name}: {kt.game.glance(character.sheet)}; the log: {told[::-1]}")
            services.character_update(character=character, actor=kt.gm.member, name=character.name,
                                      sheet={**character.sheet, **weak}, version=character.version)
    return party(kt, tally)


def remedy(kt: KitTable, character: Character, rnd: random.Random, tally: Campaign) -> None:
    """What the rules offer for one who is out, from the pages of those who may use it (the GM's,
    and each player's): the system's remedies in their order, the first control of each that the
    table accepts for it, aimed at it."""
    pages = {seat.name: controls_in(page(kt, seat), kt.table.pk) for seat in (kt.gm, *kt.players)}
    for name in REMEDIES.get(kt.game.key, ()):
        for seat in (kt.gm, *kt.players):
            for control in pages[seat.name]:
                if control.name != name:
                    continue
                data = fill_as_offered(control, rnd, kt.hands(), keep=1.0)
                names = {f.name for f in control.fields}
                aimed = next((k for k in AIMED if k in names), None)
                if aimed is not None:
                    offered = next(f.options or [f.value] for f in control.fields if f.name == aimed)
                    mine = [o for o in offered if o in (str(character.pk), f"c{character.pk}")]
                    if not mine:
                        continue
                    data[aimed] = mine[0]
                if post(kt, seat, control.url, data) == 200:
                    tally.raised += 1
                    return


def retire(kt: KitTable, character: Character, weak: dict[str, Any], tally: Campaign) -> None:
    """A character dead by the rules leaves the party; its player makes a new one (no sheet of
    the dead one is edited)."""
    player = next(s for s in kt.players if s.member.pk == character.owner_id)
    sample = next(s for s in samples(kt.game) if not s.npc)
    tally.gone.add(character.pk)
    services.character_create(table=kt.table, actor=player.member, name=f"{sample.name} {tally.retired + 3}",
                              sheet={**sample.sheet, **weak})
    tally.retired += 1


def foes_from_the_bestiary(kt: KitTable, rnd: random.Random, tally: Campaign, plan: Any) -> list[Character]:
    """The GM's foes, fielded in numbers from the GM's bestiary (issue 36): the first time, the
    GM makes a weak foe from a sample NPC and saves it there; each fight brings one or two, each
    its own character numbered ("Ghoul 1", "Ghoul 2"), from the bestiary's own form."""
    if not BestiaryEntry.objects.filter(owner=kt.gm.member.user, system=kt.game.key).exists():
        sample = next(s for s in samples(kt.game) if s.npc)
        model = services.character_create(table=kt.table, actor=kt.gm.member, name=f"{sample.name} of the kit",
                                          sheet={**sample.sheet, **plan.npc}, npc=True)
        assert post(kt, kt.gm, reverse("bestiary_action", args=[kt.table.pk, "save"]),
                    {"character": str(model.pk)}) == 200
        assert post(kt, kt.gm, reverse("npc_action", args=[kt.table.pk, "retire"]),
                    {"character": str(model.pk)}) == 200  # the model itself does not fight
    entry = BestiaryEntry.objects.get(owner=kt.gm.member.user, system=kt.game.key)
    known = set(Character.objects.filter(table=kt.table).values_list("pk", flat=True))
    count = rnd.randint(1, 2)  # as many as the kit's fights have always met: they end within their steps
    assert post(kt, kt.gm, reverse("bestiary_action", args=[kt.table.pk, "bring"]),
                {"entry": str(entry.pk), "count": str(count)}) == 200
    fielded = list(Character.objects.filter(table=kt.table, is_npc=True).exclude(pk__in=known).order_by("pk"))
    assert len(fielded) == count and all(f.name.startswith(entry.name) for f in fielded)
    tally.fielded += count
    return fielded


def retire_the_fallen(kt: KitTable, tally: Campaign) -> None:
    """After the fight, the GM's "Retire the fallen": every NPC out leaves the lists and the scene."""
    standing = set(Character.objects.filter(table=kt.table, is_npc=True, retired=False).values_list("pk", flat=True))
    status = post(kt, kt.gm, reverse("npc_action", args=[kt.table.pk, "retire"]), {"fallen": "on"})
    assert status in (200, 400), f"{kt.game.key}: retire the fallen -> {status}"  # 400: nobody is out
    gone = standing - set(Character.objects.filter(table=kt.table, is_npc=True, retired=False)
                          .values_list("pk", flat=True))
    tally.npcs_retired += len(gone)


def fight(kt: KitTable, rnd: random.Random, tally: Campaign, fights: Tally, number: int) -> None:
    plan = PLANS[kt.game.key]
    heroes = made_ready(kt, rnd, tally, dict(plan.pc))
    foes = foes_from_the_bestiary(kt, rnd, tally, plan)
    start_fight(kt, plan, rnd, [*heroes, *foes])
    play_fight(kt, plan, rnd, fights, number)
    retire_the_fallen(kt, tally)
    tally.fights += 1


def play_panels(kt: KitTable, rnd: random.Random, tally: Campaign) -> None:
    """A session of a system without fights: its seats use what their panels offer."""
    for _ in range(STEPS_WITHOUT_FIGHTS):
        seat = rnd.choice([kt.gm, *kt.players])
        controls = [c for c in look(kt, seat).controls if "/commands/" in c.url or "/checks/" in c.url]
        controls = [c for c in controls if c.name not in ("undo",)]
        if not controls:
            continue
        control = rnd.choice(controls)
        post(kt, seat, control.url, fill_as_offered(control, rnd, kt.hands()))
        tally.steps += 1


def close_session(kt: KitTable, rnd: random.Random, tally: Campaign) -> None:
    """The GM closes the session with what its close form offers: the system's own fields as they
    stand, and experience for each player character where the form asks how much (issue 36)."""
    fields = _CloseFields()
    fields.feed(page(kt, kt.gm))
    awards = [name for name in fields.data if name.startswith("xp_") and name != "xp_reason"]
    for name in awards:
        amount = rnd.choice([0, 2, 3, 5, 8])
        fields.data[name] = [str(amount) if amount else ""]
        tally.awarded += amount
    if awards:
        fields.data["xp_reason"] = ["the session's deeds"]
    before = {c.pk: pool_of(kt, c) for c in party(kt, tally)}
    assert post(kt, kt.gm, reverse("session_close", args=[kt.table.pk]), fields.data) == 200, fields.data
    for character in party(kt, tally):  # what the close granted is on the sheets
        asked = fields.data.get(f"xp_{character.pk}", [""])[0]
        if asked and character.pk in before:
            assert pool_of(kt, character) == before[character.pk] + int(asked), character.name


def pool_of(kt: KitTable, character: Character) -> int:
    """What a character holds to spend (its system's growth pool), as its sheet says now."""
    growth = kt.game.growth
    if growth is None or not growth.pool:
        return 0
    character.refresh_from_db()
    return int(character.sheet.get(growth.pool) or 0)


def ask_and_decide(kt: KitTable, rnd: random.Random, tally: Campaign) -> None:
    """Each player, now and then, asks through their sheet form for a figure of their character
    one step up (a purchase where the system sells it); the GM answers from the requests box on
    the table page: approves it (paid from the pool when it can be), grants it without charge, or
    refuses it. Checked: until the GM answers, the sheet the rules read is as it was; a refusal
    changes nothing; an approval puts the asked figure on it and takes its price off the pool."""
    for character in party(kt, tally):
        if rnd.random() < 0.4:
            continue
        character.refresh_from_db()
        try:
            key, value = changed(kt.game.key, dict(character.sheet))
        except AssertionError:
            continue
        player = next(s for s in kt.players if s.member.pk == character.owner_id)
        data = {k: v for k, v in CharacterForm.initial_from(character, kt.game.key).items() if v is not None}
        data[f"sheet_{key}"] = value
        for spec in kt.game.sheet_fields:  # a box unticked is not sent
            if spec.kind == "bool" and not data.get(f"sheet_{spec.key}"):
                data.pop(f"sheet_{spec.key}", None)
        before = dict(character.sheet)
        answer = player.client.post(reverse("character_edit", args=[kt.table.pk, character.pk]), data)
        assert answer.status_code == 302, f"{kt.game.key}: {key} {value}: {answer.content.decode()[:300]}"
        request = SheetRequest.objects.filter(character=character, status="open").first()
        character.refresh_from_db()
        if request is None:  # not yet used by a rule move: the sheet is still its player's
            assert not character.in_play
            continue
        tally.requests += 1
        assert character.sheet.get(key) == before.get(key), f"{kt.game.key}: {key} changed before the GM answered"
        item = gm_request(kt, request.pk)
        paid = "Approve for " in item
        choice = rnd.choices(["approve", "free", "refuse"], weights=[6, 1, 2])[0]
        if choice == "approve" and paid and " disabled" in item.split("Approve for ")[0][-300:]:
            choice = rnd.choice(["free", "refuse"])  # not enough to spend: the page's button is off
        pool = pool_of(kt, character)
        status = post(kt, kt.gm, reverse("request_action", args=[kt.table.pk, "refuse" if choice == "refuse"
                                                                  else "approve"]),
                      {"request": str(request.pk), **({"free": "on"} if choice == "free" else {})})
        assert status == 200, f"{kt.game.key}: {choice} {key} {value}"
        character.refresh_from_db()
        if choice == "refuse":
            tally.refused += 1
            assert character.sheet == before or _tracks_only(kt, before, character.sheet), kt.game.key
            continue
        tally.approved += 1
        assert character.sheet[key] == request.sheet[key], f"{kt.game.key}: {key}"
        cost = int(Event.objects.filter(table=kt.table, kind="character.request_approved")
                   .latest("seq").payload.get("cost", 0)) if paid and choice == "approve" else 0
        assert pool_of(kt, character) == pool - cost, f"{kt.game.key}: {pool} - {cost}"
        tally.paid += bool(cost)
        tally.free += choice == "free"


def _tracks_only(kt: KitTable, before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether two sheets differ only in what the rules keep."""
    kept = {f.key for f in kt.game.sheet_fields if f.rules == "kept"}
    return {k: v for k, v in before.items() if k not in kept} == {k: v for k, v in after.items() if k not in kept}


def gm_request(kt: KitTable, request_id: int) -> str:
    """The request's item in the GM's requests box, as the table page draws it."""
    html = page(kt, kt.gm)
    start = html.index(f'id="request-{request_id}"')
    return html[start:html.index("</li>", start)]


@pytest.mark.parametrize("system", CLOCKED)
def test_ten_sessions_need_no_hand_edit_of_a_sheet(system: str) -> None:
    kt = make_table(system, f"campaign-{system}")
    seed = sum(map(ord, system)) + 35
    rnd = random.Random(seed)
    table_rng = random.Random(seed + 1)
    tally, fights = Campaign(), Tally()
    plan = PLANS.get(system)
    if plan is not None:  # the kit's party: the two sample PCs, weak, so fights end and hurt
        for character in party(kt, tally):
            services.character_update(character=character, actor=kt.gm.member, name=f"{character.name}*",
                                      sheet={**character.sheet, **plan.pc}, version=character.version)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "SystemRandom", lambda: table_rng)
        for control in [c for c in look(kt, kt.gm).controls if c.url.endswith("/decks/new/")]:
            assert kt.post(kt.gm, control.url, fill_as_offered(control, rnd, kt.hands(), keep=1.0)) == 200
        for session in range(1, SESSIONS + 1):
            assert post(kt, kt.gm, reverse("session_open", args=[kt.table.pk])) == 200
            add_condition(kt, rnd, tally)
            if plan is not None and session % 2 == 1:
                fight(kt, rnd, tally, fights, session)
            elif plan is None:
                play_panels(kt, rnd, tally)
            maybe_end_one(kt, rnd)
            pass_time(kt, clock.SCENE, tally, rnd)
            add_condition(kt, rnd, tally)
            pass_time(kt, rnd.choices([clock.NIGHT, clock.WEEK], weights=[3, 1])[0], tally, rnd)
            close_session(kt, rnd, tally)
            ask_and_decide(kt, rnd, tally)
            tally.sessions += 1
            assert not [c for c in clock.conditions(procedure_state(kt.table) or {}) if c["lasts"] == clock.SESSION]
            assert conserved(kt.table) == [], f"{system} after session {session}"
            assert fold(kt.table) == stored_state(kt.table), f"{system}: the log does not replay after session {session}"
    print(f"{system}: {tally.sessions} sessions, {tally.fights} fights ({fights.accepted} moves, {fights.refused} "
          f"refused), {tally.steps} panel steps, spans {tally.spans}, {tally.conditions} conditions "
          f"({tally.ended_by_themselves} ended by themselves), {tally.raised} remedies, {tally.retired} retired, "
          f"{tally.awarded} experience awarded, {tally.requests} requests ({tally.approved} approved, {tally.paid} "
          f"paid, {tally.free} without charge, {tally.refused} refused), {tally.fielded} NPCs fielded from the "
          f"bestiary ({tally.npcs_retired} fallen retired), {len(tally.hand_edits)} hand edits")
    assert not fights.defects, f"{system}: " + "; ".join(fights.defects[:8])
    assert tally.hand_edits == [], f"{system}: the GM had to edit sheets by hand: {tally.hand_edits[:6]}"
    assert tally.requests and tally.approved and tally.refused, f"{system}: no request was asked and answered"
    if plan is not None:
        assert tally.fielded and tally.npcs_retired, f"{system}: no NPC fielded from the bestiary fell and was retired"
    if kt.game.growth is not None and kt.game.growth.pool == "xp":  # the GM awards experience
        assert tally.awarded and tally.paid, f"{system}: no experience was awarded and spent"
