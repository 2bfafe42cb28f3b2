"""Issue 23: "`make run` serves safely for a group on a network: no debug pages (a revoked link
showed Django's debug 404 with every URL pattern); a development mode stays one variable away"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dry_run(**env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS", "HOST")}
    done = subprocess.run(["make", "-n", "run"], cwd=ROOT, env={**environ, **env}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def settings_under(**env: str) -> dict[str, object]:
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tabletop.settings'; django.setup();"
            "from django.conf import settings as s;"
            "print(repr({k: getattr(s, k, None) for k in ('DEBUG', 'SECURE_SSL_REDIRECT', "
            "'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_HSTS_SECONDS', 'SECURE_CONTENT_TYPE_NOSNIFF')}))")
    environ = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS", "SECRET_KEY")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**environ, "SECRET_KEY": "k" * 50, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout)  # noqa: S307 -- our own repr of plain values


def test_make_run_serves_without_debug_pages_and_debug_is_one_variable_away() -> None:
    daphne = next(line for line in dry_run().splitlines() if "daphne" in line)
    assert daphne.startswith("DEBUG=0 HTTPS=0 ") and "-b 127.0.0.1" in daphne
    collect = next(line for line in dry_run().splitlines() if "collectstatic" in line)
    assert collect.startswith("DEBUG=0 ")  # the manifest the production storage reads
    assert next(line for line in dry_run(DEBUG="1").splitlines() if "daphne" in line).startswith("DEBUG=1 ")
    assert "-b 0.0.0.0" in next(line for line in dry_run(HOST="0.0.0.0").splitlines() if "daphne" in line)


def test_plain_http_without_debug_keeps_the_cookies_usable_and_https_is_the_production_default() -> None:
    lan = settings_under(DEBUG="0", HTTPS="0")
    assert lan["DEBUG"] is False and not lan["SECURE_SSL_REDIRECT"] and not lan["SESSION_COOKIE_SECURE"]
    assert not lan["CSRF_COOKIE_SECURE"] and lan["SECURE_CONTENT_TYPE_NOSNIFF"]
    production = settings_under(DEBUG="0")
    assert production["SECURE_SSL_REDIRECT"] and production["SESSION_COOKIE_SECURE"] and production["SECURE_HSTS_SECONDS"]
