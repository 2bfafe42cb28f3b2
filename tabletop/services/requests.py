"""Sheets in play are the rules' and the GM's (issue 36, the decided reading "All systems, sheets
in play"): once a rule move has used a character (``Character.in_play``), a field its rules read
(``SheetField`` rules "read") changes only by a rule move, the GM's edit, or its player's
request the GM approves or refuses in one click, seeing the diff. What no rule reads stays the
player's. A table option (``Table.sheet_approvals``) turns approvals off; a new character's
figures past what its system allows at creation (``Sheet.creation``) are asked the same way.

A request holds only the asked fields' new values; the rules read the old ones until the GM
approves. Approving writes them over the sheet as it is then. Where the system prices growth
(``GameSystem.growth``, games/core/growth.py), the request shows what the change costs and the
approval takes it from the character's pool with the change, in one logged step.

Who reads what: a player's character sheet is public, so the approval's line names the change
for everyone; the request itself, and a refusal, are between the player and the GM (the others
read that a request was made or refused, not its figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import registry
from games.core.growth import Price
from games.sheets import SheetError, SheetField
from tabletop.models import Audience, Character, Membership, Role, SheetRequest, Table
from tabletop.permissions import Verb
from tabletop.selectors import character_shown, procedure_state
from tabletop.services.base import NotAllowed, NotFound, ServiceError, acting, append, lock_table

OPEN = SheetRequest.Status.OPEN
IN_PLAY = "in play: the rules read the old figures until the GM approves"
MADE = "made: what was chosen at its making is the rules' and the GM's to change"


def asks(spec: SheetField, character: Character) -> bool:
    """Whether its player's change to this field of ``character`` is asked of the GM: a field the
    rules read once a rule move has used the character, a field chosen at its making once made."""
    return spec.rules == "chosen" or (spec.rules == "read" and character.in_play)


def must_ask(table: Table, me: Membership, character: Character) -> bool:
    """Whether ``me``'s changes to ``character`` may wait for the GM: a player's, while the table
    approves changes (``Table.sheet_approvals``)."""
    return me.role != Role.GM and table.sheet_approvals


def asked_keys(table: Table, me: Membership, character: Character) -> frozenset[str]:
    """The fields of ``character`` whose change by ``me`` waits for the GM (the form says so)."""
    if not must_ask(table, me, character):
        return frozenset()
    return frozenset(spec.key for spec in registry.get(table.system).sheet_fields if asks(spec, character))


def asked_changes(table: Table, character: Character, before: Mapping[str, Any],
                  after: Mapping[str, Any]) -> dict[str, Any]:
    """The asked fields of ``character`` whose value ``after`` changes, with their new values."""
    return {spec.key: after.get(spec.key, spec.default) for spec in registry.get(table.system).sheet_fields
            if asks(spec, character) and after.get(spec.key, spec.default) != before.get(spec.key, spec.default)}


def diff_rows(table: Table, before: Mapping[str, Any], asked: Mapping[str, Any]) -> list[dict[str, str]]:
    """What a request changes, field by field, by the sheet's own labels: old and new."""
    from tabletop.services.characters import listed_changes, shown_value
    rows = []
    for spec in registry.get(table.system).sheet_fields:
        if spec.key not in asked:
            continue
        old, new = before.get(spec.key, spec.default), asked[spec.key]
        if spec.kind in ("stats", "skills"):
            rows.append({"label": spec.label, "was": "", "now": listed_changes(old, new)})
        else:
            rows.append({"label": spec.label, "was": shown_value(old), "now": shown_value(new)})
    return rows


def _said(rows: list[dict[str, str]]) -> str:
    return "; ".join(f"{r['label']} {r['was']} → {r['now']}" if r["was"] else f"{r['label']}: {r['now']}"
                     for r in rows)


def price_of(table: Table, before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[Price | None, str]:
    """What the change costs at this table (its system's growth, at the table's options), or
    None with why it is not a purchase ("" when the system sells nothing)."""
    growth = registry.get(table.system).growth
    if growth is None or not growth.pool:
        return None, ""
    try:
        return growth.price(before, after, procedure_state(table) or {}), ""
    except SheetError as exc:
        return None, exc.message


def is_purchase(request: SheetRequest) -> bool:
    """Whether a request may be paid for: a change asked once the character is made, never the
    figures a new character asked for past creation (those are the GM's to grant or not)."""
    return request.reason in (IN_PLAY, MADE)


def request_data(table: Table, request: SheetRequest, character: Character) -> dict[str, Any]:
    """A request as its box draws it: who asks for whom, the diff, and its price."""
    growth = registry.get(table.system).growth if is_purchase(request) else None
    before = character.sheet
    after = {**before, **request.sheet}
    price, not_bought = price_of(table, before, after) if growth is not None else (None, "")
    data: dict[str, Any] = {
        "id": request.pk, "character_id": character.pk, "character": character.name,
        "asked_by": request.asked_by.display_name if request.asked_by else "",
        "asked_by_id": request.asked_by_id, "reason": request.reason,
        "rows": diff_rows(table, before, request.sheet), "not_bought": not_bought,
    }
    if price is not None and growth is not None and price.cost:
        has = _whole(before.get(growth.pool))
        data["price"] = {"cost": price.cost, "unit": growth.unit, "lines": list(price.lines), "has": has,
                         "enough": has >= price.cost}
    return data


def _whole(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def file_request(locked: Table, me: Membership, character: Character, asked: Mapping[str, Any],
                 *, reason: str) -> SheetRequest:
    """Files ``me``'s request for ``asked`` on ``character`` (under the table's lock): a newer
    request for the same character replaces a waiting one."""
    waiting = SheetRequest.objects.filter(character=character, status=OPEN)
    for old in waiting:
        old.status, old.decided = SheetRequest.Status.WITHDRAWN, timezone.now()
        old.save(update_fields=["status", "decided"])
        _logged(locked, "character.request_withdrawn", me, character, old,
                f"{me.display_name}'s earlier request for {character.name} is replaced by a new one.")
    request = SheetRequest.objects.create(table=locked, character=character, asked_by=me, name=character.name,
                                          sheet=dict(asked), version=character.version, reason=reason)
    data = request_data(locked, request, character)
    cost = f" (costs {data['price']['cost']} {data['price']['unit']})" if "price" in data else ""
    append(locked, "character.requested", actor=me, owner=me,
           summary=f"{me.display_name} asks the GM to approve a change to {character.name}'s sheet.",
           payload={"request": request.pk, "character": character.pk},
           private={"request": data}, private_audience=Audience.OWNER,
           private_summary=f"{me.display_name} asks the GM to approve, for {character.name}: "
                           f"{_said(data['rows'])}{cost}.")
    return request


def _logged(locked: Table, kind: str, me: Membership, character: Character, request: SheetRequest,
            summary: str) -> None:
    """A request that leaves the box (refused, withdrawn, replaced): its line, the box's item gone
    from the GM's and the asker's pages."""
    append(locked, kind, actor=me, owner=request.asked_by, summary=summary,
           payload={"request": request.pk, "character": character.pk, "asked_by": request.asked_by_id})


def _open_request(locked: Table, request_id: int) -> tuple[SheetRequest, Character]:
    request = (SheetRequest.objects.select_related("character", "asked_by")
               .filter(pk=request_id, table=locked).first())
    if request is None:
        raise NotFound("There is no such request at this table.")
    if request.status != OPEN:
        raise ServiceError(f"That request was already {request.get_status_display().lower()}; nothing was changed.")
    return request, request.character


def request_approve(*, table: Table, actor: Membership, request_id: int, free: bool = False) -> Character:
    """The GM approves: the asked figures go on the sheet as it is now, and what the change costs
    (the system's growth) comes off the character's pool, in one logged step; ``free``, the GM
    grants it without charge (a correction, a gift), and the log says so."""
    from tabletop.services.characters import character_event, clean_sheet_of, with_what_the_rules_wrote
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CHARACTER_EDIT_ANY)
        request, character = _open_request(locked, request_id)
        game = registry.get(locked.system)
        before = dict(character.sheet)
        after = clean_sheet_of(locked, {**before, **request.sheet})
        rows = diff_rows(locked, before, {k: v for k, v in after.items() if k in request.sheet and before.get(k) != v})
        price, _ = price_of(locked, before, after) if is_purchase(request) else (None, "")
        spent = ""
        if free and price is not None and price.cost and game.growth is not None:
            spent = f" (without charge: it would cost {price.cost} {game.growth.unit})"
            price = None
        elif price is not None and price.cost and game.growth is not None:
            has = _whole(before.get(game.growth.pool))
            if has < price.cost:
                raise ServiceError(f"{character.name} has {has} {game.growth.unit}; this costs {price.cost}. "
                                   "Refuse it, or grant it without charge.")
            after[game.growth.pool] = has - price.cost
            spent = f" ({price.cost} {game.growth.unit} spent)"
        character.sheet = with_what_the_rules_wrote(locked, before, after)
        character.version += 1
        character.save(update_fields=["sheet", "version"])
        request.status, request.decided = SheetRequest.Status.APPROVED, timezone.now()
        request.save(update_fields=["status", "decided"])
        asker = request.asked_by.display_name if request.asked_by else "a player"
        said = _said(rows) or "nothing left to change"
        shown, _ = character_shown(character)
        append(locked, "character.request_approved", actor=me, owner=request.asked_by,
               summary=f"{me.display_name} approves {asker}'s request for {character.name}: {said}{spent}.",
               payload={"request": request.pk, "character": shown, "asked_by": request.asked_by_id,
                        "rows": rows, **({"cost": price.cost, "unit": game.growth.unit}
                                         if price is not None and price.cost and game.growth is not None else {})})
        character_event(locked, "character.updated", actor=me, character=character,
                        summary=f"{character.name}'s sheet now holds what the GM approved.")
    return character


def request_refuse(*, table: Table, actor: Membership, request_id: int) -> None:
    """The GM refuses: nothing on the sheet changes."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CHARACTER_EDIT_ANY)
        request, character = _open_request(locked, request_id)
        request.status, request.decided = SheetRequest.Status.REFUSED, timezone.now()
        request.save(update_fields=["status", "decided"])
        asker = request.asked_by.display_name if request.asked_by else "a player"
        _logged(locked, "character.request_refused", me, character, request,
                f"{me.display_name} refuses {asker}'s request for {character.name}: the sheet is unchanged.")


def request_withdraw(*, table: Table, actor: Membership, request_id: int) -> None:
    """Its player takes a waiting request back."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CHARACTER_EDIT_OWN)
        request, character = _open_request(locked, request_id)
        if request.asked_by_id != me.pk:
            raise NotAllowed("Only the player who asked may withdraw a request.")
        request.status, request.decided = SheetRequest.Status.WITHDRAWN, timezone.now()
        request.save(update_fields=["status", "decided"])
        _logged(locked, "character.request_withdrawn", me, character, request,
                f"{me.display_name} withdraws a request for {character.name}.")


def table_sheet_approvals(*, table: Table, actor: Membership, on: bool) -> None:
    """The GM turns approvals on (the default) or off: off, a player's change to their own sheet
    in play is saved as typed (and logged), and creation's limits are not asked about."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.TABLE_CONFIGURE)
        if locked.sheet_approvals == on:
            raise ServiceError("Players' changes already " + ("wait for your approval." if on else
                                                              "go on their sheets as they type them."))
        locked.sheet_approvals = on
        locked.save(update_fields=["sheet_approvals"])
        summary = (f"{me.display_name} asks to approve players' changes to figures the rules read, once a "
                   "character is in play." if on else
                   f"{me.display_name} lets players change their own sheets without approval.")
        append(locked, "table.approvals", actor=me, summary=summary, payload={"sheet_approvals": on})


def open_requests(table: Table, me: Membership | None) -> list[dict[str, Any]]:
    """The requests waiting, as the box draws them: all of them for the GM, a player's own for
    that player, none for anyone else."""
    if me is None or me.role == Role.SPECTATOR:
        return []
    rows = SheetRequest.objects.filter(table=table, status=OPEN).select_related("character", "asked_by")
    if me.role != Role.GM:
        rows = rows.filter(asked_by=me)
    return [request_data(table, r, r.character) for r in rows.order_by("pk")]


def latest_request(character: Character, me: Membership) -> int | None:
    """The id of ``me``'s newest waiting request for ``character``: a form learns whether its
    save filed one."""
    return (SheetRequest.objects.filter(character=character, asked_by=me, status=OPEN)
            .order_by("-pk").values_list("pk", flat=True).first())
