from __future__ import annotations

from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    verbose_name = "Tabletop"

    def ready(self) -> None:
        from tabletop import ids

        ids.register()  # <id:…> in tabletop/urls.py and tabletop/live/routing.py
