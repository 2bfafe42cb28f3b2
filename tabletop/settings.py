"""Settings. One machine by default (SQLite + in-memory channel layer); the
environment switches on PostgreSQL (``DATABASE_URL``), Redis (``REDIS_URL``) and
production security (``DEBUG=0`` with ``SECRET_KEY`` and ``ALLOWED_HOSTS``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url
import jinja2
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "tabletop",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tabletop.serving.middleware.MethodPage",  # a button's address opened in the browser: a page
    "tabletop.serving.middleware.SyncChain",  # last: see its docstring
]

ROOT_URLCONF = "tabletop.urls"
CSRF_FAILURE_VIEW = "tabletop.views.errors.csrf_failure"
ASGI_APPLICATION = "tabletop.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
    {
        # The log's lines (feed/frames.py): one is rendered at every event, and Django's own
        # engine spent a sixth of the writer thread's time on them (py-spy, bench/throughput).
        # Jinja2 compiles templates to Python: the same roll's line in 157 µs instead of 418,
        # a chat line's in 97 instead of 178 (docs/performance.md). Django's performance
        # guide suggests it for this. The same autoescaping; an undefined name prints
        # nothing, as in Django's engine.
        "NAME": "log",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "autoescape": True,
            "undefined": jinja2.Undefined,
            "keep_trailing_newline": True,
            # the log stores facts (a die's sides and value); how a die is drawn is added here
            "environment": "tabletop.feed.frames.log_environment",
        },
    },
]

if os.environ.get("DATABASE_URL"):
    # Under ASGI every request runs in a context of its own and so opens its own connection:
    # a PostgreSQL backend started per request cost ~10 ms of the server's CPU per action
    # (bench/throughput --servers). Django's psycopg pool hands connections out instead;
    # persistent connections (CONN_MAX_AGE) cannot be combined with it.
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=0)}
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", 16)),
        "timeout": 20,
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "tabletop.serving.sqlite3",  # Django's, with writers queued: see its base.py
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN, so two writers queue on
                # the timeout instead of failing with "database is locked" mid-way.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                # WAL is set once per file (tabletop/serving/sqlite3/base.py: keep_open)
                "init_command": "PRAGMA synchronous=NORMAL;",
            },
            # The tests' database is a file too, as a deployment's is, so the tests take the
            # serving path (writers queued, connections handed on, socket actions on their own
            # threads): Django's default for SQLite is an in-memory database in shared-cache
            # mode, where a second writer fails at once and no other thread may write. One
            # file per test process, so runs side by side never share one.
            "TEST": {"NAME": os.environ.get(
                "SQLITE_TEST_PATH", str(Path(tempfile.gettempdir()) / f"tabletop-test-{os.getpid()}.sqlite3"))},
        }
    }

if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # channels-redis waits on Redis 5 s at a time for new messages; redis-py's
                # own read timeout must be longer, or every quiet socket is cut every 5 s.
                "hosts": [
                    {"address": os.environ["REDIS_URL"], "socket_timeout": 30, "socket_connect_timeout": 5}
                ],
                "capacity": 1500,
                "expiry": 30,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "tabletop.serving.layers.InProcessChannelLayer"}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Guests have no password: the session is their seat, so it lasts a season of play.
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT", str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploads (scene pictures, portraits) go through Django's storage API, to the storage named
# "default" below: the media folder on this machine unless that entry names another backend
# (django-storages' S3 one, say). Files are served only through views that check the viewer
# (tabletop/views/scenes.py), never from MEDIA_URL, so no URL pattern serves the folder.
MEDIA_ROOT = os.environ.get("TABLETOP_MEDIA_ROOT", str(BASE_DIR / "media"))
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Limits on what a user may send; views and services enforce them.
TABLETOP_MAX_MESSAGE_CHARS = 2000
TABLETOP_MAX_NOTATION_CHARS = 100
TABLETOP_MAX_DICE = 200
TABLETOP_REPLAY_LIMIT = 500
# Check every event appended against its kind's declaration (tabletop/feed/catalogue.py): the
# test suite turns it on (tests/conftest.py), so every test that logs an event checks its shape.
TABLETOP_CHECK_EVENTS = env_bool("TABLETOP_CHECK_EVENTS", False)
# Fail, naming it, where a template drew for a seat what it may not use (tabletop/feed/marks.py,
# ``checked``), instead of taking it out: on in the test suite.
TABLETOP_CHECK_SEATS = env_bool("TABLETOP_CHECK_SEATS", False)
# Threads that run socket actions, each with a connection kept open (socket_actions.py):
# SQLite has one writer at a time; PostgreSQL locks per table, so a few may write at once.
TABLETOP_SOCKET_WRITERS = int(
    os.environ.get("TABLETOP_SOCKET_WRITERS", 4 if os.environ.get("DATABASE_URL") else 1)
)
# At most this many socket actions waiting together commit as one transaction. On SQLite
# they queue for its one writer anyway; on PostgreSQL a batch would hold several tables'
# locks until its commit, so each action commits alone there unless set.
TABLETOP_SOCKET_BATCH = int(
    os.environ.get("TABLETOP_SOCKET_BATCH", 1 if os.environ.get("DATABASE_URL") else 16)
)
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
# An uploaded picture (tabletop/services/images.py): at most this many bytes, and this many pixels on a
# side and in all; a bigger one is refused before it is decoded (a small file can unpack huge).
TABLETOP_MAX_IMAGE_BYTES = 5 * 1024 * 1024
TABLETOP_MAX_IMAGE_SIDE = 8000
TABLETOP_MAX_IMAGE_PIXELS = 24_000_000
# How a daphne process serves (eager writes, prepared frames, sliced pings, sockets set aside
# from the garbage collector) is not a setting: tabletop/serving/ applies all of it under daphne.

# Behind HTTPS (the default when DEBUG is off); ``HTTPS=0`` serves plain HTTP without debug pages,
# as ``make run`` does for a group on a local network (docs/deploy.md).
HTTPS = env_bool("HTTPS", not DEBUG)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "filters": {"quiet_refusals": {"()": "tabletop.serving.logfilters.QuietRefusals"}},
    "loggers": {
        # what tabletop/serving/ applied to a daphne process, once at start
        "tabletop.serving": {"level": "INFO"},
        "django.request": {"filters": ["quiet_refusals"]},
    },
}
