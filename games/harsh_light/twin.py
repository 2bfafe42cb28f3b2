"""A line's working for everyone, when its event holds an NPC's figures (issue 23).

An event with ``gm_figures`` (secrecy.py) keeps the NPC's figures in a part the GM alone reads;
an undeclared working would go there too, and players and spectators would get no "How" under
the line of an NPC's pull, an attack on its Defence, its Willpower, its Dodge... So such a line's
working is declared public (``Working.private``): the outer working is built from the event's
public part alone (the event less its ``gm_figures`` keys, as ``_public`` leaves it for the
others), each NPC figure said as "the GM's figure" where it enters the sum; the whole working
(working.py) is its private twin, for the GM. The rule quoted is the seed's text (or our stated
reading), public whatever the figures: Harsh Light has no secret rule.

Names and what the rules make public (a contest's or an extended action's successes needed,
Health) may come from the state; no figure of a sheet does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Working, twinned
from games.core.words import count
from games.harsh_light import working as w
from games.harsh_light.narrate import hit_or_miss
from games.harsh_light.state import name

Event = Mapping[str, Any]
GM = "the GM's figure"
PULLS = ("pulled", "extended_pulled", "contest_pulled", "consciousness_pulled")


def shown(event: Event) -> dict[str, Any]:
    """What everyone but the GM reads of ``event``: the whole of it less its GM's keys."""
    hidden = set(event.get("gm_figures") or ())
    return {k: v for k, v in event.items() if k not in hidden}


def pool_shown(words: str | None) -> list[str]:
    """A pool some of whose figures are the GM's, as steps: its parts as the event names them
    ('Strength 3 + Brawl 2 - Ghoul's Defence (the GM's figure)'), then its size, the GM's. An
    NPC's own pool names nothing, not even its traits (``words`` empty)."""
    if not words:
        return [f"pool: {GM}"]
    return [words.replace("(the GM's)", f"({GM})"), f"= pool: {GM}"]


def pull_steps(record: Mapping[str, Any]) -> list[str]:
    """A pull's steps with its pool and total the GM's: the cards, face up, and what they came to
    (the successes, a Dramatic Failure, an Exceptional Success, the verdict) are everyone's."""
    steps = pool_shown(record.get("pool_words"))
    got = record["successes"]
    if not record["cards"]:
        steps.append(f"the lowest card, an Ace, added to the pool: {w.success_word(got)} without a pull")
    values = record.get("values") or []
    again = [r for r in record.get("rules") or () if r.endswith("-again")]
    for i, (token, value) in enumerate(zip(record["cards"], values)):
        second = f" ({again[0] if again else 'again'}: a second card)" if i == 0 and len(values) == 2 else ""
        steps.append(f"+ {w.card_name(token)}: {value}{second}")
    if record["cards"]:
        steps.append(f"= total: {GM}; {w.success_word(got)}")
    return [*steps, *w.verdict_steps(record, "0 or less")]


def _pull(event: Event, state: Mapping[str, Any]) -> Working:
    record = event["record"]
    steps = pull_steps(record)
    if record.get("attack"):
        steps[-1] = hit_or_miss(steps[-1])
    rule, source = w.pull_rule(record)
    if event["type"] == "consciousness_pulled":
        rule, source = w.CONSCIOUS, w.OURS
    if event["type"] == "extended_pulled":
        needed = state["extended"][event["id"]]["needed"]  # said when it began, to everyone
        got = 0 if record["dramatic"] else record["successes"]
        steps.append(f"{event['gathered'] - got} gathered + {got} = {event['gathered']} of {needed}"
                     f"{': done' if event['done'] else ''}")
        rule, source = f"{w.EXTENDED}. {rule}", f"{w.EXTENDED_AT}; {source}"
    return Working(steps=tuple(steps), rule=rule, source=source)


def _damaged(event: Event) -> Working:
    """An NPC's blow: its successes and the damage are everyone's, its weapon's bonus the GM's."""
    steps = [f"{w.success_word(event.get('successes', 0))} on the attack",
             f"+ its weapon and any bonus the attack names: {GM}", f"= {event['points']} {event['kind']}"]
    if event.get("firearm"):
        steps.append("a firearm's lethal is bashing to a vampire (the Requiem)")
    return Working(steps=(*steps, *w.track_steps(event)), rule=f"{w.DAMAGE} {w.HARM}", source=w.OURS)


def _order_set(event: Event, state: Mapping[str, Any]) -> Working:
    steps = []
    for cid, i in event["initiative"].items():
        plus, total = (f"{i['modifier']}", i["total"]) if "total" in i else (f"({GM})", GM)
        steps.append(f"{name(state, cid)}: Dexterity + Composure {plus} + {w.card_name(i['card'])} {i['value']} "
                     f"= {total}")
    steps.append("highest first: " + ", ".join(name(state, c) for c in event["order"]))
    return Working(steps=tuple(steps), rule=w.INITIATIVE, source=w.OURS)


def public(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working everyone reads of an event whose ``gm_figures`` are left out of it."""
    kind, seen = event.get("type"), shown(event)
    who = name(state, event.get("combatant"))
    if kind in PULLS:
        return _pull(seen, state)
    if kind == "pull_set_up":  # whether the pool alone reaches it is the GM's too
        return Working(steps=(*pool_shown(seen.get("pool_words")), f"{count(seen['needed'], 'success', 'successes')}"
                              " needed"), rule=w.SUCCESSES, source=w.BASIC)
    if kind == "damaged":
        return _damaged(seen)
    if kind == "willpower_spent":
        return Working(steps=(f"{who} spends 1 Willpower: {w.BUYS[seen['use']]}", f"points left: {GM}",
                              "one a turn"), rule=w.WILLPOWER, source=w.USEFUL)
    if kind == "dodged":
        return Working(steps=(f"Defence ({GM}) × 2", "until the next turn"), rule=w.DODGE, source=w.USEFUL)
    if kind == "moved":
        return Working(steps=(f"Speed now: {GM}",), rule=w.MOVE, source=w.USEFUL)
    if kind == "order_set" and seen.get("initiative"):
        return _order_set(seen, state)
    return None


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line (``Procedure.working``): the whole one (working.py) when
    everyone reads the whole event; else the public one, the whole as its private twin."""
    whole = w.working(event, state)
    if whole is None or not event.get("gm_figures"):
        return whole
    # with no public working for it, the whole stays the GM's, as before
    return twinned(public(event, state), whole)
