# Two commands: `make run` serves a demo table, `make test` runs the whole suite.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
CHROMIUM := /usr/bin/chromium

.PHONY: run test install install-dev chromium migrate clean

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

run: migrate
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py demo
	$(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) tabletop.asgi:application

chromium:
	@bash scripts/ensure-debian-packages chromium

test: install-dev chromium
	$(PY) -m pytest

clean:
	rm -rf $(VENV) .pytest_cache staticfiles db.sqlite3 db.sqlite3-wal db.sqlite3-shm
