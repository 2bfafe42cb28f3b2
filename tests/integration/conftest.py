"""Fixtures for the platform's integration tests: a table with a GM, two players and a spectator."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tabletop import services
from tabletop.models import Table, Membership, Role


@dataclass
class Party:
    """The ``table`` fixture: a table's row, with the people sitting at it."""

    row: Table
    gm: Membership
    ann: Membership
    bob: Membership
    watcher: Membership

    def client(self, member: Membership) -> Client:
        client = Client()
        client.force_login(member.user)
        return client


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


@pytest.fixture
def table(db: None) -> Party:
    users = get_user_model()
    gm_user = users.objects.create_user("gail", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name="Night Shift", system="freeform")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(
        table=table, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann"
    )
    bob = services.membership_join(
        table=table, user=services.guest_user_create(), role=Role.PLAYER, display_name="Bob"
    )
    watcher = services.membership_join(
        table=table, user=services.guest_user_create(), role=Role.SPECTATOR
    )
    return Party(table, gm, ann, bob, watcher)


SEQ = re.compile(r'data-frame-seq="(\d+)"')


@dataclass
class Socket:
    """A member's socket to the real ASGI application, through Channels' communicator."""

    comm: Any
    received: list[str] = field(default_factory=list)  # every text frame, in order

    async def send(self, frame: dict[str, Any] | str) -> None:
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def until(self, needle: str, timeout: float = 3) -> list[str]:
        """Every text frame received up to and including the first that holds ``needle``."""
        frames: list[str] = []
        while True:
            message = await self.comm.receive_output(timeout=timeout)
            assert message["type"] == "websocket.send", message
            frames.append(message["text"])
            self.received.append(message["text"])
            if needle in message["text"]:
                return frames

    async def seen(self, needle: str, timeout: float = 3) -> str:
        """The first frame, received already or still to come, that holds ``needle``."""
        for text in self.received:
            if needle in text:
                return text
        return (await self.until(needle, timeout))[-1]

    def event_seqs(self) -> list[int]:
        """The seq of every event frame received so far, in the order received."""
        return [int(m.group(1)) for f in self.received for m in [SEQ.search(f)] if m]

    async def close(self) -> None:
        await self.comm.disconnect()


def _session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def connect() -> Callable[..., Awaitable[Socket]]:
    """Opens a member's socket (Origin and Host of the test server) and resumes from 0."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from tabletop.asgi import application

    async def open_socket(table: Party, member: Membership, *, resume: int | None = 0) -> Socket:
        cookie = await database_sync_to_async(_session_cookie)(member.user)
        comm = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[(b"cookie", f"sessionid={cookie}".encode()), (b"origin", b"http://127.0.0.1"),
                     (b"host", b"127.0.0.1")],
        )
        connected, code = await comm.connect()
        assert connected, code
        socket = Socket(comm)
        if resume is not None:
            await socket.send({"type": "resume", "after": resume})
        return socket

    return open_socket
