"""What a system declares, the table enforces (issue 21): each finding of the issue, reproduced
through the routes a player or a spectator has, refused or hidden now.

The generic checks run over every registered system live in tests/integration/test_contract_kit.py;
these are the findings as they were reported, one test each."""

from __future__ import annotations

import json

import pytest
from typing import Any

from django.urls import reverse

from tabletop.models import Event
from tests.integration.test_shadows_table import HTMX, sh  # noqa: F401 (a fixture)
from tests.integration.test_report_card_table import school  # noqa: F401 (a fixture)
from tests.integration.test_system_seam import dc  # noqa: F401 (a fixture)

SECRET_EFFECT = "Xyzzy the marrow sings"


def export(sh: dict[str, Any], who: str, fmt: str) -> str:
    answer = sh["clients"][who].get(reverse("export", args=[sh["table"].pk, fmt]))
    assert answer.status_code == 200
    return b"".join(answer.streaming_content).decode()


def test_the_gm_s_critical_tables_reach_no_one_else_in_any_export(sh) -> None:
    """Seed 000: "I will not be posting the Critical Tables". ``criticals_set`` had no audience
    and went to everyone: the JSON export put the whole table in every player's hands."""
    table = "\n".join(f"{suit} 1-14 | {SECRET_EFFECT}, {suit}." for suit in ("cups", "pentacles", "swords", "wands"))
    answer = sh["clients"]["gm"].post(reverse("table_command", args=[sh["table"].pk, "set_criticals"]),
                                      {"table": table}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    event = Event.objects.get(table=sh["table"], kind="shadows.criticals_set")
    assert event.audience == "gm"
    for who in ("ann", "bob", "watcher"):
        for fmt in ("json", "md"):
            assert SECRET_EFFECT not in export(sh, who, fmt), (who, fmt)
        page = sh["clients"][who].get(reverse("table", args=[sh["table"].pk])).content.decode()
        assert SECRET_EFFECT not in page
    assert SECRET_EFFECT in json.dumps(json.loads(export(sh, "gm", "json")))


# NPC sheets behind the screen: the table's setting, on by default


def card_of(page: str, character_id: int) -> str:
    start = page.index(f'<article id="character-{character_id}"')
    return page[start:page.index("</article>", start)]


def test_an_npc_s_sheet_is_the_gm_s_by_default_on_every_system_and_the_gm_may_show_it(dc) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it (a table setting, on by
    default): other seats see its name and what the rules make public". Demon City showed every
    seat the Demon's Hand-to-Hand 6 on its card."""
    from tabletop import services
    from tabletop.feed.seat import GM, SPECTATOR, Seat
    from tests.support.frames import logged, seat_frame

    page = reverse("table", args=[dc["table"].pk])
    demon = dc["demon"].pk
    assert dc["table"].npc_sheets_secret
    for who in ("ann", "watcher"):
        card = card_of(dc["clients"][who].get(page).content.decode(), demon)
        assert "Its sheet is the GM's." in card and "Hand-to-Hand" not in card
        answer = dc["clients"][who].get(reverse("export", args=[dc["table"].pk, "json"]))
        dump = b"".join(answer.streaming_content).decode()
        assert '"hand_to_hand": 6' not in dump
    assert "Hand-to-Hand" in card_of(dc["clients"]["gm"].get(page).content.decode(), demon)
    # a player may not change the setting; the GM may, and every seat's card follows live
    assert dc["clients"]["ann"].post(reverse("npc_sheets", args=[dc["table"].pk]), {"npc_sheets_secret": "0"},
                                     HTTP_HX_REQUEST="true").status_code == 403
    with logged() as events:
        answer = dc["clients"]["gm"].post(reverse("npc_sheets", args=[dc["table"].pk]), {"npc_sheets_secret": "0"},
                                          HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    [shown] = [e for e in events if e.kind == "table.configured"]
    assert shown.summary == "host shows the NPCs' sheets to everyone."
    for seat in (SPECTATOR, Seat("player", dc["ann"].pk), GM):
        frame = seat_frame(shown, seat) or ""
        assert "Hand-to-Hand" in card_of(frame, demon), seat
    assert "Hand-to-Hand" in card_of(dc["clients"]["watcher"].get(page).content.decode(), demon)
    assert 'name="npc_sheets_secret" value="1"' in (seat_frame(shown, GM) or "")  # the GM's switch, redrawn
    again = dc["clients"]["gm"].post(reverse("npc_sheets", args=[dc["table"].pk]), {"npc_sheets_secret": "0"},
                                     HTTP_HX_REQUEST="true")
    assert again.status_code == 400 and "already shown" in again.content.decode()
    with logged() as events:
        services.table_npc_sheets(table=dc["table"], actor=dc["gm"], secret=True)
    [hidden] = [e for e in events if e.kind == "table.configured"]
    assert "Hand-to-Hand" not in card_of(seat_frame(hidden, SPECTATOR) or "", demon)
    assert "Hand-to-Hand" in card_of(seat_frame(hidden, GM) or "", demon)


# Rule decks belong to the rules


def everything(table) -> tuple[Any, ...]:
    """Every card's place and the log: what a refused act must leave as it was."""
    from tabletop.models import CardPlacement, ShuffleCommitment

    return (sorted(CardPlacement.objects.filter(deck__table=table).values_list("deck_id", "card_id", "pile_id",
                                                                               "position", "pinned")),
            list(Event.objects.filter(table=table).values_list("seq", flat=True)),
            ShuffleCommitment.objects.filter(deck__table=table).count())


def test_a_player_cannot_touch_the_deck_a_rule_draws_from_and_the_gm_acts_by_hand_for_all_to_see(school) -> None:
    """Issue 21: "Report Card's owner can draw the top card of their own deck into their hand,
    look at it, and put it at the bottom, or put a check's card back on top, with the table's
    generic card buttons". The decided reading 004: "Its owner cannot peek, draw, return, reorder or
    shuffle it by hand; the GM can, each time logged for everyone."""
    from tests.integration.test_report_card_table import deck_of

    s = school
    table, deck = s["table"], deck_of(s, s["marieta"])
    assert deck.rules
    url = lambda kind, action: reverse(f"{kind}_action", args=[table.pk, action])  # noqa: E731
    ann = s["clients"]["ann"]
    before = everything(table)
    for action, data in (("draw", {"count": 1, "to": "hand"}), ("draw", {"count": 1, "to": "play"}),
                         ("shuffle", {}), ("peek", {"count": 3}), ("recall", {}), ("reshuffle_discard", {}),
                         ("deal", {"count": 1, "to": s["ann"].pk}), ("reorder", {"order": "tarot:cups:1"})):
        answer = ann.post(url("deck", action), {"deck": deck.pk, **data}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 403, (action, answer.content)
        if action in ("draw", "shuffle", "recall", "reshuffle_discard", "deal"):
            assert "Only the rules move the cards of Marieta&#x27;s Tarot" in answer.content.decode(), action
    assert everything(table) == before
    # a check's card face up in the play area, and a card the GM dealt her: hers to see, not to move
    gm = s["clients"]["gm"]
    assert gm.post(url("deck", "draw"), {"deck": deck.pk, "count": 1, "to": "play"},
                   HTTP_HX_REQUEST="true").status_code == 200
    assert gm.post(url("deck", "deal"), {"deck": deck.pk, "count": 1, "to": s["ann"].pk},
                   HTTP_HX_REQUEST="true").status_code == 200
    from tabletop.models import CardPlacement, PileKind

    in_play = CardPlacement.objects.get(deck=deck, pile__kind=PileKind.PLAY).card_id
    in_hand = CardPlacement.objects.get(deck=deck, pile__kind=PileKind.HAND).card_id
    before = everything(table)
    for action, card in (("return_top", in_play), ("return_bottom", in_play), ("discard", in_play),
                         ("play", in_hand), ("discard", in_hand), ("return_top", in_hand),
                         ("pass", in_hand)):
        answer = ann.post(url("card", action), {"deck": deck.pk, "card": card, "to_name": "Bob"},
                          HTTP_HX_REQUEST="true")
        assert answer.status_code == 403 and "Only the rules move" in answer.content.decode(), (action, card)
    assert everything(table) == before
    # the GM, by hand: done, and logged for everyone
    assert gm.post(url("card", "return_top"), {"deck": deck.pk, "card": in_play},
                   HTTP_HX_REQUEST="true").status_code == 200
    line = Event.objects.filter(table=table, kind="card.returned").latest("seq")
    assert line.audience == "everyone" and "returns a card to the top of Marieta's Tarot" in line.summary
    # the page offers Ann none of it: no draw, shuffle or card buttons for that deck
    page = ann.get(reverse("table", args=[table.pk])).content.decode()
    widget = page[page.index(f'<article id="deck-{deck.pk}"'):]
    widget = widget[:widget.index("</article>")]
    assert "Draw" not in widget and "Shuffle" not in widget and "The rules draw from it" in widget
    assert url("card", "play") not in page[page.index('id="hands-panel"'):page.index('id="cards"')]


# Rule-owned sheet fields, and sheet edits that say what changed


def test_a_player_s_sheet_edit_cannot_change_what_the_rules_own_and_the_gm_s_is_logged_old_and_new(school) -> None:
    """Issue 21: "A Report Card player sets Corruption from 2 to 0, swaps A+ and F or changes
    their own Major Arcana in the sheet editor; the log says only 'Ann updated Marieta.'"."""
    from tabletop import services
    from tabletop.models import Character, SheetRequest
    from tests.integration.test_report_card_table import MARIETA

    marieta = school["marieta"]
    services.character_update(character=marieta, actor=school["gm"], name="Marieta", sheet={**MARIETA, "corruption": "2"})
    gm_line = Event.objects.filter(table=school["table"], kind="character.updated").latest("seq")
    assert gm_line.summary == "teacher changes Marieta: Skill Corruption 0 → 2."
    edit = reverse("character_edit", args=[school["table"].pk, marieta.pk])
    form = school["clients"]["ann"].get(edit).content.decode()
    tag = form[form.index('name="sheet_corruption"') - 200:form.index('name="sheet_corruption"') + 200]
    assert "disabled" in tag  # the rules keep it
    for key in ("a_plus", "f_skill", "major"):  # chosen at its making: a change is asked of the GM (issue 36)
        tag = form[form.index(f'name="sheet_{key}"'):]
        assert "disabled" not in tag[:tag.index(">")], key
        help_at = form.index(f'id="id_sheet_{key}_helptext"')
        assert "A change waits for the GM" in form[help_at:form.index("</small>", help_at)], key
    marieta.refresh_from_db()
    before = (dict(marieta.sheet), marieta.version)
    with pytest.raises(services.NotAllowed, match="the rules' to change"):
        services.character_update(character=marieta, actor=school["ann"], name="Marieta",
                                  sheet={**MARIETA, "corruption": "0"})
    for change in ({"a_plus": "GYM", "f_skill": "FREE"}, {"major": "The Sun"}):
        marieta.refresh_from_db()
        answer = school["clients"]["ann"].post(edit, {"name": "Marieta", "version": marieta.version,
                                                      **{f"sheet_{k}": v for k, v in {**MARIETA, **change}.items()}})
        assert answer.status_code == 302
        asked = SheetRequest.objects.filter(character=marieta, status="open").get()
        assert set(asked.sheet) == set(change)
    fresh = Character.objects.get(pk=marieta.pk)
    assert {k: fresh.sheet[k] for k in ("corruption", "a_plus", "f_skill", "major")} == \
        {k: before[0][k] for k in ("corruption", "a_plus", "f_skill", "major")}
    # what is hers to change (the name), she changes, and the log says what
    services.character_update(character=fresh, actor=school["ann"], name="Marieta Ruiz",
                              sheet={**MARIETA, "corruption": "2"})
    line = Event.objects.filter(table=school["table"], kind="character.updated").latest("seq")
    assert line.summary == "Ann changes Marieta: name Marieta → Marieta Ruiz."
