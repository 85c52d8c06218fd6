# Every target uses the tools inside .venv directly: no need to activate it.
VENV := .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
PYTHON_VERSION := $(shell cut -d. -f1,2 .python-version)
PYTEST_ARGS ?=

.PHONY: setup run test bench lint clean

setup: $(INSTALLED)

# The venv is made with the first interpreter found that has the version named in .python-version.
$(PYTHON):
	@for candidate in "$$(pyenv which python 2>/dev/null)" "$$(command -v python$(PYTHON_VERSION))" \
	                  "$$(command -v python3)" "$$(command -v python)"; do \
	    [ -n "$$candidate" ] || continue; \
	    version=$$("$$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue; \
	    if [ "$$version" = "$(PYTHON_VERSION)" ]; then \
	        echo "Creating $(VENV) with $$candidate (Python $$version)"; \
	        exec "$$candidate" -m venv $(VENV); \
	    fi; \
	done; \
	echo "error: Python $(PYTHON_VERSION) (from .python-version) not found: tried pyenv, python$(PYTHON_VERSION), python3, python" >&2; \
	exit 1

# Reinstalls only when pyproject.toml changes, so `make setup` is instant when nothing did.
$(INSTALLED): pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install --quiet -e '.[dev]'
	@touch $@

run: setup
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py runserver 127.0.0.1:8000

# One test process per core (pytest-xdist): each has its own test database.
test: setup
	$(VENV)/bin/pytest -n auto -m "not celery_worker and not e2e and not faults" $(PYTEST_ARGS)

bench: setup
	$(PYTHON) -m bench

lint: setup
	$(VENV)/bin/ruff check .

# Regenerates locale/fr/LC_MESSAGES/django.po and .mo, the French plural messages (singular for 0 and 1), from
# the code; needs GNU gettext. Run after changing a plural message and commit locale/.
.PHONY: messages
messages: setup
	$(PYTHON) scripts/update_plurals.py

# Removes what setup, tests and collectstatic generate; keeps db.sqlite3, which holds local data.
clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
