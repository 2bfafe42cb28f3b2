"""Issue 23, "Dice as dice": a Demon City task's log line draws its d10s as dice, the one the rule
counts marked the best and the others not counted, as the panel draws a Clash's (thrown.py), and
still reads its summary and unfolds its working. Its dice come from the event as the seat sees
it: a task against a secret NPC draws the NPC's dice for everyone (seed 003: every die is
public) and names none of its figures."""

from __future__ import annotations

from typing import Any

from django.template import engines
from django.urls import reverse

from games.demon_city.thrown import thrown
from tests.integration.test_demon_city_no_leak import HTMX, dc, leaked  # noqa: F401 (a fixture)
from tests.integration.test_demon_city_working import HOW, rolls

LINE = "log/games/demon_city/task_rolled.html"
BEST = 'class="die d10 best" role="img" aria-label="{} on a d10, the best"'
DROPPED = 'class="die d10 dropped" role="img" aria-label="{} on a d10, not counted"'


def task_line(dc: dict[str, Any], who: str) -> str:  # noqa: F811
    """The task's line in ``who``'s log, from its opening to the end of its working (its last part)."""
    text = dc["clients"][who].get(reverse("table", args=[dc["table"].pk])).content.decode()
    assert "kind-demon_city-task_rolled" in text, who
    return text.split("kind-demon_city-task_rolled", 1)[1].split("</details>", 1)[0]


def test_a_task_s_line_draws_its_dice_the_best_marked(dc, monkeypatch) -> None:  # noqa: F811
    """Seed, Task Resolution: "use the better of their two rolls": Alfie's 7 counts, his 2 not."""
    rolls(monkeypatch, 2, 7)
    assert dc["clients"]["ann"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
        "character": dc["alfie"].pk, "stat": "hand_to_hand", "target_number": "3"}, **HTMX).status_code == 200
    for who in ("gm", "ann", "watcher"):
        line = task_line(dc, who)
        assert DROPPED.format(2) in line and BEST.format(7) in line, who
        assert '<span class="summary">Alfie tries Hand-to-Hand 9 against difficulty 3: rolls 2, 7 (best 7)' in line
        assert HOW in line, who


def test_a_task_against_a_secret_npc_draws_both_sides_dice_for_everyone(dc, monkeypatch) -> None:  # noqa: F811
    """Seed: "Their official roll ... is whichever of their rolls is highest": Alfie's 7 of 2, 7,
    the Demon's one die, 5, each the best of its roll, on every seat's line; the Demon's
    Hand-to-Hand 8 on the GM's alone."""
    rolls(monkeypatch, 2, 7, 5)
    assert dc["clients"]["ann"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
        "character": dc["alfie"].pk, "stat": "hand_to_hand", "opponent": dc["demon"].pk,
        "opponent_stat": "hand_to_hand"}, **HTMX).status_code == 200
    for who in ("gm", "ann", "watcher"):
        line = task_line(dc, who)
        assert DROPPED.format(2) in line and BEST.format(7) in line and BEST.format(5) in line, who
        drawn = line.split('class="task-dice"', 1)[1]  # each side's dice after its name
        assert drawn.index(BEST.format(7)) < drawn.index("Demon") < drawn.index(BEST.format(5)), who
        assert HOW in line, who
        if who != "gm":
            assert leaked(line) == [], who
    assert "Hand-to-Hand 8" in task_line(dc, "gm")


def test_the_line_marks_the_die_the_panel_marks_when_dice_tie() -> None:
    """Two 9s: the first counts, as ``thrown`` draws them on the panel; the other is not counted."""
    body = engines["log"].get_template(LINE).template.render(
        {"summary": "Alfie rolls 9, 9", "data": {"task": {"name": "Alfie", "roll": {"dice": [9, 4, 9], "best": 9}}}})
    marks = [("best" if f["best"] else "dropped" if not f["kept"] else "") for d in thrown([9, 4, 9])
             for f in d["faces"]]
    drawn = [("best" if 'd10 best"' in chunk else "dropped" if 'd10 dropped"' in chunk else "")
             for chunk in body.split('<span class="die ')[1:]]
    assert drawn == marks == ["best", "dropped", "dropped"]
    assert "Alfie rolls 9, 9" in body
