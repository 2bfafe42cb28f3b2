"""One plain-English log line per event: ``summary(event, state)``, the state after the event."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.report_card.meanings import card_name
from games.report_card.rules import OUTCOME_LABELS, RANK_LABELS
from games.report_card.state import MODES, check_by_id, joined, names

_EDGE = {"bonus": "Bonus", "penalty": "Penalty"}
_REASONS = {
    "highest": "{names} drew the highest card and accomplishes it",
    "nobody": "nobody succeeded, so the whole task fails",
    "critical_success": "{names}'s Critical Success succeeds for everyone",
    "two": "two or more succeeded, which is enough",
    "critical_failure": "{names}'s Critical Failure fails for everyone",
    "fewer_than_two": "fewer than two succeeded",
    "granted": "the GM grants it without a draw (Inconsequential)",
    "unsettled": "closed by the GM before it was settled",
    "unapproved": "the GM did not approve it, so it was never made",
}


def _part(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of its check an event is about (the check may be history by the next line)."""
    check = check_by_id(state, event["check"])
    assert check is not None, "an event of a check the state never had"
    return check["parts"][event["part"]]


def _card(draw: Mapping[str, Any]) -> str:
    text = card_name(draw["card"])
    if draw["second"]:
        text += f", then {card_name(draw['second'])}"
    return text


def _verdict(draw: Mapping[str, Any]) -> str:
    """'failure, a near miss: it needed a 10 or better.': the rule that decided is in the line's
    working (working.py), where the seed's words stand."""
    text = OUTCOME_LABELS[draw["outcome"]]
    if draw["happenstance"]:
        text += " by happenstance (blind luck, not skill)"
    if draw["closeness"]:
        text += f", {draw['closeness']['text']}"
    return text + "."


def _called(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    check = event["check"]
    who = "The GM" if event["by_gm"] else (check["by"] or "A player")
    parts = []
    for part in check["parts"]:
        rank = RANK_LABELS[part["rank"]]
        if part["note"]:
            mark = part["note"].split(":")[0]  # "A+ skill", "F skill"
            rank = (f"{RANK_LABELS[part['base_rank']]} made {rank} by the {mark}" if part["base_rank"] != part["rank"]
                    else f"{rank}, {part['note']}")
        extra = [e for e, on in (("Bonus", part["bonus"]), ("Penalty", part["penalty"])) if on]
        role = ""
        if part["role"] == "helper":
            helps = next((p["name"] for p in check["parts"] if p["cid"] == part.get("helps")), "")
            role = f" to help {helps}" if helps and check["mode"] not in ("single", "help") else " to help"
        parts.append(f"{part['name']}{role} ({part['skill']}, {rank}"
                     f"{''.join('; ' + e for e in extra)})")
    kind = "" if check["mode"] in ("single", "help") else f" group check ({MODES[check['mode']]})"
    flags = " It is Inconsequential." if check["inconsequential"] else ""
    earlier = next((e for e in state.get("today", ()) if e["check"] == check.get("same_as")), None)
    if earlier is not None:  # the GM named it and let it be made again (a low-stakes check)
        flags += f" It repeats today's '{earlier['task']}', which the GM lets them make again."
    if check.get("approved") is False:
        flags += " The GM approves the difficulty and any Bonus before the draw."
    return f"{who} calls a{kind or ' check'} for '{check['task']}': {', '.join(parts)}.{flags}"


def _approved(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    check = check_by_id(state, event["check"])
    assert check is not None
    edge = "".join(f"; {e}" for e, on in (("Bonus", event["bonus"]), ("Penalty", event["penalty"])) if on)
    mark = event["note"].split(":")[0]  # "A+ skill", "F skill"
    faced = "" if event["faced"] == event["rank"] else f", {RANK_LABELS[event['faced']]} by the {mark}"
    return f"The GM approves the check for '{check['task']}': {RANK_LABELS[event['rank']]}{faced}{edge}."


def lasting_text(event: Mapping[str, Any]) -> str:
    """The lasting conditions a draw read, by name: "Splinted Leg's lasting Penalty"."""
    found = event.get("lasting") or {}
    said = [f"{joined(found[key])}'s lasting {_EDGE[key]}" for key in ("penalty", "bonus") if found.get(key)]
    return " and ".join(said)


def _drawn(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    who = _part(event, state)["name"]
    attempt = event["attempt"]
    rank = RANK_LABELS[attempt["rank"]]
    again = " on a retry" if event["retry"] else ""
    helped = {"bonus": " (the help grants a Bonus)", "penalty": " (the failed help brings a Penalty)",
              "both": " (one helper's Bonus and another's Penalty cancel)"}.get(event.get("help") or "", "")
    lasts = event.get("lasting") or {}
    if attempt["edge"] in lasts:  # a condition on the character gives it on every check (campaign)
        helped += f" (lasting: {joined(lasts[attempt['edge']])})"
    elif lasts:
        helped += f" ({lasting_text(event)}, cancelled)"
    if attempt["pending"] is None:
        return f"{who} draws {_card(attempt['draws'][0])} against {rank}{again}{helped}: {_verdict(attempt['draws'][0])}"
    cards = " and ".join(_card(d) for d in attempt["draws"])
    chooser = f"{who} chooses which to keep" if attempt["pending"] == "player" else "the GM chooses the worse"
    return f"{who} draws {cards} against {rank}{again} with {_EDGE[attempt['edge']]}{helped}: {chooser}."


def _picked(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    part = _part(event, state)
    who = part["name"]
    draw = part["attempts"][-1]["draws"][event["index"]]
    if event["by"] == "gm":
        return f"The GM gives {who} the worse card, {_card(draw)}: {_verdict(draw)}"
    return f"{who} keeps {_card(draw)}: {_verdict(draw)}"


def reason_text(check: Mapping[str, Any], reason: str, winners: list[str]) -> str:
    """Why a check ended as it did, in words ("nobody succeeded, so the whole task fails"),
    or "" when its outcome says it all."""
    found = _REASONS.get(reason)
    return found.format(names=joined(names(check, winners)) if winners else "") if found else ""


def _closed(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    outcome = OUTCOME_LABELS.get(event["outcome"] or "", "no result")
    line = f"The check for '{event['task']}' ends: {outcome}"
    check = check_by_id(state, event["check"])
    assert check is not None, "the check it closed is in the history"
    reason = reason_text(check, event["reason"], event["winners"])
    if reason:
        line += "; " + reason
    elif event["winners"]:
        line += f" for {joined(names(check, event['winners']))}"
    return line + "."


def _retried(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    held = ", the GM holding the rank" if event["held"] else ", one rank easier"
    return (f"{_part(event, state)['name']} takes a Corruption Point ({event['corruption']} of 3) to retry at "
            f"{RANK_LABELS[event['rank']]}{held}.")


def _accepted(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    return f"{_part(event, state)['name']}'s failure stands."


def _hold(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    return ("The GM holds the rank: a retry stays as hard." if event["hold"]
            else "A retry becomes one rank easier again.")


def _day(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    days = int(event.get("days") or 1)
    passed = f" ({days} Days pass)" if days > 1 else ""
    return f"Day {event['day']} begins{passed}: checks made on earlier Days may be made again."


def _calls(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    return ("Players may now call checks for their own characters." if event["allowed"]
            else "Only the GM calls checks now.")


def _rechosen(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    return (f"{event['name']} spends three Corruption Points: A+ is now {event['a_plus']}, "
            f"F is now {event['f_skill']}, and the circles empty.")


LINES: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], str]] = {
    "check_called": _called, "drawn": _drawn, "picked": _picked, "retried": _retried, "accepted": _accepted,
    "check_closed": _closed, "hold_set": _hold, "day_started": _day, "player_calls_set": _calls,
    "skills_rechosen": _rechosen, "check_approved": _approved,
}


def summary(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """``event``'s line in the log, everyone's (every card lies face up)."""
    return LINES[event["type"]](event, state)
