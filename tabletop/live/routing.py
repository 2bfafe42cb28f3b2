from __future__ import annotations

from django.urls import path

from tabletop.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
