"""One plain-English line per event, for the table's log: ``summary(event, state)``.

The line is everyone's: an NPC's figures (an event's ``gm_figures``, audiences.py) are left out of
it, and the GM's line adds them (``audiences.gm_note``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.cards import OrientedCard
from games.core.fights import SIDE_SET, side_line
from games.core.words import count
from games.harsh_light import health
from games.harsh_light.access import ACTION_WORDS
from games.harsh_light import sheet as sh
from games.harsh_light.pools import pool_text
from games.harsh_light.state import name

Event = Mapping[str, Any]


def card_names(tokens: list[str]) -> str:
    names = [OrientedCard.from_token(t).card.name for t in tokens]
    return " and ".join(names)


def successes_text(n: int) -> str:
    return "no successes" if n == 0 else count(n, "success", "successes")


def outcome(record: Mapping[str, Any]) -> str:
    """What the pull came to, the deciding rules named."""
    if record.get("dramatic"):
        return "a Dramatic Failure"
    text = successes_text(record["successes"])
    if record.get("exceptional"):
        text += ", an Exceptional Success"
    needed = record.get("needed")
    if record.get("kind") in ("simple", "resisted") and needed:
        if record["succeeded"]:
            text += ": it succeeds" if needed == 1 else f": it succeeds ({needed} needed)"
        else:
            text += ": it fails" if needed == 1 else f": it fails ({needed} needed)"
    return text


def pull_text(record: Mapping[str, Any]) -> str:
    """'Three of Spades + pool 5 = 8: 1 success: it succeeds' (the pool's parts are in the line's
    working). A record whose figures are the GM's has no pool or total: what may be shown of its
    pool instead ('pool Strength 3 + Brawl 2 - Bob's Defence (the GM's)', or 'the GM's pool')."""
    if "pool" in record:
        head, total = f"pool {record['pool']['size']}", f" = {record['total']},"
    else:
        words = record.get("pool_words")
        head, total = (f"pool {words}" if words else "the GM's pool"), ":"
    if not record["cards"]:
        return f"{head} takes an automatic success without a pull, worth {successes_text(record['successes'])}"
    rules = [r for r in record.get("rules", []) if r.endswith("-again")]
    again = f" ({rules[0]})" if rules else ""
    return f"{card_names(record['cards'])}{again} + {head}{total} {outcome(record)}"


# How an attack reaches its target, as the line says it.
REACH = {"melee": "in melee", "thrown": "with a thrown weapon", "ranged": "from range",
         "ranged_close": "with a ranged weapon at arm's reach"}


TRAITS = frozenset(sh.trait_label(k) for k in (*sh.ATTRIBUTES, *sh.SKILLS))


def traits(record: Mapping[str, Any]) -> str:
    """' with Dexterity + Firearms': the sheet's traits a pool was built from, when the record
    shows its pool (an NPC's own pool is the GM's: not even which traits)."""
    names = [r for r, _ in (record.get("pool") or {}).get("parts", [])[:2] if r in TRAITS]
    return f" with {' + '.join(names)}" if names else ""


def pull_head(who: str, record: Mapping[str, Any]) -> str:
    """'Ann attacks Bob in melee with Strength + Brawl, All-Out', 'Ann pulls Wits + Composure for
    noticing the ambush against Bob'."""
    label, target = record["label"], record.get("target_name")
    if record.get("attack"):
        how = REACH.get(record["attack"], "")
        own = f" ({label})" if label != "an attack" else ""
        all_out = ", All-Out" if record.get("all_out") else ""
        return f"{who} attacks {target or 'nobody'} {how}{traits(record)}{all_out}{own}".replace("  ", " ")
    against = f" against {target}" if target else ""
    return f"{who} pulls{traits(record).replace(' with', '', 1)}{'' if label == 'a pull' else ' for ' + label}{against}"


def hit_or_miss(text: str) -> str:
    """An attack's verdict in the words of a fight: a hit or a miss."""
    return text.replace(": it succeeds", ": a hit").replace(": it fails", ": a miss")


def summary(event: Event, state: Mapping[str, Any]) -> str:
    kind = event.get("type")
    who = name(state, event.get("combatant"))
    gm = set(event.get("gm_figures") or ())  # the GM's figures: not in this line
    if kind == "willpower_spent":
        use = {"pool": "+3 to the pool", "resist": "+2 to Defence or a Resistance trait against the next "
               "resisted test this turn", "power": "a power"}[event["use"]]
        note = f" ({event['note']})" if event.get("note") else ""
        if "points_left" in gm:
            return f"{who} spends a Willpower point on {use}{note}."
        return f"{who} spends a Willpower point on {use}{note}; {count(event['points_left'], 'point')} left."
    if kind == "pulled":
        called = ACTION_WORDS.get(event["record"].get("action") or "")  # said, so the table reads the call
        line = f"{pull_head(who, event['record'])}{f' ({called})' if called else ''}: {pull_text(event['record'])}."
        return hit_or_miss(line) if event["record"].get("attack") else line
    if kind == "pull_set_up":
        needed = event["needed"]
        what = f"{successes_text(needed)} needed" if needed != 1 else "one success needed"
        auto = "; the pool alone reaches it" if event.get("automatic") else ""
        args = event.get("args") or {}
        target = f" against {name(state, args['target'])}" if args.get("target") else ""
        label = args.get("label") or ("an attack" if args.get("attack") else "a pull")
        if "pool" in gm:
            pool = f"pool {event['pool_words']}" if event.get("pool_words") else "the GM's pool"
            return f"{who} sets up {label}{target}: {pool}, {what}."
        return f"{who} sets up {label}{target}: {pool_text(event['pool'])}, {what}{auto}."
    if kind == SIDE_SET:
        return f"{side_line(event)}."
    if kind == "pull_put_away":
        return f"{who} puts the pull away."
    if kind in ("reaction_opened", "reaction_answered"):
        return reaction_line(event, state)
    if kind == "dodged":
        if "defence" in gm:
            return f"{who} dodges: Defence doubled until {who}'s next turn."
        return f"{who} dodges: Defence doubled to {event['defence']} until {who}'s next turn."
    if kind == "moved":
        if "speed" in gm:
            return f"{who} moves up to its Speed."
        return f"{who} moves up to {count(event['speed'], 'step')}."
    if kind == "order_set":
        order = ", ".join(name(state, c) for c in event["order"])
        if event.get("initiative"):
            rolls = "; ".join(
                f"{name(state, c)} {i['modifier']} + {card_names([i['card']])} = {i['total']}" if "total" in i
                else f"{name(state, c)} pulls {card_names([i['card']])}"  # an NPC's: the GM's figures
                for c, i in event["initiative"].items())
            return f"Initiative: {rolls}. Turn {event['turn']}: {order}."
        return f"The Storyteller sets the order for turn {event['turn']}: {order}."
    if kind == "turn_ended":
        if event["next"] is None:
            return "A new turn: everyone may spend Willpower again, and Defence comes back."
        new = f" Turn {event['turn']} begins." if event["new_turn"] else ""
        if event.get("out"):
            words = event.get("words") or "out of the fight"
            return f"{who} is {words}: no action.{new} {name(state, event['next'])} acts."
        return f"{who}'s action is done.{new} {name(state, event['next'])} acts."
    if kind == "options_set":
        return ("The Storyteller turns the untrained Skill penalty on: -3 for a Mental Skill at 0, -1 for a "
                "Physical or Social one." if event["untrained"] else
                "The Storyteller turns the untrained Skill penalty off: a Skill at 0 costs nothing.")
    if kind == "combat_ended":
        if event.get("why"):
            return f"The fight is over, {event['why']}: the turn order is put away."
        return "The fight is over: the turn order is put away."
    if kind in ("damaged", "healed", "consciousness_pulled"):
        return harm_line(event, state, gm)
    if kind == "rested":
        return rest_line(event, state, gm)
    if kind == "beats_gained":
        return beats_line(event, state)
    if kind in time.EVENTS:  # the clock's own (games/core/clock.py)
        return time.line(event)
    if kind == "extended_started":
        action = state["extended"][event["id"]]
        limit = f", at most {count(action['limit'], 'pull')}" if action.get("limit") else ""
        lose = "; a Dramatic Failure loses the successes gathered" if action.get("lose") else ""
        return (f"{who} begins {action['label']}: {successes_text(action['needed'])} needed, "
                f"a pull each {action['unit']}{limit}{lose}.")
    if kind == "extended_pulled":
        record = event["record"]
        done = " Done!" if event["done"] else ""
        if event.get("lost"):
            done += " A Dramatic Failure: the successes gathered are lost."
        if event.get("failed"):
            done += f" That was the last of {count(record['number'], 'pull')}: it fails."
        return (f"{who}'s pull {record['number']} for {record['label']}: {pull_text(record)}; "
                f"{event['gathered']} of {record['of']} gathered.{done}")
    if kind == "extended_stopped":
        action = state["extended"][event["id"]]
        return (f"The Storyteller stops {action['label']} ({name(state, action['combatant'])}) at "
                f"{event['gathered']} of {action['needed']} successes.")
    if kind == "contest_started":
        sides = " and ".join(name(state, s["combatant"]) for s in event["sides"])
        to = f", first to {event['needed']} successes" if event["needed"] else ""
        return f"{sides} begin {event['label']}{to}."
    if kind == "contest_pulled":
        record = event["record"]
        return f"{who}'s pull for {record['label']}, round {record['round']}: {pull_text(record)}."
    if kind == "contest_round":
        got = ", ".join(f"{name(state, c)} {n}" for c, n in event["successes"].items())
        if event["winner"] is not None:
            return f"Round {event['round']} ({got}): {name(state, event['winner'])} wins the contest."
        if state["contests"][event["id"]]["needed"]:
            totals = ", ".join(f"{name(state, c)} {n}" for c, n in event["gathered"].items())
            return f"Round {event['round']} ({got}); so far {totals}: the contest goes on."
        return f"Round {event['round']} ({got}): a tie, both pull again."
    if kind == "contest_stopped":
        return f"The Storyteller stops {state['contests'][event['id']]['label']}."
    return str(kind)


def harm_line(event: Event, state: Mapping[str, Any], gm: set[str]) -> str:
    """A wound, a healing or a Stamina pull to stay conscious, with the track as it now stands.
    An NPC attacker's weapon is the GM's (``gm``): the line says only that it added to the blow."""
    who = name(state, event["combatant"])
    if event["type"] == "consciousness_pulled":
        record = event["record"]
        then = "stays conscious" if event["conscious"] else "falls unconscious"
        return f"{who} pulls Stamina to stay conscious: {pull_text(record)}: {who} {then}."
    if event["type"] == "healed":
        which = f" {event['kind']}" if event.get("kind") else ""
        woke = f" {who} comes to." if event.get("woke") else ""
        return (f"The Storyteller heals {count(event['points'], 'box', 'boxes')} of {who}'s{which} wounds: "
                f"{health.shown_text(event['track'])}.{woke}")
    hurt = f"{event['points']} {event['kind']}"
    if event.get("by") is None:
        reason = f" ({event['reason']})" if event.get("reason") else ""
        return f"The Storyteller deals {who} {hurt}{reason}: {health.shown_text(event['track'])}."
    why = [successes_text(event["successes"])] if "successes" in event else []
    weapon = event.get("weapon")
    if "weapon" in gm:
        why.append("more from its weapon, the GM's figure")
    elif weapon:
        why += [f"{weapon['name']} +{weapon['bonus']}"] if weapon["name"] else []
        why += [f"+{weapon['extra']} for the attack"] if weapon["extra"] else []
    firearm = "; a firearm deals a vampire bashing, as the Requiem has it" if event.get("firearm") else ""
    return (f"{who} takes {hurt} from {name(state, event['by'])}'s attack ({', '.join(why)}{firearm}): "
            f"{health.shown_text(event['track'])}.")


def reaction_line(event: Event, state: Mapping[str, Any]) -> str:
    """A pull waiting for its target's answer, and the answer (reaction.py)."""
    against = event["against"]
    if event["type"] == "reaction_opened":
        target = name(state, event["target"])
        verb = "attacks" if against == "Defence" else "pulls against"  # Defence resists attacks alone
        return (f"{name(state, event['combatant'])} {verb} {target}: before the card, {target} may spend Willpower "
                f"for +2 {against}, or take it.")
    who, by = name(state, event["combatant"]), name(state, event["attacker"])
    if event.get("lapsed"):
        return f"{by}'s pull against {who} lapses before the card: {event['lapsed']}"
    if event["willpower"]:
        return f"{who} answers {by}'s pull with Willpower: +2 {against}."
    if event.get("by_gm"):
        return f"The Storyteller moves on: {by}'s pull is made without {who}'s Willpower."
    return f"{who} takes {by}'s pull without Willpower."


# Time (campaign.py).
WHEN = {time.SCENE: "as the scene ends", time.NIGHT: "through the night", time.WEEK: "through the week",
        time.SESSION: "at the session's close"}


def rest_line(event: Event, state: Mapping[str, Any], gm: set[str]) -> str:
    """'Ann rests through the night: heals 2 bashing; 1 of 2 nights toward the next lethal box;
    Willpower +1 (3 points left). Health X · · · · · · (1 lethal of 7).' An NPC's Willpower
    is the GM's (``gm``): the line says only that it comes back."""
    who = name(state, event["combatant"])
    parts = []
    healed = ", ".join(f"{n} {k}" for k, n in (event.get("healed") or {}).items() if n)
    if healed:
        parts.append(f"heals {healed}")
    if event.get("toward") and event.get("banked"):
        parts.append(f"{event['banked']} of {count(event['needs'], 'night')} toward the next {event['toward']} box")
    if "willpower" in gm:
        parts.append("Willpower comes back")
    elif event.get("willpower"):
        back = event["willpower"]
        parts.append(f"Willpower +{back['points']} ({count(back['points_left'], 'point')} left)")
    line = f"{who} rests {WHEN.get(event['span'], '')}: {'; '.join(parts) or 'no wound heals yet'}."
    if "track" in event and (healed or event.get("banked") or event.get("woke")):
        line += f" {health.shown_text(event['track'])}."
    if event.get("woke"):
        line += f" {who} comes to."
    return line


def beats_line(event: Event, state: Mapping[str, Any]) -> str:
    """'Ann gains a Beat (the session's end): 3 of 5 toward an Experience; 1 Experience.'"""
    who = name(state, event["combatant"])
    got = "a Beat" if event["beats"] == 1 else f"{event['beats']} Beats"
    now = event["now"]
    made = " Five Beats make an Experience." if event.get("experiences") else ""
    return (f"{who} gains {got} ({', '.join(event['why'])}):{made} {now['beats']} of 5 toward an Experience; "
            f"{count(now['experiences'], 'Experience')}.")
