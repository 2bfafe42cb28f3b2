"""Shadows of Humanity: a pure-Python rules engine (no Django) on the cards port.

Specification: seed 000 ("Shadows of Humanity RPG Mechanics"), issue 16; the Tower's
meanings are the traditional ones (seeds README, ``games.core.tarot``). The Tarot is split
into two decks the table brings out under these names: ``deck.MINOR`` ("Minor Arcana", 56
cards, Ace 1 .. 10, Page 11, Knight 12, Queen 13, King 14) for resolution and
``deck.MAJOR`` ("Major Arcana", 22) for fate.

Modules
    resolution  all-or-nothing bands (``COMPLEXITIES``), fumbles, King/Queen cards,
                assistance, counters, opposed ties
    combat      AP, hands by focus, off-focus -3, Defence, damage, D1..M3, the critical
                chain, modern weapons, armour and vulnerabilities
    odds        ``all_or_nothing(modifier, complexity, *, cards=1)`` -> fumble, failure,
                success, critical_success (exact, a fresh 56-card deck, no replacement, the
                extra card included); ``attack_through(card, skill, defence, ...)``
    weapons / criticals   the GM's Attack/Weapon table and Major Critical tables, as text
    sheet / table         the sheet (``FIELDS``, ``clean_sheet``, ``derived``, ``profile``)
                          and ``writeback``
    procedure / events    ``decide(state, command, rng, cards)`` and ``apply(state, event)``;
                          the handlers are in ``checks``, ``contests``, ``arcana`` (outside
                          combat), ``hands`` (a round's focus, deal and redeal) and ``fight``
                          (combat; ``hits`` resolves an attack), sharing ``actor`` (the
                          sender, arguments, hand/AP checks)
    decks                 which Minor Arcana a rule draws from: one, or two for a big fight
    checks                all-or-nothing checks (set up, called off, drawn) and assistance
    contests              opposed and multi-draw actions, counters
    arcana                the Major Arcana outside combat: a Queen's card, a fumble's guide,
                          cards held and spent, the one carried over at a session's end
    narrate / story       ``summary(event, state)``: the public log line, told as a story for checks
                          and attacks ("Alma strikes Ghoul with Sword: Queen of Swords + Melee 20
                          against Defence 7 -> 26, Swords deal it in full")
    working               ``working(event, state)``: how a line came out, step by step, and the
                          seed's rule word for word (issue 23), from the event alone; with a GM's
                          part, a public working and the whole one as its private twin
    visibility            ``audience(event)`` (an NPC's figures in its events are the GM's),
                          ``hand_of(state, member)``
    panel / panel_fight   ``view(state, seat)``: one panel per seat; a seat that may not see an
                          NPC's sheet gets none of its figures nor odds counted from them
    faces                 cards and chances as the panel draws them
    web / odds_page       form parsers (``COMMANDS``); the odds page (``ODDS``: check odds, a
                          hand's attack cards, opposed actions, the SVG chart)
    system                ``SYSTEM``

The procedure
    ``state = new_state()``; for each command ``events = decide(state, command, rng, cards)``
    (a ``RuleError`` subclass refuses, nothing drawn or changed) then
    ``state = apply(state, event)`` for each; replaying the events rebuilds the state and
    never draws. Commands carry ``actor = {is_gm, controls, member, name}``.

    Outside combat (also during a round):
      prepare_check controller. ``character`` (sheet + id, name, owner), ``skill``,
                    ``attribute``, ``complexity``; GM only: ``modifier``; ``helpers`` (GM, or
                    approved first). Nothing drawn: the panel shows the odds of one card and
                    of three; cancel_check (controller) calls it off.
      check         controller. ``prepared`` (the one set up) or the same arguments at once,
                    ``cards`` 1 or 3; GM only: ``ap``; ``from_hand`` in a round.
      approve_help  GM. ``combatant``, ``helpers`` (one or two, in order).
      opposed       GM. ``sides``: two {character, skill, attribute}.
      counter       GM. ``combatant``, ``target``, ``suits`` the GM accepts, ``ap``.
      contest_start / contest_draw / contest_end   GM. Multi-draw: ``mode`` "draws"
                    (``draws``, ``scoring`` wins|points) or "margin" (``margin``, secret).
      draw_guide / show_guide / return_guide   GM. A fumble's Major Arcana guide: shown, or
                    put back unseen, it goes back into the deck.
      spend_arcana  controller. ``combatant``, ``card``, ``reversed``; the card goes back.
      end_session   GM. ``keep``: {cid: the one card it carries over}; the rest go back.
    Combat:
      start_combat (GM, ``combatants``), add_combatant (GM), new_round (GM),
      declare_focus (controller, ``focus``), deal (GM: every hand, face down, to its player,
      the GM for NPCs; the round's first deal gathers the whole Minor Arcana first; hands that
      would leave fewer than ten cards to draw wait for a second Minor Arcana), redeal
      (controller, ``cards``: up to three, for the first AP), aim (controller: ``target``,
      ``weapon``, ``skill``, ``ap``: nothing spent; the panel shows each attack card's chance),
      attack (controller: ``target``, ``weapon``, ``cards`` from the hand, the attack card
      first, ``ap``, ``skill``, ``accuracy``), end_turn (controller: done acting for now),
      set_cover (GM), defend (the target's controller: ``cards``, one AP each, at most the
      attacker's AP; resolves the attack), announce_critical (GM), set_weapons,
      set_criticals, adjust, end_combat (GM).

Hands are the table's hand piles
    A deal draws each hand into its holder's hand pile (``cards.draw(..., to="hand")``); every
    card that leaves a hand under the rules (an attack, a dodge or parry, a check from the hand,
    a redeal's discards) leaves the table's pile through ``cards.play`` (face up in the play
    area, or on the discard pile), so the engine's record of each hand and the table's piles
    agree; a card the table no longer has in that hand is refused. Once its action is done (an
    attack resolved, a dodge, a check) a played card goes to the discard, so an empty draw
    pile refills from it. A new round, the first deal of a round with cards out, and the end of
    a combat gather the whole Minor Arcana back (``cards.gather``: shuffled under a new seal).
    A fight too big for one deck takes a second (``deck.MINOR_2``; ``decks``): each hand comes
    whole from one of the two.

Hidden information (audiences.py)
    Dealt and re-dealt cards travel only in an event's private part, for the hand's player
    and the GM; public payloads, summaries and every panel count them (the table's hand
    panels show each hand to its holder and the GM). The GM's lens alone names which cards
    each NPC holds, since all NPCs' hands lie in the GM's one pile; ``hand_of(state,
    member_id)`` gives a member's own hands. The GM alone
    sees a fumble's guide until shown, a Major Critical's effect until announced, a
    multi-draw margin, the critical tables, and, while the table keeps NPC sheets behind the
    screen (``Seat.hidden``), NPCs' figures (skills, attributes, AP, hand sizes, tracks,
    protection) and any odds counted from them: an aim's chances against an NPC and the
    Defence a waiting attack on it must beat. A resolved attack's own figures are everyone's:
    its cards, its value, the Defence total it met, the damage; an NPC's part in them (its skill,
    its attribute and protection, its armour and nature) is not in the event (hits.py). An NPC's
    check, and an opposed or multi-draw action with an NPC side, keep its figures in the GM's
    part; the line still unfolds for everyone (its working built from the public part, the
    NPC's figures "the GM's figure"), and the GM reads the whole working, its private twin.

Readings where the seed is silent or loose (each commented where it is coded)
    - Halves round up for hand sizes (as for AP); assistance halves/quarters round down.
    - A King's extra card does not chain; an opposed action has no fumble band; its ties add
      the new cards to each total.
    - Attribute categories for the -3: Physical (Body, Physical, Quickness), Mental (Mind,
      Mental, Discipline), Spiritual (Spirit, Emotional, Intuition); mana magic is Mental.
      An active dodge or parry outside the focus takes it; the passive Defence does not.
    - An attack's first card is "the attack card" (suit, face, Ace fumble); more cards add.
      Each action costs 1 AP unless the weapon table or the GM says more.
    - A face card among the defence cards prevents the whole critical chain (its first level
      is the way to the others); level 1 is the Minor Critical, later cards Major Criticals of
      the weapon's critical suit (value added too) or, of another suit, their value added.
    - Damage: armour first, then vulnerability x2 / resistance half (down) / immunity 0;
      physical and mana hits lower Health and Life (modern weapons Life by a fifth, rounded
      up), spiritual hits Æssence. Accuracy's value comes off cover or movement.
    - Combat's "possible fumble" is an Ace attack card (no complexity in a fight).
    - Turn order is shown (quickest first, then around again, skipping whoever said they are
      done) but not enforced.
    - A redeal's discarded cards lie face up on the discard pile: they are no secret.
    - What a fight leaves of Health, Life and Æssence goes back as "Health now" (and so on):
      the sheet's Health stays the whole, for the character card's bar.
    - Fights end (issue 22): no Health left is down (seed: "to put someone down (for them to
      go unconscious or become physically "incapacitated")"), no Life left dead (Life is "the
      enemy's life force"). Either takes no action, is dealt no hand, asked no focus, attacked
      by nobody and skipped (``state.standing``); everyone sees it fall. Each track stops at
      0 (the seed gives damage past nothing no meaning). The GM corrects a track from 0 to
      the whole; one brought back above nothing comes back into the fight at the next round.
      Æssence at 0 is tagged and nothing more: the seed says nothing of it.
"""

from __future__ import annotations

from games.shadows import odds
from games.shadows.deck import MAJOR, MINOR
from games.core.engine import RuleError
from games.shadows.errors import GMOnly, NotEnoughAP, NotInHand, NotYourCharacter, WrongStep
from games.shadows.events import EVENT_TYPES, apply
from games.shadows.narrate import summary
from games.shadows.procedure import COMMANDS, decide, run
from games.shadows.state import new_state
from games.shadows.system import SYSTEM
from games.shadows.audiences import audience
from games.shadows.panel import hand_of, view

KEY = "shadows"
NAME = "Shadows of Humanity"

__all__ = [
    "COMMANDS", "EVENT_TYPES", "GMOnly", "KEY", "MAJOR", "MINOR", "NAME", "NotEnoughAP", "NotInHand",
    "NotYourCharacter", "RuleError", "SYSTEM", "WrongStep", "apply", "audience", "decide", "hand_of",
    "new_state", "odds", "run", "summary", "view",
]
