from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

import pytest

import games.demon_city as demon_city
from games import registry
from games.contract import PUBLIC, Character, Member, Sample, Sheet
from games.core.engine import Engine, Move, Turn
from games.demon_city.odds import ODDS
from games.freeform import sheet as freeform
from games.sheets import SheetError, SheetField, format_stats, parse_stats


SAMPLES = (Sample("Hero", {}), Sample("Foe", {}, npc=True))


def test_the_systems_are_offered_in_the_order_listed() -> None:
    assert list(registry.SYSTEMS) == list(registry.PACKAGES)
    assert {"freeform", "demon_city", "report_card", "harsh_light", "shadows", "passages"} <= set(registry.PACKAGES)
    assert {s.name for s in registry.SYSTEMS.values()} >= {
        "Demon City", "Report Card", "Harsh Light", "Shadows of Humanity", "Passages (NycosRPG)"}


def test_unknown_system_is_refused_by_name() -> None:
    with pytest.raises(registry.UnknownSystem, match="nope"):
        registry.get("nope")


def test_freeform_sheet_has_colour_notes_and_stats() -> None:
    keys = [f.key for f in registry.get("freeform").sheet_fields]
    assert keys == ["colour", "notes", "stats"]


def test_freeform_sheet_cleans_stats_text() -> None:
    cleaned = freeform.clean({"colour": "#A1B2C3", "notes": "brave", "stats": "Str: 3\n\nWits : 5"})
    assert cleaned == {"colour": "#a1b2c3", "notes": "brave", "stats": [["Str", "3"], ["Wits", "5"]]}
    # issue 38, 7: "A stray "Stats: 3" line on Freeform character cards": nothing is derived
    assert registry.get("freeform").derived(cleaned) == []


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"colour": "red"}, "colour"),
        ({"colour": "#123456\"><script>"}, "colour"),
        ({"notes": "x" * 4001}, "notes"),
        ({"stats": "no colon here"}, "stats"),
        ({"stats": "\n".join(f"s{i}: 1" for i in range(41))}, "stats"),
        ({"stats": "n" * 41 + ": 1"}, "stats"),
    ],
)
def test_freeform_sheet_refuses_bad_values(data: dict, field: str) -> None:
    with pytest.raises(SheetError) as raised:
        freeform.clean(data)
    assert raised.value.field == field


def test_stats_text_round_trips() -> None:
    stats = [["Strength", "3"], ["Luck", "d6"]]
    assert parse_stats(format_stats(stats)) == stats


# The registration contract (games/contract.py): every system provides every part the platform
# reads, and a registration missing a part another part needs is refused when it loads.


@pytest.mark.parametrize("system", list(registry.SYSTEMS.values()), ids=lambda s: s.key)
def test_every_system_provides_every_part(system: registry.GameSystem) -> None:
    assert system.key and system.name and system.blurb
    assert system.clean_sheet is not None and callable(system.derived)
    assert all(isinstance(f, SheetField) for f in system.sheet_fields)
    assert isinstance(system.log_lines, Mapping) and isinstance(system.audiences, Mapping)
    for command in system.commands:
        assert command.label and callable(command.parse) and command.sender in ("gm", "controller")
        assert system.command(command.name) is command
    for check in system.checks:
        assert check.label and check.event and check.notice and callable(check.parse) and callable(check.run)
        assert check.sender in ("gm", "controller") and system.check(check.name) is check
    for page in system.pages:
        assert page.title and page.template and callable(page.context) and system.page(page.slug) is page
    if system.commands:
        assert system.engine is not None and system.panel is not None
    if system.panel is not None:
        assert "#" in system.panel.template and "#" in system.panel.notice


def test_unknown_parts_are_none_not_errors() -> None:
    game = registry.get("demon_city")
    assert game.command("explode") is None and game.check("nope") is None and game.page("nope") is None


def test_demon_city_registers_every_command_its_engine_takes() -> None:
    """The web's command list is the engine's: none can drift out of reach (set_condition had)."""
    assert {c.name for c in registry.get("demon_city").commands} == {
        "start", "add_combatant", "announce", "allow_extra_targets", "adjust_pool", "set_difficulty",
        "set_condition", "set_injury_table", "roll", "next_round", "end", "settle_ties", "undo",
        # the clock's, from games/core/clock.py (Demon City keeps a clock, with table options: the
        # costs of what experience buys), and the Host's award of experience (games/core/growth.py)
        "pass_time", "add_condition", "end_condition", "set_option", "award"}
    announce = registry.get("demon_city").command("announce")
    assert announce is not None and announce.sender == "controller"
    assert {c.sender for c in registry.get("demon_city").commands if c.name != "announce"} == {"gm"}


def test_freeform_registers_a_sheet_and_a_panel_and_nothing_else() -> None:
    game = registry.get("freeform")
    assert game.sheet_fields and not (game.commands or game.checks or game.pages)
    # the panel draws each designed sheet with its trackers and saved rolls (issue 38)
    assert game.engine is None and game.panel is not None and game.panel.character_view is not None


def test_a_registration_missing_a_part_it_needs_is_refused() -> None:
    engine = Engine(new_state=dict, moves=(Move("go", "Go", parse=lambda form, table: {}, handle=lambda *a: []),),
                    folds={"went": lambda state, event: None}, summary=lambda e, s: "")
    base = registry.GameSystem("newgame", "New", "A new game.", sheet=Sheet(clean=dict), samples=SAMPLES)
    assert registry.check_registration(base) is base
    with pytest.raises(registry.BadRegistration, match="cleans its sheet"):
        registry.check_registration(replace(base, sheet=Sheet()))
    with pytest.raises(registry.BadRegistration, match="sample characters"):
        registry.check_registration(replace(base, samples=SAMPLES[:1]))
    with pytest.raises(registry.BadRegistration, match="need a panel"):
        registry.check_registration(replace(base, engine=engine, audiences={"went": PUBLIC}))
    mine = replace(engine.moves[0], sender="controller")
    with pytest.raises(registry.BadRegistration, match="names its subject"):
        registry.check_registration(replace(base, engine=replace(engine, moves=(mine,)), audiences={"went": PUBLIC},
                                            panel=registry.get("demon_city").panel))
    with pytest.raises(registry.BadRegistration, match="share a name"):
        registry.check_registration(replace(base, pages=(ODDS, ODDS)))
    with pytest.raises(registry.BadRegistration, match="lower-case"):
        registry.check_registration(replace(base, key="New Game"))


def test_every_event_kind_a_system_emits_has_a_declared_audience() -> None:
    """Secret is the default, public is declared (issue 21: Shadows' ``criticals_set`` had no case
    in its ``audience()`` and went to everyone): a registration with an event kind whose audience
    is not declared is refused when it loads, and an audience for a kind never emitted too."""
    from games.contract import GM_ONLY

    nothing = lambda state, event: None  # noqa: E731
    engine = Engine(new_state=dict, moves=(), folds={"rolled": nothing, "hidden": nothing}, summary=lambda e, s: "")
    panel = registry.get("demon_city").panel
    base = registry.GameSystem("newgame", "New", "A new game.", sheet=Sheet(clean=dict), engine=engine,
                               panel=panel, audiences={"rolled": PUBLIC, "hidden": GM_ONLY}, samples=SAMPLES)
    assert registry.check_registration(base) is base
    with pytest.raises(registry.BadRegistration, match="no audience declared for hidden"):
        registry.check_registration(replace(base, audiences={"rolled": PUBLIC}))
    with pytest.raises(registry.BadRegistration, match="never emits: typo"):
        registry.check_registration(replace(base, audiences={**base.audiences, "typo": PUBLIC}))
    with pytest.raises(registry.BadRegistration, match="folds the events"):
        registry.check_registration(replace(base, engine=replace(engine, folds={}), audiences={}))
    # a kind that slips past (a faulty engine) goes to the GM alone
    assert base.visibility({"type": "unheard_of"}).audience == "gm"


@pytest.mark.parametrize("system", list(registry.SYSTEMS.values()), ids=lambda s: s.key)
def test_every_registered_system_declares_each_event_kind_it_emits(system: registry.GameSystem) -> None:
    """Its own kinds in its registration; the clock's own (games/core/clock.py), when its engine
    keeps one, by the core (``GameSystem.audience_rules``)."""
    assert set(system.audience_rules) == system.event_kinds()
    assert set(system.audiences) <= system.event_kinds()


def test_the_member_reaches_an_engine_as_plain_data() -> None:
    """A handler reads who sent a move from a typed ``Member``: whether they are the GM, whom
    they play, who they are (a choice only one person may make)."""
    ann = Member(id=7, name="Ann", is_gm=False, controls=("c3",))
    assert ann.plays("c3") and ann.acts_for("c3") and not ann.acts_for("c4")
    assert Member(id=1, name="Gail", is_gm=True).acts_for("c4") and not Member(id=1, name="Gail", is_gm=True).plays("c4")
    alfie = Character(id=3, cid="c3", name="Alfie", sheet={"agility": 2, "toughness": 3}, owner=7)
    turn = Turn(member=Member(id=1, name="Gail", is_gm=True), characters={"c3": alfie}, rng=random.Random(1))
    started = demon_city.ENGINE.decide(demon_city.ENGINE.new_state(), "start", {"combatants": ["c3"]}, turn)
    assert started[0]["type"] == "action_rounds_started"
