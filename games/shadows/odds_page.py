"""Shadows of Humanity's odds page: every complexity's chances before a check (one card or
three), each attack card's chance from a hand, an opposed action's chances, and the SVG chart
of the check odds. The exact odds themselves are in ``odds``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Page
from games.forms import Form, bounded, value
from games.shadows import deck, odds
from games.shadows.combat import ATTACK_FOCUS, ATTRIBUTE_LABELS, defence
from games.shadows.faces import chance, pct
from games.shadows.resolution import BAND_LABELS, COMPLEXITIES
from games.shadows.weapons import find


# Odds: before a check (one card or three), and for an attack card from the hand.


def check_odds(modifier: int) -> list[dict[str, Any]]:
    """Every complexity, one card and three, for a skill + attribute (+ ...) of ``modifier``."""
    rows = []
    for level in COMPLEXITIES.values():
        for cards in (1, 3):
            o = odds.all_or_nothing(modifier, level.key, cards=cards)
            rows.append({"complexity": level.label, "key": level.key, "cards": cards,
                         **{band: pct(getattr(o, band)) for band in BAND_LABELS}})
    return rows


def hand_odds(state: Mapping[str, Any], cid: str, target: str, weapon: str, skill: int = 0) -> list[dict[str, Any]]:
    """For a combatant's own hand (so only for its player and the GM): each card's chance to
    get through ``target``'s Defence if played alone as the attack, the target dodging with
    its best cards (as many as it could: its AP, its hand, one AP spent). Unseen cards are the
    Minor Arcana less this hand and the cards played this round."""
    fight = (state.get("combat") or {})
    people = fight.get("combatants") or {}
    me, them = people.get(cid), people.get(target)
    if me is None or them is None:
        return []
    row = find(state["weapons"], weapon)
    guard = defence(row["type"], them["attributes"], protection=them["protection"]).total
    known = set(me["hand"]) | set(fight.get("played") or [])
    unseen = [c for c in deck.minor_tokens() if c not in known]
    off = -3 if me["focus"] and ATTACK_FOCUS[row["type"]] != me["focus"] else 0
    k = min(1, them["ap"], len(them["hand"]))
    out = []
    for token in me["hand"]:
        through = odds.attack_through(token, skill + off, guard, defender_hand=len(them["hand"]),
                                      defence_cards=k, unseen=unseen)
        out.append({"token": token, "name": deck.name(token), "hit": pct(through.hit)})
    return out


def _card_of(raw: str) -> str:
    """'swords:12', 'tarot:swords:12' or '12' (Swords) as a Minor Arcana token."""
    text = raw.strip().lower()
    if text.isdigit():
        text = f"swords:{text}"
    if not text.startswith("tarot:"):
        text = f"tarot:{text}"
    return text if deck.is_minor(text) else "tarot:swords:10"


def odds_context(query: Form) -> dict[str, Any]:
    """The odds page: ``?modifier=`` for checks; ``?card=&skill=&defence=&hand=&dodges=``
    for an attack; ``?first=&second=`` for an opposed action. Never refuses: a bad value
    falls back to its default."""
    modifier = bounded(query, "modifier", 15, -20, 80)
    card = _card_of(value(query, "card", "swords:10"))
    skill = bounded(query, "skill", 5, -20, 60)
    guard = bounded(query, "defence", 8, 0, 80)
    hand = bounded(query, "hand", 0, 0, 30)
    dodges = bounded(query, "dodges", 0, 0, 13)
    attack = odds.attack_through(card, skill, guard, defender_hand=hand, defence_cards=dodges)
    rows = check_odds(modifier)
    through = odds.through_by_value(skill, guard, defender_hand=hand, defence_cards=dodges)
    first, second = bounded(query, "first", 10, -20, 80), bounded(query, "second", 8, -20, 80)
    match = odds.opposed(first, second)
    return {
        "opposed": {"first": first, "second": second, "first_pct": pct(match.first),
                    "second_pct": pct(match.second),
                    "by_lead": [{"lead": lead, "pct": pct(float(odds.opposed_exact(lead)))}
                                for lead in (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)]},
        "modifier": modifier, "rows": rows, "bands": BAND_LABELS, "chart": check_chart(rows),
        "attributes": ATTRIBUTE_LABELS, "card_choices": _CARD_CHOICES,
        "attack": {"card": card, "card_name": deck.name(card), "skill": skill, "defence": guard,
                   "hand": hand, "dodges": dodges, "value": attack.attack, "hit": chance(attack.hit),
                   "by_value": [{"value": v, "name": _VALUE_NAMES[v], "chance": chance(p)} for v, p in through.items()],
                   "none_through": not any(through.values())},
    }


_VALUE_NAMES = {1: "Ace", 11: "Page", 12: "Knight", 13: "Queen", 14: "King",
                **{v: str(v) for v in range(2, 11)}}
_CARD_CHOICES = [(f"{suit}:{v}", deck.name(f"tarot:{suit}:{v}")) for suit in deck.SUITS for v in range(1, 15)]
_SEGMENTS = ("fumble", "failure", "success", "critical_success")


def check_chart(rows: list[dict[str, Any]], *, width: int = 300, bar_height: int = 16, gap: int = 6,
                label_width: int = 150) -> dict[str, Any]:
    """An SVG bar chart of the check odds: one bar per complexity and number of cards, split
    into fumble, failure, success and critical success; segment widths add up to ``width``."""
    bars = []
    for i, row in enumerate(rows):
        x, segments = label_width, []
        for index, band in enumerate(_SEGMENTS):
            span = label_width + width - x if index == len(_SEGMENTS) - 1 else round(float(row[band]) / 100 * width)
            segments.append({"band": band, "label": BAND_LABELS[band], "x": x, "width": max(0, span),
                             "percent": row[band]})
            x += span
        bars.append({"label": f"{row['complexity']}, {'one card' if row['cards'] == 1 else 'three'}",
                     "y": i * (bar_height + gap) + (i // 2) * 8,  # a little room between complexities
                     "height": bar_height, "segments": segments, "success": row["success"],
                     "critical_success": row["critical_success"]})
    height = bars[-1]["y"] + bar_height if bars else 0
    return {"width": label_width + width, "label_width": label_width, "height": height, "bars": bars}


ODDS = Page(slug="odds", title="Shadows of Humanity odds", template="games/shadows/odds.html",
            context=odds_context)
