"""Shadows of Humanity: a pure-Python rules engine (no Django) on the cards port.

Specification: seed 000 ("Shadows of Humanity RPG Mechanics"), issue 16; the Tower's
meanings are the traditional ones (the decided reading, ``games.core.tarot``). The Tarot is split
into two decks the table brings out under these names: ``deck.MINOR`` ("Minor Arcana", 56
cards, Ace 1 .. 10, Page 11, Knight 12, Queen 13, King 14) for resolution and
``deck.MAJOR`` ("Major Arcana", 22) for fate.

Modules (the skeleton every system shares, then the rules by concern)
    system      ``SYSTEM`` and ``ENGINE`` (games/core/engine.py: the move table, the folds)
    moves       each move's parser (the one check of what a form sent) and ``MOVES``
    state       ``new_state()`` and the readers of the state (the fight, who stands, who is
                next, AP, the cards others may count as unseen)
    events / fight_record   ``FOLDS``: one fold for each event kind (a combat's in fight_record)
    errors      the refusals: kinds of the core's ``RuleError``
    narrate / story   ``summary(event, state)``: the public log line, told as a story for checks
                and attacks ("Alma strikes Ghoul with Sword: Queen of Swords + Melee 20 against
                Defence 7 -> 26, Swords deal it in full")
    panel / panel_fight   ``view(state, seat)``: one panel per seat; a seat that may not see an
                NPC's sheet gets none of its figures nor odds counted from them; ``hand_of``
    sheet       the sheet (``FIELDS``, ``clean_sheet``, ``derived``) and its card (``glance``)
    samples     ``SAMPLES``
    access      what the rules give one person: whose hand cards go to, the GM's parts of a move
    audiences   ``AUDIENCES``: who sees each event kind (an NPC's figures are the GM's)
    working     ``working(event, state)``: how a line came out and the seed's rule word for
                word (issue 23); with a GM's part, a public working and the whole as its twin
    odds / odds_page   the exact odds (``all_or_nothing``, ``attack_through``...) and the odds
                page (``ODDS``); two modules, since together they pass 250 lines
    writeback   what goes back on the sheets: tracks, the Major Arcana held
    profile     a character as the rules read it, from the table now or from the fight
    resolution  all-or-nothing bands (``COMPLEXITIES``), fumbles, King/Queen cards,
                assistance, counters, opposed ties
    combat      AP, hands by focus, off-focus -3, Defence, damage, D1..M3, the critical
                chain, modern weapons, armour and vulnerabilities
    checks / contests / arcana   the moves outside combat: all-or-nothing checks and help;
                opposed and multi-draw actions and counters; the Major Arcana (a Queen's card,
                a fumble's guide, cards held and spent, the one carried over)
    hands / fight / hits   a round's focus, deal and redeal; a combat's moves; an attack resolved
    decks       which Minor Arcana a rule draws from: one, or more for a big fight
    campaign / conditions   the table's clock (issue 35): recovery by the decided reading, the
                GM's raise and correction outside a fight, the session's close; the lasting
                conditions the rules read (a modifier to draws, the wounds the seed names by suit)
    deck / faces / weapons / criticals   cards and their values; cards and chances as the panel
                draws them; the GM's Attack/Weapon and Major Critical tables, as text

The procedure
    Each move (``MOVES``) is parsed from its form, then the core checks who sent it (the GM's
    moves, and the moves a player makes for a character they play, named in ``combatant``),
    then its handler reads the state and the ``Turn`` (the sender, the table's characters as
    they are now, the decks) and returns events (a ``RuleError`` kind refuses, nothing drawn
    or changed); each event is folded into the state (``FOLDS``), never drawing: folding the
    log again rebuilds the state. A handler reads a sheet from the table (``turn.characters``)
    or from the fight that holds the character (its record as it entered, which the fight
    changes), who plays whom from the table, and the GM's member id only from the sender: a
    player's fumble leaves its guide for the GM to draw (``access.gm_hand``).

    Outside combat (also during a round, where opposed and multi-draw actions cost AP too):
    prepare_check, cancel_check, check (a player's, for their character, carrying the help the
    GM approved; a ``modifier`` is the GM's), ask_help and spend_arcana (a player's; a fate
    card waits for the GM's judge_spend), approve_help, opposed (two sides or more), counter
    (in a fight, against the attack waiting, or met by its target's next attack: an Active
    Dodge; unused, it lapses at the round's end), contest_start / contest_draw / contest_end, draw_guide / show_guide / return_guide,
    judge_spend, raise, adjust (outside a fight: Health, Life, Æssence) (the GM's);
    with the clock (games/core/clock.py) the core adds pass_time, add_condition, end_condition and
    set_option (the GM's). The session's close is no move: the platform runs it when the GM
    closes a session (``Clock.closing``, arcana.end_session: the one Major Arcana carried over).
    Combat: start_combat, add_combatant, new_round, deal, set_cover, announce_critical,
    set_weapons, set_criticals, adjust, end_combat (the GM's); declare_focus, redeal, aim,
    attack, end_turn, defend (the player's of the character named; the defender is the
    waiting attack's target).

Hands are the table's hand piles
    A deal draws each hand into its holder's hand pile (``cards.draw(..., to="hand")``); every
    card that leaves a hand under the rules (an attack, a dodge or parry, a check from the hand,
    a redeal's discards) leaves the table's pile through ``cards.play`` (face up in the play
    area, or on the discard pile), so the engine's record of each hand and the table's piles
    agree; a card the table no longer has in that hand is refused. Once its action is done (an
    attack resolved, a dodge, a check) a played card goes to the discard, so an empty draw
    pile refills from it. A new round, the first deal of a round with cards out, and the end of
    a combat gather the whole Minor Arcana back (``cards.gather``: shuffled under a new seal).
    A fight too big for one deck takes a second (``deck.MINOR_2``; ``decks``), and a third and
    more when two cannot hold its hands (``deck.EXTRA_MINORS``): each hand comes whole from one.

Hidden information (audiences.py)
    Dealt and re-dealt cards travel only in an event's private part, for the hand's player
    and the GM; public payloads, summaries and every panel count them (the table's hand
    panels show each hand to its holder and the GM). The GM's view alone names which cards
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

from games.shadows.system import SYSTEM

__all__ = ["SYSTEM"]
