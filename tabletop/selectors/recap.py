"""A session told from the log, as one seat may read it: who was there, how it went (what was
said and decided at the table, time passing, fights begun and ended, conditions, the session's own
rules), and the rolls and cards that mattered (criticals, fumbles, dramatic failures, a fall),
with a Markdown copy for the group's notes. Each line is one the seat reads in its own log (``events_for``), so a recap holds nothing
its reader could not have read already."""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.models import Membership, PlaySession, Table

# What a line of the log is, for the recap, by the words of its kind (a system's kinds are its
# own: "<key>.combat_ended", "<key>.fight_started"): a fight's start or end, the clock and
# conditions, and the moments that mattered.
FIGHT = ("fight", "combat", "action_rounds", "contest", "skirmish")
BEGIN_END = ("start", "began", "begun", "ended", "end", "over", "opened")
CLOCK = ("time_passed", "condition_added", "condition_ended", "session_ended", "beats", "advance", "rises", "marked")
MOMENTS = ("critical", "fumble", "dramatic", "fell", "falls", "fallen", "knocked", "out_of", "wheel", "dead",
           "injury", "incapacitated", "downed")
# the words of a line that mattered, whatever its kind
SAID = ("critical", "fumble", "dramatic failure", "out of the fight", "knocked out", "killed", "is dead",
        "falls dead", "is down", "wheel of fortune")
PER_PART = 40  # the most lines in one part of a recap


@dataclass
class Recap:
    table: str
    number: int
    opened: str
    closed: str
    reader: str
    present: list[str] = field(default_factory=list)
    story: list[str] = field(default_factory=list)
    moments: list[str] = field(default_factory=list)
    rolls: int = 0
    lines: int = 0

    def markdown(self) -> str:
        """The recap as Markdown, for the group's notes."""
        until = f" to {self.closed}" if self.closed else " (still open)"
        out = [f"# {md(self.table)}: session {self.number}", "",
               f"{self.opened}{until} · as {md(self.reader)} read it", ""]
        out += ["## Who was there", "", ", ".join(md(p) for p in self.present) or "Nobody acted.", ""]
        out += ["## How it went", ""]
        out += [f"- {md(line)}" for line in self.story] or ["- Nothing but talk."]
        out += ["", "## Rolls and cards that mattered", ""]
        out += [f"- {md(line)}" for line in self.moments] or ["- None stood out."]
        out += ["", f"{self.lines} lines in the log, {self.rolls} of them rolls or draws.", ""]
        return "\n".join(out)


def md(text: str) -> str:
    """Escapes Markdown and HTML so a message stays text in any viewer."""
    out = text.replace("\\", "\\\\")
    for ch in "`*_[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return " ".join(out.split())


def _is_fight(kind: str) -> bool:
    what = kind.partition(".")[2]
    return any(w in what for w in FIGHT) and any(w in what for w in BEGIN_END)


def _is_clock(kind: str) -> bool:
    return kind.startswith("session.") or any(kind.partition(".")[2].startswith(w) for w in CLOCK)


def _is_moment(kind: str, summary: str) -> bool:
    what = kind.partition(".")[2]
    said = summary.lower()
    return any(w in what for w in MOMENTS) or any(w in said for w in SAID)


def build(table: Table, me: Membership, session: PlaySession, seen: list) -> Recap:
    """The recap of ``session`` from the events ``seen`` (what ``me`` reads of it)."""
    recap = Recap(table=table.name, number=session.number, opened=session.opened.date().isoformat(),
                  closed=session.closed.date().isoformat() if session.closed else "", reader=me.display_name)
    present: dict[str, None] = {}
    for item in seen:
        event = item.event
        recap.lines += 1
        if event.actor is not None and event.kind not in ("member.removed",):
            present.setdefault(event.actor.display_name, None)
        summary = item.summary
        if event.kind in ("dice.rolled",) or "draw" in event.kind or "roll" in event.kind or "pull" in event.kind:
            recap.rolls += 1
        if _is_fight(event.kind) or _is_clock(event.kind) or event.kind == "chat.posted":  # what was said, decided
            if len(recap.story) < PER_PART:
                recap.story.append(summary)
        elif _is_moment(event.kind, summary) and len(recap.moments) < PER_PART:
            recap.moments.append(summary)
    recap.present = list(present)
    return recap
