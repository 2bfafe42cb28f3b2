"""A drawn card's Tarot meaning, for the GM to weave into the result.

Seed 004: "If the GM is able to, they're also encouraged to tie the drawn Tarot card's
meaning to the result in some way", with a Chariot, a Magician, a Seven of Swords ("they got
too greedy") and a Nine of Swords ("they panicked") as its examples. The Major Arcana's
meanings are the project's (``games.core.tarot``, seed 000's words). No seed gives the Minor
Arcana's, so these are the usual upright readings, in a few words each, with the suit's
influence from seed 000 beside them.
"""

from __future__ import annotations

from typing import Any

from games.core.cards import major_meaning
from games.core.tarot import tarot_suit
from games.report_card.rules import card_of

MINOR_MEANINGS: dict[str, tuple[str, ...]] = {
    "cups": (
        "New feelings, love, compassion, creativity",
        "Partnership, attraction, mutual respect",
        "Celebration, friendship, community",
        "Apathy, contemplation, a chance missed",
        "Loss, regret, dwelling on what is gone",
        "Nostalgia, memories, innocence",
        "Illusion, too many choices, wishful thinking",
        "Walking away, leaving something behind, seeking more",
        "Contentment, a wish granted, satisfaction",
        "Harmony, a happy family, fulfilment",
        "A creative message, curiosity, intuition",
        "Romance, charm, following the heart",
        "Compassion, calm, emotional security",
        "Emotional balance, diplomacy, generosity",
    ),
    "pentacles": (
        "A new opportunity, prosperity, a solid start",
        "Juggling priorities, adaptability, balance",
        "Teamwork, craftsmanship, learning",
        "Holding on, control, saving, possessiveness",
        "Hardship, poverty, being left out in the cold",
        "Generosity, charity, giving and receiving",
        "Patience, the long view, waiting for the harvest",
        "Diligence, skill, apprenticeship, hard work",
        "Self-sufficiency, comfort, reward",
        "Wealth, legacy, family, lasting success",
        "Ambition, study, a practical opportunity",
        "Hard work, routine, reliability",
        "Practical care, nurturing, resourcefulness",
        "Security, abundance, discipline",
    ),
    "swords": (
        "Clarity, a breakthrough, truth",
        "A hard choice, stalemate, avoidance",
        "Heartbreak, sorrow, grief",
        "Rest, recovery, contemplation",
        "Conflict, winning at a cost, defeat",
        "Moving on, transition, leaving trouble behind",
        "Deception, stealth, greed, taking more than one can carry",
        "Feeling trapped, restriction, self-doubt",
        "Anxiety, worry, panic, nightmares",
        "Rock bottom, betrayal, a painful ending",
        "Curiosity, vigilance, new ideas",
        "Haste, ambition, charging ahead",
        "Clear judgement, independence, honesty",
        "Intellect, authority, truth",
    ),
    "wands": (
        "Inspiration, new energy, a spark",
        "Planning, decisions, looking ahead",
        "Expansion, foresight, progress",
        "Celebration, homecoming, stability",
        "Competition, conflict, scuffles",
        "Victory, public recognition, pride",
        "Standing one's ground, defiance, perseverance",
        "Speed, swift action, news",
        "Resilience, persistence, a last stand",
        "Burden, overload, too much responsibility",
        "Enthusiasm, exploration, a free spirit",
        "Energy, adventure, impulsiveness",
        "Confidence, courage, determination",
        "Leadership, vision, boldness",
    ),
}


def meaning(token: str) -> dict[str, Any]:
    """``{"name", "reversed", "meaning", "influence"}`` for a drawn card's token;
    ``influence`` is the Minor Arcana suit's (seed 000), empty for a Major Arcana."""
    oriented = card_of(token)
    card = oriented.card
    if card.arcana == "major":
        return {"name": card.name, "reversed": oriented.reversed,
                "meaning": major_meaning(card, oriented.reversed), "influence": ""}
    suit = tarot_suit(card.suit or "")
    return {"name": card.name, "reversed": False, "meaning": MINOR_MEANINGS[suit.key][card.value - 1],
            "influence": f"{suit.name}: {suit.element}, {', '.join(suit.indicators[1:4])}"}


def card_name(token: str) -> str:
    """A card as a sentence says it: "the Seven of Swords", "The Chariot", "Death",
    "the Wheel of Fortune", "The Tower (reversed)"."""
    oriented = card_of(token)
    name = oriented.card.name
    if oriented.card.arcana == "minor" or not name.startswith(("The ", "Death", "Strength", "Justice",
                                                                 "Temperance", "Judgement")):
        name = "the " + name
    return name + (" (reversed)" if oriented.reversed else "")
