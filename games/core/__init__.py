"""Building blocks shared by every system: randomness, dice, cards, odds."""
