"""Harsh Light: World of Darkness dice pools turned into a single card pull (seed 002).

A pure-Python engine (no Django). Cards come from the table's deck named ``DECK``
("Harsh Light": a GM brings out an "Ace to 10 (40 cards)" deck and gives it that name)
through the cards port; every drawn token is in the events, so ``apply`` never draws.

Rules (``rules``)
    ``successes(total)``: 8 is 1, 11 is 2, 14 is 3, 17 is 4, 20 is 5, every 3 more another.
    ``resolve(pool, values, again=10, needed=1)`` judges a pull: ten-again (or 9-, 8-again)
    adds a second card and never a third; Dramatic Failure (pool 0 or less and an Ace);
    automatic success (pool + 1 reaches what is needed; the player may still pull);
    Exceptional Success at 5 or more.

Sheet (``sheet``, the card in ``card``)
    ``FIELDS`` (``SheetField``s): the nine Attributes, Skills ('Skill: dots' lines), Willpower
    dots and points left, Defence, Speed (blank: derived), Again (10/9/8), Blood Potency, Size,
    whether it is a vampire, a weapon and its damage, and Health's wounds (bashing, lethal,
    aggravated) and whether it is unconscious, which the rules keep. ``clean_sheet`` raises
    ``SheetError`` naming the field; ``card.glance`` and ``card.npc_glance`` for the card.

Health (``health``, ``harm``)
    The World of Darkness's track: Stamina + Size boxes, wounds marked most severe first, a full
    track upgrading the least severe, -1/-2/-3 as the last boxes fill, a Stamina pull to stay
    conscious when the last box holds bashing, bleeding out (a vampire: torpor) when it holds
    lethal, dead when every box is aggravated; healing the least severe first.

Procedure (``procedure.decide(state, command, rng, cards)``, ``events.apply``, ``narrate.summary``)
    Commands (``COMMANDS``), each with ``actor`` and ``sheets`` (see ``web``):
      pull            controller: simple or resisted (Defence, Resolve, Stamina, Composure or a
                      number), Willpower, All-Out Attack, attack kind, automatic success.
      willpower       controller: "resist" (+2 against the next resisted test this turn) or "power".
      dodge, move     controller: Dodge (instant; Defence doubled), move Speed once a turn.
      end_turn        the acting character's controller, or the GM.
      set_order, roll_initiative, end_combat                       GM.
      extended_start / extended_stop (GM), extended_pull (controller).
      contest_start / contest_stop (GM), contest_pull (controller, each side its own).
      harm, heal      GM: boxes of a kind dealt (a fall, fire, a minute bleeding out), or healed.
    A hit deals its successes (plus weapon and bonus) to the target's Health: ``damaged``, and at
    times ``consciousness_pulled``; whoever is out of the fight is passed over in the order.
    Refusals raise ``RuleError`` (``OutOfTurn``, ``NotYourCharacter``, ``WillpowerRefused``).
    Modules by concern: ``access`` (who may act, and when; reading a command), ``deck`` (a pull's
    cards off the rule deck and onto its discard; what the odds count), ``pulls`` (Willpower and
    the pull: pull, set_up_pull, put_away, count_deck), ``moves`` (willpower, dodge, move, the
    turn order), ``extended`` (extended and contested actions), ``secrecy`` (an NPC's figures:
    the GM's part of each event, and every event's audience); ``procedure`` keeps ``COMMANDS``,
    ``decide`` and ``run``.

Odds (``odds``)
    ``pull(pool, again=10)`` -> ``successes`` {k: chance}, ``dramatic``, ``exceptional``, exact
    for a fresh deck; ``pull_from(pool, card_ids)`` from given cards; ``chart()`` for the page.
    At the table they count every card not lying face up (``deck.counted``).

Registration (``system.SYSTEM``): sheet, procedure (``uses_cards``), commands, the odds page,
the panel (``panel.view`` per seat, pulls drawn by ``panel_pulls``), writeback of Willpower
points, the rule deck, every event's audience (``secrecy.AUDIENCES``).

Readings where the seed is silent or loose (each also commented where it is coded)
    - Resisting traits are subtracted from the pool (as World of Darkness subtracts dice), so
      Defence can drive a pool to 0 or less and risk a Dramatic Failure.
    - An automatic success taken without a pull is worth what an Ace would have given.
    - "Each attack" lowers Defence only when Defence applied to it (melee, thrown, ranged within
      arm's reach); a Dodge doubles Defence before the attacks take their 1s off.
    - Willpower for a resisting trait is spent beforehand and counts against the next resisted
      test that turn. One point a turn whatever it buys; outside a fight the turn lasts until
      the Storyteller calls a new one (no test ends it).
    - Initiative is one card, no again; ties to the higher Dexterity + Composure, then as listed.
    - A tied plain contest is pulled again; an extended contest reached by both in one round
      goes to the higher running total. Contest pulls are reflexive for the turn order.
    - 8- or 9-again on a pull is the better of the sheet's and the check's.
    - An untrained Skill costs -3 (Mental) or -1 (Physical, Social), as in World of Darkness.
    - An NPC's figures are the GM's (secrecy.py): a pull's total, the pool less its face-up
      cards, is one of them; its cards and successes are everyone's. The log keeps them in the
      GM's part whatever the table's setting, which the panel follows seat by seat. Its Health
      is harm everyone watches; its weapon is the GM's. Such a line unfolds for everyone, its
      figures said as "the GM's figure"; the GM reads the whole working (twin.py).
    - Harm (harm.py): damage is the successes plus the weapon's bonus and the attack's own, of the
      kind the form chooses (bashing unarmed, lethal armed); a firearm (an attack pulled with
      Firearms) deals a vampire bashing, not halved; the Stamina pull to stay conscious is
      Stamina alone, at once and at the start of each of the character's actions, once a turn;
      healing that empties the last box wakes it; the Storyteller marks a bleeding character's
      untended minutes; one who is out has no Defence.
"""

from __future__ import annotations

from games.harsh_light import odds, rules
from games.harsh_light.errors import NotYourCharacter, OutOfTurn, RuleError, WillpowerRefused
from games.harsh_light.events import EVENT_TYPES, apply
from games.harsh_light.narrate import summary
from games.harsh_light.procedure import COMMANDS, decide, run
from games.harsh_light.rules import successes
from games.harsh_light.state import DECK, new_state
from games.harsh_light.system import SYSTEM

KEY = "harsh_light"
NAME = "Harsh Light"

__all__ = [
    "COMMANDS", "DECK", "EVENT_TYPES", "KEY", "NAME", "NotYourCharacter", "OutOfTurn", "RuleError",
    "SYSTEM", "WillpowerRefused", "apply", "decide", "new_state", "odds", "rules", "run", "successes",
    "summary",
]
