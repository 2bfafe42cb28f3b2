# Two commands: `make run` serves a demo table, `make test` runs the whole suite.
# `make cluster` serves the demo from PostgreSQL, Redis, two daphnes and nginx (docs/deploy.md).
PYTHON ?= python3
PORT ?= 8000
# make run serves without debug pages (a revoked link must not print every URL pattern);
# DEBUG=1 make run is the development mode, HOST=0.0.0.0 serves the local network
HOST ?= 127.0.0.1
DEBUG ?= 0
HTTPS ?= 0
VENV := .venv
PY := $(VENV)/bin/python
CHROMIUM := /usr/bin/chromium

# What `make test` needs from Debian: Chromium for the browser tests, node and npm for Lighthouse
# (tests/browser/test_lighthouse.py), the servers for the scale tests.
TEST_PACKAGES := chromium nodejs npm postgresql redis-server nginx
CLUSTER_PACKAGES := postgresql redis-server nginx

.PHONY: run test install install-dev chromium test-packages cluster cluster-start cluster-stop cluster-clean migrate clean

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(VENV)/bin/activate
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(VENV)/bin/activate
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

run: migrate .secret_key
	DEBUG=$(DEBUG) SECRET_KEY="$$(cat .secret_key)" $(PY) manage.py collectstatic --noinput --verbosity 0
	echo "http://$(HOST):$(PORT)" > .served_at  # where `python manage.py demo` points its links
	$(PY) manage.py demo
	DEBUG=$(DEBUG) HTTPS=$(HTTPS) SECRET_KEY="$$(cat .secret_key)" $(VENV)/bin/daphne -b $(HOST) -p $(PORT) tabletop.asgi:application

# the key make run signs sessions with, made once for this checkout and never committed
.secret_key:
	@$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

chromium:
	@bash scripts/ensure-debian-packages chromium

test-packages:
	@bash scripts/ensure-debian-packages $(TEST_PACKAGES)

# Lighthouse and what it needs, pinned in package-lock.json: `npm ci` when node_modules is
# missing or older than the lock, with no install scripts (it runs Debian's Chromium, downloads none).
node_modules/.installed: package.json package-lock.json | test-packages
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# One worker per core (pytest-xdist), each test file whole on one worker, in three runs: a
# sync Playwright keeps an asyncio loop running in its process for as long as it lives, so no
# database or async test may follow it there. The unit and integration tests first, then the
# browser tests, then the scale tests (they hold their own Playwright and servers, one at a
# time). Every run runs whatever an earlier one found; the recipe fails if any failed.
# TEST_WORKERS=0 runs each in one process, as a plain `.venv/bin/python -m pytest` runs them all.
TEST_WORKERS ?= auto
test: install-dev test-packages node_modules/.installed
	@status=0; \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile tests/unit tests/integration || status=1; \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile tests/browser || status=1; \
	$(PY) -m pytest tests/scale || status=1; \
	exit $$status

# PostgreSQL, Redis, two daphnes and nginx on loopback, state in .cluster/; Ctrl-C stops them.
# Ports: CLUSTER_PORT (nginx, 8080), CLUSTER_DAPHNE_PORTS ("8081 8082"), CLUSTER_PG_PORT, CLUSTER_REDIS_PORT.
cluster: install
	@bash scripts/ensure-debian-packages $(CLUSTER_PACKAGES)
	@bash scripts/cluster up

cluster-start: install
	@bash scripts/ensure-debian-packages $(CLUSTER_PACKAGES)
	@bash scripts/cluster start

cluster-stop:
	@bash scripts/cluster stop

cluster-clean:
	@bash scripts/cluster clean

clean:
	rm -rf $(VENV) node_modules .pytest_cache staticfiles db.sqlite3 db.sqlite3-wal db.sqlite3-shm .secret_key
