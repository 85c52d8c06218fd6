# Every target uses the tools inside .venv directly: no need to activate it.
VENV := .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
# The top finder's cache directory (scoring/engine/gaddag.py): the word list's index and the compiled kernel. Its
# stamp is named after this checkout, since numba keys the kernel it saves by the source file's path.
SEARCH_CACHE := $(or $(CLUBSITE_CACHE_DIR),$(HOME)/.cache/clubsite)
SEARCH_PREPARED := $(SEARCH_CACHE)/prepared$(subst /,-,$(CURDIR))
PYTHON_VERSION := $(shell cut -d. -f1,2 .python-version)
PYTEST_ARGS ?=

.PHONY: setup run test bench lint clean

setup: $(INSTALLED) $(SEARCH_PREPARED)

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

# The index of the shipped word list and the compiled kernel, built when the project is installed rather than by
# the first search (issue 22: a first draw's tops took 13.7 s); again when the engine or the list changes, or when
# the cache directory was emptied. Needs no database: before `migrate` the shipped list is the one prepared.
$(SEARCH_PREPARED): $(INSTALLED) $(wildcard scoring/engine/*.py) $(wildcard scoring/data/*.gz)
	$(PYTHON) manage.py prepare_search
	@mkdir -p $(@D) && touch $@

run: setup
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py runserver 127.0.0.1:8000

# One test process per core (pytest-xdist): each has its own test database.
test: setup
	$(VENV)/bin/pytest -n auto -m "not celery_worker and not e2e and not faults" $(PYTEST_ARGS)

bench: setup
	$(PYTHON) -m bench

# Python by ruff; JavaScript by ESLint, installed from the npm registry into node_modules (package-lock.json) the
# first time, which needs Debian's `npm`. Without npm the JavaScript half says it is skipped and why.
NODE_MODULES := node_modules/.installed

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@if command -v npm >/dev/null; then \
	    $(MAKE) --no-print-directory $(NODE_MODULES) && npx --no-install eslint . && echo "eslint: JavaScript clean"; \
	else \
	    echo "lint: npm not found (apt-get install npm): the JavaScript was not linted" >&2; \
	fi

$(NODE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	@touch $@

# Regenerates locale/fr/LC_MESSAGES/django.po and .mo, the French plural messages (singular for 0 and 1), from
# the code; needs GNU gettext. Run after changing a plural message and commit locale/.
.PHONY: messages
messages: setup
	$(PYTHON) scripts/update_plurals.py

# Removes what setup, tests and collectstatic generate; keeps db.sqlite3, which holds local data.
clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
