"""ASGI entry point: HTTP through Django, websockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tabletop import serving  # noqa: E402
from tabletop.live.routing import websocket_urlpatterns  # noqa: E402
from tabletop.live.socket_auth import SessionUser  # noqa: E402

application = serving.install(  # how this process serves: see tabletop/serving/
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(SessionUser(URLRouter(websocket_urlpatterns))),
        }
    )
)
