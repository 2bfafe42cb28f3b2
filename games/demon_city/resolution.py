"""The roll: Slow Motion step 4 (unresisted actions), the Clashes (5-7) and injuries (8).

Seed, step 7: "No other action in that Clash occurs ... The Clash only resolves one
action at a time, even if the entangled actions aren't opposed."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.rng import Rng
from games.demon_city import state as st
from games.demon_city.actions import DAMAGING, DEFEND, GRAB, Action, attack_stat
from games.demon_city.clash import pick_winner
from games.demon_city.damage import roll_damage
from games.demon_city.dice import CRITICAL, SUCCESS, Pool, judge_against_target, roll
from games.demon_city.events import BROKE_FREE, FOLDS, GRABBER_OUT, folded
from games.demon_city.injury import final, roll_injury

Event = dict[str, Any]


class _Log:
    """Events produced so far, and the state they lead to (so later rolls see damage)."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.state: dict[str, Any] = folded(state)  # a scratch copy, folded in place
        self.events: list[Event] = []

    def emit(self, event_type: str, **fields: Any) -> None:
        event = {"type": event_type, "round": self.state["round"], **fields}
        self.events.append(event)
        FOLDS[event_type](self.state, dict(event))


def _task(pool: Pool, difficulty: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
    """An unresisted action the Host put a difficulty on: "roll ... vs a difficulty number",
    with the pool collected for it at step 2 (``pools.difficulty_pool``), as the panel showed."""
    dice = roll(pool.size, rng)
    return {"pool": pool.to_dict(), "dice": dice, "best": max(dice), "stat": difficulty["stat"],
            "target_number": difficulty["target_number"],
            "outcome": judge_against_target(max(dice), difficulty["target_number"])}


def _effects(log: _Log, action: Action, rng: Rng, *, in_clash: bool) -> None:
    """What a successful action does to the fiction's numbers: damage, grabs, defences.

    A grabbed entity whose defence succeeds breaks free: "Only defend (dodge, block, parry,
    run away)" is the seed's way out ("If you successfully used a defensive action to dodge,
    or block, parry"), and "Once a foe is grabbed" only lasts while the foe is held.
    """
    if action.kind == DEFEND and in_clash:
        log.emit("defended", combatant=action.actor)
    if action.kind == DEFEND and log.state["combatants"][action.actor]["grabbed"]:
        holders = list(log.state["combatants"][action.actor].get("grabbed_by") or [])
        log.emit("grab_ended", target=action.actor, grabbers=holders, reason=BROKE_FREE)
    for target_id in action.targets:
        target = st.combatant(log.state, target_id)
        if not target.able:
            # the out are no one's target (announcements against them are refused): one the
            # Host took out after it was announced at is left alone, its Injury result with it
            continue
        if action.kind == GRAB:
            log.emit("grabbed", attacker=action.actor, target=target_id)
        if action.kind not in DAMAGING:
            continue
        attacker = st.combatant(log.state, action.actor)
        massive = attack_stat(attacker, action)[1] if action.massive else None
        hit = roll_damage(target, rng, massive_stat=massive)
        # one who carries a conclusive Injury result from an earlier fight, not yet healed, keeps
        # it: the decided reading, "a conclusive result is never replaced by a later roll"
        keeps = target.injury if hit.out_of_fight and target.injury and final(log.state["injury_table"],
                                                                               target.injury) else None
        log.emit("damage_rolled", attacker=action.actor, target=target_id, **hit.to_dict(),
                 **({"keeps": keeps} if keeps else {}))
        if hit.out_of_fight:
            # A grab needs someone to hold it: "out of the fight" holds nobody.
            for held in st.holds_of(log.state, target_id):
                log.emit("grab_ended", target=held, grabbers=[target_id], reason=GRABBER_OUT)
            # "At Current Toughness -1 they are out of the fight and roll on the Injury
            # table." Only a target still in the fight is hit, so a result is never replaced.
            if not keeps:
                _injury(log, target_id, rng)


def _injury(log: _Log, cid: str, rng: Rng) -> None:
    die, entry = roll_injury(log.state["injury_table"], rng)
    log.emit("injury_rolled", combatant=cid, die=die, entry=entry)


def roll_round(state: Mapping[str, Any], rng: Rng) -> list[Event]:
    """Every event of the roll, in the seed's order; the core stamps the step."""
    pools = st.current_pools(state)
    groups = st.grouping(state)
    by_actor = {a.actor: a for a in st.live_actions(state)}
    order = state["order"]
    log = _Log(state)
    log.emit("dice_collected", pools={c: p.to_dict() for c, p in pools.items()},
             unresisted=list(groups.unresisted),
             clashes=[c.to_dict() for c in groups.clashes])
    for cid in groups.unresisted:
        action = by_actor[cid]
        difficulty = state["difficulties"].get(cid)
        task = _task(pools[cid], difficulty, rng) if difficulty else None
        done = task is None or task["outcome"] in (SUCCESS, CRITICAL)
        log.emit("unresisted_resolved", combatant=cid, action=action.to_dict(), task=task,
                 succeeded=done)
        if done:
            _effects(log, action, rng, in_clash=False)
    for index, clash in enumerate(groups.clashes):
        rolls = {cid: roll(pools[cid].size, rng) for cid in clash.actors}
        sides = {cid: state["combatants"][cid]["side"] for cid in clash.actors}
        outcome = pick_winner({c: max(d) for c, d in rolls.items()}, sides, rng)
        log.emit("clash_rolled", clash=index, members=list(clash.members),
                 rolls={c: {"pool": pools[c].to_dict(), "dice": d, "best": max(d)}
                        for c, d in rolls.items()},
                 **outcome.to_dict())
        if outcome.winner is not None:
            _effects(log, by_actor[outcome.winner], rng, in_clash=True)
    # Step 8: only rolls left over from an earlier round; this round's fresh injuries
    # were rolled when the damage landed.
    for cid in order:
        person = st.combatant(log.state, cid)
        if (person.present and person.out_of_fight and not person.dead
                and person.injury_pending and person.injury_round < state["round"]):
            _injury(log, cid, rng)
    log.emit("round_resolved", pending=[c for c in order
                                        if log.state["combatants"][c]["injury_pending"]])
    return log.events
