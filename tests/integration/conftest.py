"""Fixtures for the platform's integration tests: a table with a GM, two players and a spectator."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tabletop import services
from tabletop.models import Campaign, Membership, Role


@dataclass
class Table:
    campaign: Campaign
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
def table(db: None) -> Table:
    users = get_user_model()
    gm_user = users.objects.create_user("gail", password="a long gm password 1")
    campaign = services.campaign_create(gm=gm_user, name="Night Shift", system="freeform")
    gm = campaign.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(
        campaign=campaign, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann"
    )
    bob = services.membership_join(
        campaign=campaign, user=services.guest_user_create(), role=Role.PLAYER, display_name="Bob"
    )
    watcher = services.membership_join(
        campaign=campaign, user=services.guest_user_create(), role=Role.SPECTATOR
    )
    return Table(campaign, gm, ann, bob, watcher)
