"""How each log line came out (``Procedure.working``): the pull's arithmetic, the damage's boxes,
the contest's comparison, and the rule applied, in the seed's own words where it has them.

A working is built from the event alone (names come from the state): never from a figure the
state holds and the event does not carry. This is the whole event's working: an event holding an
NPC's figures keeps them in its GM's part (secrecy.py), and its whole working, which may put those
figures back (``secrecy.whole``), is the GM's private twin of a public one built from the event's
public part (twin.py, which the system registers). A public event's working names only what the
event itself gives everyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Working
from games.core.cards import OrientedCard
from games.core.words import count
from games.harsh_light import health, rules
from games.harsh_light.narrate import hit_or_miss
from games.harsh_light.secrecy import whole
from games.harsh_light.state import name

Event = Mapping[str, Any]

BASIC, RESISTED_AT, CONTESTED_AT = "Basic Rules", "Action Types: Resisted", "Action Types: Contested"
EXTENDED_AT, USEFUL = "Action Types: Extended", "Useful things to know"
SUCCESSES = ("When you pull a card and add your pool, you get your first success at a total of eight (for "
             "example, a pull of three + a pool of five), and every three points above eight is another success.")
AGAIN = ("A pull of 10 (or, with certain powers and/or equipment, even 8 or 9) allows you pull a second card, "
         "adding both cards to your pool for your total.")
DRAMATIC = "If you pull a 1 while using a pool of 0 or less, you have Dramatically Failed!"
AUTOMATIC = ("If something only takes a single success to achieve, and your pool is 7 or above, then you will "
             "accomplish the task automatically, without needing to pull a card (assuming no penalties, of course).")
EXCEPTIONAL = ("if you get a total of 5 or more successes (20+ on your test) you have achieved an Exceptional "
               "Success")
RESISTED = ("Resisted rolls are where you subtract an opponent's pool from your roll – generally either Defence "
            "or a Resistance trait (Resolve, Stamina, or Composure).")
WILLPOWER = ("Spending a point of Willpower adds 3 to your pool for a pull (generally adding a success) or adds 2 "
             "against a Resisted test (including attacks – spending a Willpower for +2 Defence can be a lifesaver "
             "in emergencies). You may only spend one Willpower per turn (including Willpower spent to activate "
             "powers).")
DODGE = "give up your attack to double your Defence until your next turn (known as a Dodge move)."
MOVE = "All characters may move their Speed in steps as a reflexive action once per turn (unless somehow restrained)."
EXTENDED = "The player pulls cards until they have accumulated however many successes are needed"
CONTESTED = ("Both pull a card, add their pools and compare successes, with the higher number of successes "
             "winning.")
CONTESTED_EXTENDED = ("Some tests are both contested and extended – in those cases, you continue pulling until "
                      "one of the characters reaches the required number of successes.")
# The seed is silent on harm and initiative: these are the readings harm.py, health.py and
# moves.py take from the World of Darkness rulebook, said in plain words.
DAMAGE = ("Our reading (the seed is silent on damage; it converts the World of Darkness): a successful attack "
          "deals its successes in damage, plus the weapon's bonus and any bonus the attack names.")
HARM = ("Our reading, from the World of Darkness rulebook: the most severe wounds sit at the left; on a full "
        "track each further point upgrades the least severe wound; the last three boxes cost -1, -2 and -3 "
        "to pools and Speed.")
HEAL = "Our reading, from the World of Darkness rulebook: healing takes the least severe wound first."
CONSCIOUS = ("Our reading, from the World of Darkness rulebook: with bashing in the last box, a Stamina pull "
             "each turn keeps the character conscious, with no wound penalty; failing it, it falls unconscious.")
INITIATIVE = ("Our reading, from the World of Darkness rulebook: initiative is Dexterity + Composure plus one "
              "card, no again; the highest total acts first.")
OURS = "World of Darkness rulebook, as this table reads it (the seed is silent)"
BUYS = {"pool": "+3 to the pool", "resist": "+2 against the next resisted test", "power": "a power"}


def card_name(token: str) -> str:
    return OrientedCard.from_token(token).card.name


def term(reason: str, value: int, first: bool = False) -> str:
    """'Dexterity 3' first, then '+ Firearms 2' or '- Bob's Defence 2'."""
    if first:
        return f"{reason} {value}"
    return f"{'+' if value >= 0 else '-'} {reason} {abs(value)}"


def pool_steps(pool: Mapping[str, Any]) -> list[str]:
    """One step per part of the pool, then its size."""
    steps = [term(r, v, i == 0) for i, (r, v) in enumerate(pool["parts"])]
    return [*steps, f"= pool {pool['size']}"]


def success_word(n: int) -> str:
    return "no successes" if n == 0 else count(n, "success", "successes")


def pull_steps(record: Mapping[str, Any]) -> list[str]:
    """The pool's parts, each card, the total and the successes it reaches, then the verdict."""
    steps = pool_steps(record["pool"])
    pool, values = record["pool"]["size"], record.get("values") or []
    if not record["cards"]:
        steps.append(f"the lowest card, an Ace, would make {pool + 1}: {success_word(record['successes'])} "
                     f"without a pull")
    for i, (token, value) in enumerate(zip(record["cards"], values)):
        again = f" ({rules.again_word(record['again'])}-again: a second card)" if i == 0 and len(values) == 2 else ""
        steps.append(f"+ {card_name(token)}: {value}{again}")
    if record["cards"]:
        got = record["successes"]
        reach = f"reaches {rules.total_for(got)}" if got else "is under 8"
        steps.append(f"= total {record['total']}, which {reach}: {success_word(got)}")
    return [*steps, *verdict_steps(record, str(pool))]


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


def _pull(event: Event, state: Mapping[str, Any]) -> Working | None:
    record = whole(event["record"], event.get("figures"))
    if "pool" not in record:  # no figures in the event: nothing to count with
        return None
    steps = pull_steps(record)
    if record.get("attack"):
        steps[-1] = hit_or_miss(steps[-1])
    rule, source = pull_rule(record)
    if event["type"] == "consciousness_pulled":
        rule, source = CONSCIOUS, OURS
    if event["type"] == "extended_pulled":
        action = state["extended"][event["id"]]
        got = 0 if record["dramatic"] else record["successes"]
        steps.append(f"{event['gathered'] - got} gathered + {got} = {event['gathered']} of {action['needed']}"
                     f"{': done' if event['done'] else ''}")
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


def _damaged(event: Event, state: Mapping[str, Any]) -> Working:
    kind, points = event["kind"], event["points"]
    after = track_steps(event)
    if event.get("by") is None:
        why = f" ({event['reason']})" if event.get("reason") else ""
        return Working(steps=(f"the Storyteller deals {points} {kind}{why}", *after), rule=HARM, source=OURS)
    steps = [f"{success_word(event.get('successes', 0))} on the attack"]
    weapon = event.get("weapon")
    if weapon:  # an NPC attacker's weapon is in the GM's part: this working is then the GM's too
        if weapon["name"]:
            steps.append(f"+ {weapon['name']} {weapon['bonus']}")
        if weapon["extra"]:
            steps.append(f"+ {weapon['extra']} for the attack")
    steps.append(f"= {points} {kind}")
    if event.get("firearm"):
        steps.append("a firearm's lethal is bashing to a vampire (the Requiem)")
    return Working(steps=(*steps, *after), rule=f"{DAMAGE} {HARM}", source=OURS)


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
        steps.append(f"{name(state, cid)}: Dexterity + Composure {i['modifier']} + {card_name(i['card'])} {i['value']} "
                     f"= {i['total']}")
    steps.append("highest first: " + ", ".join(name(state, c) for c in event["order"]))
    return Working(steps=tuple(steps), rule=INITIATIVE, source=OURS)


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line, or None for bookkeeping (a turn passing, a deck counted)."""
    kind = event.get("type")
    who = name(state, event.get("combatant"))
    if kind in ("pulled", "extended_pulled", "contest_pulled", "consciousness_pulled"):
        return _pull(event, state)
    if kind == "pull_set_up":
        steps = pool_steps(event["pool"])
        if event.get("automatic"):
            steps.append(f"the lowest card would reach {event['needed']} needed: an automatic success")
        return Working(steps=tuple(steps), rule=AUTOMATIC if event.get("automatic") else SUCCESSES, source=BASIC)
    if kind == "damaged":
        return _damaged(event, state)
    if kind == "healed":
        track = health.Track(event["size"], **event["health"])
        return Working(steps=(f"{count(event['points'], 'box', 'boxes')} healed, the least severe first",
                              f"{track.filled} of {event['size']} boxes still marked"), rule=HEAL, source=OURS)
    if kind == "willpower_spent":
        return Working(steps=(f"{who} spends 1 Willpower: {BUYS[event['use']]}",
                              f"{count(event['points_left'], 'point')} left", "one a turn"),
                       rule=WILLPOWER, source=USEFUL)
    if kind == "dodged":
        return Working(steps=(f"Defence {event['defence'] // 2} × 2 = {event['defence']}", "until the next turn"),
                       rule=DODGE, source=USEFUL)
    if kind == "moved":
        return Working(steps=(f"Speed now: {count(event['speed'], 'step')}",), rule=MOVE, source=USEFUL)
    if kind == "order_set":
        return _order_set(event, state)
    if kind == "contest_round":
        return _contest_round(event, state)
    return None
