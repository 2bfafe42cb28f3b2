"""Creates the demo GM and table once, and prints how to get in. Safe to run again."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.urls import reverse

from tabletop import services
from tabletop.models import Table

DEMO_USER = "demo-gm"
DEMO_TABLE = "Demo table"


class Command(BaseCommand):
    help = "Create a demo GM and table if missing; print the GM login and the table's links."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--base-url",
            default=f"http://127.0.0.1:{os.environ.get('PORT', '8000')}",
            help="Where the server answers (default: http://127.0.0.1:$PORT).",
        )

    def handle(self, *args: Any, base_url: str, **options: Any) -> None:
        users = get_user_model()
        # The demo password is derived from SECRET_KEY: stable across runs, unguessable elsewhere.
        from django.conf import settings
        import hashlib

        password = "demo-" + hashlib.sha256(f"demo:{settings.SECRET_KEY}".encode()).hexdigest()[:12]
        gm, created = users.objects.get_or_create(username=DEMO_USER)
        if created or not gm.check_password(password):
            gm.set_password(password)
            gm.save()
        table = Table.objects.filter(gm=gm, name=DEMO_TABLE).first()
        if table is None:
            table = services.table_create(gm=gm, name=DEMO_TABLE, system="freeform")
        base = base_url.rstrip("/")
        self.stdout.write(f"GM: {DEMO_USER} / {password}")
        self.stdout.write(f"Player link: {base}{reverse('join', args=[table.player_token])}")
        self.stdout.write(f"Spectator link: {base}{reverse('watch', args=[table.spectator_token])}")
        self.stdout.write(f"Table: {base}{reverse('table', args=[table.pk])}")
