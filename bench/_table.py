"""A table and the people at it, seated through the real pages: a GM signed up, a Freeform table
hosted from the home page, players and spectators through the links the GM's page shows."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from _http import Http, Response

# Shares no letter or digit with the "bench-<hex>" usernames: the sign-up form refuses a
# password too like its username (Django's similarity check), which chance made this do.
PASSWORD = "Sly-Quiz-Worm-Joy-Mix"


@dataclass
class Table:
    id: int
    gm: Http
    player_path: str
    spectator_path: str

    @property
    def path(self) -> str:
        return f"/tables/{self.id}/"


def expect(response: Response, *statuses: int, what: str) -> Response:
    if response.status not in statuses:
        raise RuntimeError(f"{what}: HTTP {response.status}\n{response.text[:2000]}")
    return response


async def sign_up(port: int) -> Http:
    """A GM account of its own, through the sign-up page."""
    gm = Http(port)
    await gm.get("/accounts/signup/")
    username = f"bench-{secrets.token_hex(4)}"
    form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    expect(await gm.post("/accounts/signup/", form), 302, what="sign up")
    return gm


async def host_table(gm: Http, name: str) -> Table:
    """A Freeform table, through the home page's form; its links read from the GM's page."""
    await gm.get("/")
    created = expect(await gm.post("/tables/new/", {"name": name, "system": "freeform"}),
                     302, what="create a table")
    table_id = int(re.search(r"/tables/(\d+)/", created.headers["location"]).group(1))
    page = expect(await gm.get(f"/tables/{table_id}/"), 200, what="the GM's table page").text
    player = re.search(r"/join/[^/\"'<\s]+/", page)
    spectator = re.search(r"/watch/[^/\"'<\s]+/", page)
    if not (player and spectator):
        raise RuntimeError("the GM's page shows no player or spectator link")
    return Table(id=table_id, gm=gm, player_path=player.group(0), spectator_path=spectator.group(0))


async def join_player(table: Table, name: str, *, port: int | None = None) -> Http:
    """A player with a seat of their own, through the player link, on ``port`` (the
    process this person goes to; the GM's by default)."""
    person = Http(port or table.gm.port)
    await person.get(table.player_path)
    expect(await person.post(table.player_path, {"display_name": name}), 302, what=f"join as {name}")
    return person


async def join_spectator(table: Table, *, port: int | None = None) -> Http:
    """A spectator with a seat of their own, through the spectator link, on ``port`` (the
    process this person goes to; the GM's by default)."""
    person = Http(port or table.gm.port)
    await person.get(table.spectator_path)
    expect(await person.post(table.spectator_path, {}), 302, what="watch")
    await person.close()  # a spectator only listens; its socket is all it keeps open
    return person


async def last_seq(table: Table) -> int:
    """The seq the table's page was rendered up to, as the page hands it to its socket."""
    page = expect(await table.gm.get(table.path), 200, what="the table page").text
    found = re.search(r'data-last-seq="(\d+)"', page)
    if found is None:
        raise RuntimeError("the table page has no data-last-seq")
    return int(found.group(1))
