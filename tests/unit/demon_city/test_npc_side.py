"""Issue 13 (Demon City at the table): "New NPCs default to the players' side, so a PC-NPC tie is
broken at random instead of 'nobody acts', and PCs teaming up on it get no Distraction Die.
NPCs default to the opposing side."

Seed 003: "If it's a tie between two characters on the same side (ie, two PCs who are getting
along or two hostile NPCs with the same goal locally) then the winner is decided randomly";
"If it's a tie between characters on opposing sides ... nobody's action takes"; "The second and
subsequent characters to target a given foe in the same clash get an extra d10, the
Distraction Die."
"""

from __future__ import annotations

from games.contract import Character, Table
from games.demon_city.moves import start
from games.demon_city.sheet import clean_sheet
from games.demon_city.state import current_pools
from tests.unit.demon_city.conftest import Fight


def table_of(*characters: Character) -> Table:
    return Table(characters=characters,
                 read_id=lambda raw: int(raw) if str(raw).isdigit() else None)


def made(pk: int, name: str, *, npc: bool, **sheet: object) -> Character:
    """A character as the character form makes it: every field not typed keeps its default."""
    return Character(id=pk, cid=f"c{pk}", name=name, sheet=clean_sheet(sheet), owner=None, is_npc=npc)


ANN = made(1, "Ann", npc=False, agility=4)
BOB = made(2, "Bob", npc=False, agility=5)
GHOUL = made(3, "Ghoul", npc=True, agility=3, hand_to_hand=2)


def started(*characters: Character) -> Fight:
    """A fight started as the start form starts it: the parser names the characters, the
    engine reads their sheets from the table."""
    args = start({"characters": [str(c.id) for c in characters]}, table_of(*characters))
    assert args["combatants"] == [c.cid for c in characters]
    return Fight(list(characters))


def sides(*characters: Character) -> dict[str, str]:
    return {c["name"]: c["side"] for c in started(*characters).log[0]["combatants"]}


def test_a_new_npc_opposes_the_players_and_a_new_pc_joins_them() -> None:
    assert sides(ANN, BOB, GHOUL) == {"Ann": "players", "Bob": "players", "Ghoul": "opponents"}


def test_a_side_the_gm_typed_is_kept() -> None:
    ally = made(4, "Informant", npc=True, side="players")
    rival = made(5, "Rival", npc=False, side="the Order")
    assert sides(ally, rival) == {"Informant": "players", "Rival": "the Order"}


def test_a_tie_with_a_new_npc_means_nobody_acts(scripted, pick):
    f = started(ANN, GHOUL)
    f.announce("c3", "melee", "c1")  # the Ghoul's Agility 3 is not > Ann's 4: one die
    f.announce("c1", "melee", "c3")  # Ann's Agility 4 > the Ghoul's 3: two dice
    events = f.roll(scripted([7, 7, 2]))  # both best 7
    (clash,) = pick(events, "clash_rolled")
    assert clash["outcome"] == "opposing_tie" and clash["winner"] is None


def test_players_teaming_up_on_a_new_npc_get_the_distraction_die():
    f = started(ANN, BOB, GHOUL)
    f.announce("c3", "defend")
    f.announce("c1", "melee", "c3")
    f.announce("c2", "melee", "c3")
    assert current_pools(f.state)["c2"].count("distraction") == 1
