"""How each log line came out (``Engine.working``): the pull's arithmetic, the damage's boxes, the
contest's comparison, and the rule applied, in the seed's own words where it has them (quotes.py).

A working is built from the event alone (names come from the state): never from a figure the
state holds and the event does not carry. An event holding an NPC's figures keeps them in its
GM's part (audiences.py); an undeclared working would go there too, and players and spectators
would get no "How" under the line of an NPC's pull, an attack on its Defence, its Willpower, its
Dodge... So such a line's working is declared public (``Working.private``): ``explain`` builds it
from the event's public part alone (``public``), each NPC figure said as "the GM's figure" where it
enters the sum, and the whole working, built from the whole event, is its private twin, the GM's.
The rule quoted is public whatever the figures: Harsh Light has no secret rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Working, twinned
from games.core.cards import OrientedCard
from games.core.words import count
from games.harsh_light import audiences, health, rules
from games.harsh_light.narrate import hit_or_miss
from games.harsh_light.quotes import (
    AGAIN, AUTOMATIC, BASIC, CONSCIOUS, CONTESTED, CONTESTED_AT, CONTESTED_EXTENDED, DAMAGE, DODGE, DRAMATIC,
    EXCEPTIONAL, EXTENDED, EXTENDED_AT, HARM, HEAL, INITIATIVE, MOVE, OURS, RESISTED, RESISTED_AT, SUCCESSES,
    USEFUL, WILLPOWER,
)
from games.harsh_light.state import name

Event = Mapping[str, Any]
BUYS = {"pool": "+3 to the pool", "resist": "+2 against the next resisted test", "power": "a power"}
PULLS = ("pulled", "extended_pulled", "contest_pulled", "consciousness_pulled")


def card_name(token: str) -> str:
    return OrientedCard.from_token(token).card.name


def term(reason: str, value: int, first: bool = False) -> str:
    """'Dexterity 3' first, then '+ Firearms 2' or '- Bob's Defence 2'."""
    if first:
        return f"{reason} {value}"
    return f"{'+' if value >= 0 else '-'} {reason} {abs(value)}"


def pool_steps(pool: Mapping[str, Any]) -> list[str]:
    """One step per part of the pool, then its size."""
    return [*(term(r, v, i == 0) for i, (r, v) in enumerate(pool["parts"])), f"= pool {pool['size']}"]


def pool_shown(words: str | None) -> list[str]:
    """A pool some of whose figures are the GM's, as steps: its parts as the event names them
    ('Strength 3 + Brawl 2 - Ghoul's Defence (the GM's figure)'), then its size, the GM's. An
    NPC's own pool names nothing, not even its traits (``words`` empty)."""
    if not words:
        return [f"pool: {audiences.GM_FIGURE}"]
    return [words.replace("(the GM's)", f"({audiences.GM_FIGURE})"), f"= pool: {audiences.GM_FIGURE}"]


def success_word(n: int) -> str:
    return "no successes" if n == 0 else count(n, "success", "successes")


def pull_steps(record: Mapping[str, Any]) -> list[str]:
    """The pool's parts, each card, the total and the successes it reaches, then the verdict; a
    pool and total that are the GM's (a record without its ``pool``) said so, the cards, face up,
    and what they came to said as they fell."""
    got, values, known = record["successes"], record.get("values") or [], "pool" in record
    steps = pool_steps(record["pool"]) if known else pool_shown(record.get("pool_words"))
    if not record["cards"]:
        made = f"would make {record['pool']['size'] + 1}" if known else "added to the pool"
        steps.append(f"the lowest card, an Ace, {made}: {success_word(got)} without a pull")
    again = [r for r in record.get("rules") or () if r.endswith("-again")]
    for i, (token, value) in enumerate(zip(record["cards"], values)):
        second = f" ({again[0] if again else 'again'}: a second card)" if i == 0 and len(values) == 2 else ""
        steps.append(f"+ {card_name(token)}: {value}{second}")
    if record["cards"] and known:
        reach = f"reaches {rules.total_for(got)}" if got else "is under 8"
        steps.append(f"= total {record['total']}, which {reach}: {success_word(got)}")
    elif record["cards"]:
        steps.append(f"= total: {audiences.GM_FIGURE}; {success_word(got)}")
    return [*steps, *verdict_steps(record, str(record["pool"]["size"]) if known else "0 or less")]


def verdict_steps(record: Mapping[str, Any], pool: str) -> list[str]:
    """What a pull came to beyond its successes: a Dramatic Failure (an Ace on a pool of
    ``pool``), an Exceptional Success, and whether it reached the successes it needed."""
    steps = []
    if record.get("dramatic"):
        steps.append(f"an Ace on a pool of {pool}: a Dramatic Failure")
    elif record.get("exceptional"):
        steps.append("5 successes or more: an Exceptional Success")
    needed = record.get("needed")
    if needed and record.get("kind") in ("simple", "resisted", "consciousness"):
        steps.append(f"{count(needed, 'success', 'successes')} needed: "
                     f"{'it succeeds' if record['succeeded'] else 'it fails'}")
    return steps


def pull_rule(record: Mapping[str, Any]) -> tuple[str, str]:
    """The rule that decided the pull, with the counting rule or the resisting one beside it."""
    if record.get("dramatic"):
        return DRAMATIC, BASIC
    if not record["cards"]:
        return AUTOMATIC, BASIC
    first = RESISTED if record.get("kind") == "resisted" else SUCCESSES
    if len(record.get("values") or []) == 2:
        return f"{AGAIN} {first}", BASIC if first == SUCCESSES else f"{BASIC}; {RESISTED_AT}"
    if record.get("exceptional"):
        return f"{first} Finally, {EXCEPTIONAL}.", BASIC
    return first, RESISTED_AT if first == RESISTED else BASIC


def _pull(event: Event, state: Mapping[str, Any]) -> Working:
    record = audiences.whole(event["record"], event.get("figures"))
    steps = pull_steps(record)
    if record.get("attack"):
        steps[-1] = hit_or_miss(steps[-1])
    rule, source = pull_rule(record)
    if event["type"] == "consciousness_pulled":
        rule, source = CONSCIOUS, OURS
    if event["type"] == "extended_pulled":
        needed = state["extended"][event["id"]]["needed"]  # said when it began, to everyone
        got = 0 if record["dramatic"] else record["successes"]
        if event.get("lost"):
            steps.append(f"a Dramatic Failure loses the successes gathered (as the Storyteller set it): 0 of {needed}")
        else:
            steps.append(f"{event['gathered'] - got} gathered + {got} = {event['gathered']} of {needed}"
                         f"{': done' if event['done'] else ''}")
        if event.get("failed"):
            steps.append(f"the last of the {record['number']} pulls the Storyteller allowed: it fails")
        rule, source = f"{EXTENDED}. {rule}", f"{EXTENDED_AT}; {source}"
    return Working(steps=tuple(steps), rule=rule, source=source)


def track_steps(event: Event) -> list[str]:
    """The wounded track as the wound leaves it (Health is everyone's), and its penalty."""
    track = health.Track(event["size"], **event["health"])
    marks = " ".join(health.MARKS.get(b, "·") if b else "·" for b in track.boxes())
    after = [f"Health now {marks} ({event['size']} boxes)"]
    if track.penalty():
        after.append(f"wound penalty {track.penalty()} to pools and Speed")
    return after


def _damaged(event: Event) -> Working:
    """A blow's successes and damage are everyone's; an NPC attacker's weapon, the GM's."""
    kind, points = event["kind"], event["points"]
    if event.get("by") is None:
        why = f" ({event['reason']})" if event.get("reason") else ""
        return Working(steps=(f"the Storyteller deals {points} {kind}{why}", *track_steps(event)), rule=HARM,
                       source=OURS)
    steps = [f"{success_word(event.get('successes', 0))} on the attack"]
    weapon = event.get("weapon")
    if weapon:
        steps += [f"+ {weapon['name']} {weapon['bonus']}"] if weapon["name"] else []
        steps += [f"+ {weapon['extra']} for the attack"] if weapon["extra"] else []
    elif "weapon" in (event.get("gm_figures") or ()):
        steps.append(f"+ its weapon and any bonus the attack names: {audiences.GM_FIGURE}")
    steps.append(f"= {points} {kind}")
    if event.get("firearm"):
        steps.append("a firearm's lethal is bashing to a vampire (the Requiem)")
    return Working(steps=(*steps, *track_steps(event)), rule=f"{DAMAGE} {HARM}", source=OURS)


def _contest_round(event: Event, state: Mapping[str, Any]) -> Working:
    contest = state["contests"][event["id"]]
    steps = [f"{name(state, c)}: {success_word(n)}" for c, n in event["successes"].items()]
    if contest["needed"]:
        steps.append("gathered so far: " + ", ".join(f"{name(state, c)} {n}" for c, n in event["gathered"].items())
                     + f", of {contest['needed']} needed")
    steps.append(f"{name(state, event['winner'])} wins" if event["winner"] is not None
                 else "nobody wins yet: the contest goes on")
    if contest["needed"]:
        return Working(steps=tuple(steps), rule=f"{CONTESTED} {CONTESTED_EXTENDED}", source=CONTESTED_AT)
    return Working(steps=tuple(steps), rule=CONTESTED, source=CONTESTED_AT)


def _order_set(event: Event, state: Mapping[str, Any]) -> Working | None:
    if not event.get("initiative"):
        return None
    figures = (event.get("figures") or {}).get("initiative", {})
    steps = []
    for cid, i in event["initiative"].items():
        i = {**i, **figures.get(cid, {})}  # an NPC's modifier: in the event's GM's part only
        secret = audiences.GM_FIGURE
        plus, total = (f"{i['modifier']}", i["total"]) if "total" in i else (f"({secret})", secret)
        steps.append(f"{name(state, cid)}: Dexterity + Composure {plus} + {card_name(i['card'])} {i['value']} "
                     f"= {total}")
    steps.append("highest first: " + ", ".join(name(state, c) for c in event["order"]))
    return Working(steps=tuple(steps), rule=INITIATIVE, source=OURS)


def _set_up(event: Event) -> Working:
    """A pull set up: its pool (the GM's, when it holds an NPC's figures) and what it needs."""
    if "pool" not in event:  # whether the pool alone reaches it is the GM's too
        return Working(steps=(*pool_shown(event.get("pool_words")),
                              f"{count(event['needed'], 'success', 'successes')} needed"), rule=SUCCESSES, source=BASIC)
    steps = pool_steps(event["pool"])
    if event.get("automatic"):
        steps.append(f"the lowest card would reach {event['needed']} needed: an automatic success")
    return Working(steps=tuple(steps), rule=AUTOMATIC if event.get("automatic") else SUCCESSES, source=BASIC)


def explain(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event`` as given (whole, or its public part), or None for bookkeeping
    (a turn passing, a pull put away)."""
    kind = event.get("type")
    who = name(state, event.get("combatant"))
    if kind in PULLS:
        return _pull(event, state)
    if kind == "pull_set_up":
        return _set_up(event)
    if kind == "damaged":
        return _damaged(event)
    if kind == "healed":
        track = health.Track(event["size"], **event["health"])
        return Working(steps=(f"{count(event['points'], 'box', 'boxes')} healed, the least severe first",
                              f"{track.filled} of {event['size']} boxes still marked"), rule=HEAL, source=OURS)
    if kind == "willpower_spent":
        left = (count(event["points_left"], "point") + " left" if "points_left" in event
                else f"points left: {audiences.GM_FIGURE}")
        return Working(steps=(f"{who} spends 1 Willpower: {BUYS[event['use']]}", left, "one a turn"),
                       rule=WILLPOWER, source=USEFUL)
    if kind == "dodged":
        doubled = f"Defence {event['defence'] // 2} × 2 = {event['defence']}" if "defence" in event \
            else f"Defence ({audiences.GM_FIGURE}) × 2"
        return Working(steps=(doubled, "until the next turn"), rule=DODGE, source=USEFUL)
    if kind == "moved":
        speed = count(event["speed"], "step") if "speed" in event else audiences.GM_FIGURE
        return Working(steps=(f"Speed now: {speed}",), rule=MOVE, source=USEFUL)
    if kind == "reaction_opened":
        hidden = () if "args" in event else (f"{who}'s pool: {audiences.GM_FIGURE}, pulled after the answer",)
        return Working(steps=(f"{name(state, event['target'])} may spend Willpower: +2 {event['against']}, "
                              "before the card", "one a turn", *hidden), rule=WILLPOWER, source=USEFUL)
    if kind == "order_set":
        return _order_set(event, state)
    if kind == "contest_round":
        return _contest_round(event, state)
    return None


def public(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working everyone reads of an event: built from it less its ``gm_figures``."""
    hidden = set(event.get("gm_figures") or ())
    return explain({k: v for k, v in event.items() if k not in hidden}, state)


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line (``Engine.working``): the whole one when everyone reads the
    whole event; else the public one, the whole as its private twin (declared public whole when
    the GM's part holds only what the move reckoned: no figure of the line is in it)."""
    made = explain(event, state)
    if made is None or not event.get("gm_figures"):
        return made
    if not set(event["gm_figures"]) - audiences.BOOKKEEPING:
        return twinned(made, made)
    # with no public working for it, the whole stays the GM's
    return twinned(public(event, state), made)
