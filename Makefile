# Two commands do everything on a fresh machine:
#   make serve   set up, build the site (warnings are errors) and serve it on http://127.0.0.1:8000
#   make test    the same set-up, plus Debian's chromium, then the whole test suite
# Every step is a file target, so a second run only redoes what changed.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV    := .venv
VPY     := $(VENV)/bin/python
BUILD   := _build/html
# present while $(BUILD) holds one build made into an empty folder, with no source changed since:
# the tests then read it instead of building the site a second time
SCRATCH_MARK := _build/html.from-scratch
WHEEL_STAMP := dist/.stamp
HOST    := 127.0.0.1
PORT    := 8000
PREFIX  := /

# pyodide-build 0.39 (which reads Pyodide 314's lockfile) needs Python >= 3.12.
PYTHON ?= $(shell for p in python3.13 python3.12 $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[23]*/bin/python3 2>/dev/null) python3; do \
	  if $$p -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then command -v $$p || echo $$p; break; fi; done)

PACKAGE_SOURCES := $(shell find tafl_rules -name '*.py' -o -name '*.toml' -o -name '*.po' 2>/dev/null)
SITE_SOURCES := conf.py index.md 404.md $(shell find docs sources _static _templates locale -type f -not -name '*.mo' 2>/dev/null) $(PACKAGE_SOURCES)
# The site's other languages (conf.py's tafl_languages after English): each is built, from the same
# sources and its catalogues in locale/<code>, into $(BUILD)/<code>, before the English tree, whose
# build ends by stamping every page of $(BUILD) with the runtime's build (tafl_sphinx.language).
TRANSLATIONS := cy

.PHONY: help setup site serve test chromium clean bench locale mutants

help:
	@echo "make serve   build the site and serve it on http://$(HOST):$(PORT)/ (its home page)"
	@echo "make test    run the whole test suite (installs Debian's chromium if missing)"
	@echo "make bench   run the benchmarks"
	@echo "make mutants mutation testing of the rules package (about an hour; tests/mutation/report.md)"

$(VENV)/.stamp: pyproject.toml
	@if [ -z "$(PYTHON)" ]; then \
	  echo "error: Python 3.12 or newer is needed (pyodide-build 0.39 requires it)."; \
	  echo "       Install python3.12 (or 3.13) and put it on PATH, or run: make PYTHON=/path/to/python3.12 ..."; \
	  exit 1; fi
	@echo "using $(PYTHON) for $(VENV)"
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -e '.[doc,test]'
	touch $@

node_modules/.stamp: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

# The wheel the browser loads holds tafl_rules alone: it is built from a copy of the package and
# pyproject.toml, where the Sphinx extension's folder (docs/_ext) is absent. The extension refuses
# any other wheel when it installs the runtime (tafl_sphinx.runtime.check_browser_wheel). The
# people-like player's model is left out of it: the site serves it apart (in _models/), and a board's
# worker fetches it when the player is chosen.
WHEEL_SRC := build/browser-wheel
$(WHEEL_STAMP): $(VENV)/.stamp $(PACKAGE_SOURCES) pyproject.toml README.md
	rm -rf dist build
	mkdir -p $(WHEEL_SRC)
	tar cf - --exclude=__pycache__ --exclude=people-model.json pyproject.toml README.md tafl_rules | tar xf - -C $(WHEEL_SRC)
	$(VPY) -m build --wheel --no-isolation --outdir dist $(WHEEL_SRC) >/dev/null
	touch $@

setup: $(VENV)/.stamp node_modules/.stamp $(WHEEL_STAMP)

$(BUILD)/.stamp: $(VENV)/.stamp node_modules/.stamp $(WHEEL_STAMP) $(SITE_SOURCES)
	@# Pages are rebuilt incrementally; a change to code or data that pages are drawn from rebuilds all.
	@fresh=-E; if [ -f $@ ] && [ -z "$$(find conf.py docs/_ext docs/data _static _templates tafl_rules -type f -newer $@ 2>/dev/null | head -n 1)" ]; then fresh=; fi; \
	empty=; if [ ! -e $(BUILD) ]; then empty=yes; fi; \
	rm -f $@ $(SCRATCH_MARK); \
	for lang in $(TRANSLATIONS); do echo "sphinx-build -W $$fresh -b html -D language=$$lang . $(BUILD)/$$lang"; \
	  $(VPY) -m sphinx -W --keep-going -q $$fresh -b html -D language=$$lang . $(BUILD)/$$lang || exit 1; done; \
	echo "sphinx-build -W $$fresh -b html . $(BUILD)"; \
	$(VPY) -m sphinx -W --keep-going -q $$fresh -b html . $(BUILD) && \
	if [ -n "$$empty" ]; then touch $(SCRATCH_MARK); fi
	touch $@

site: $(BUILD)/.stamp

# The site's home page is at the address printed; `make serve PREFIX=/tawlbwrdd/` serves it under a
# sub-path, as a static host would (the build itself works at any path).
serve: site
	@echo "Ctrl-C stops the server"
	$(VPY) -m tafl_sphinx.serve --host $(HOST) --port $(PORT) --prefix $(PREFIX) $(BUILD)

chromium:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "error: the browser tests need Debian's chromium at /usr/bin/chromium."; \
	  echo "       Install it as root:  apt-get update && apt-get install -y chromium"; \
	  exit 1; fi

test: site chromium
	$(VPY) -m pytest -q -n auto  # one pytest worker per core (pytest-xdist)

# The catalogues of the pages translated so far (those with a .po in locale/<code>/LC_MESSAGES)
# brought up to date with the pages: a new message comes in empty, a changed one marked fuzzy with
# the old translation, for a translator to check. locale/<code>/LC_MESSAGES/sphinx.po (the theme's
# and the site's own words) is kept by hand. `sphinx-intl stat -l cy` counts what is left to do.
locale: setup
	rm -rf _build/gettext _build/gettext-pages
	$(VPY) -m sphinx -q -b gettext . _build/gettext
	for lang in $(TRANSLATIONS); do rm -rf _build/gettext-pages; \
	  for po in $$(cd locale/$$lang/LC_MESSAGES && find . -name '*.po' ! -name sphinx.po ! -name booktheme.po); do \
	    mkdir -p _build/gettext-pages/$$(dirname $$po) && cp _build/gettext/$${po%.po}.pot _build/gettext-pages/$${po%.po}.pot || exit 1; done; \
	  $(VPY) -m sphinx_intl update -p _build/gettext-pages -l $$lang -d locale -w 0 || exit 1; done

# Mutation testing of the rules (engine, modes, OTN, web API, game): not part of `make test`; about an
# hour on an idle 2-core machine. It resumes where it stopped; the report is tests/mutation/report.md.
mutants: setup
	$(VPY) -m pip install --quiet -e '.[mutation]'
	nice -n 15 $(VPY) tests/mutation/run.py

bench: setup
	$(VPY) benchmarks/bench_engine.py
	$(VPY) benchmarks/bench_board.py

clean:
	rm -rf _build dist build .stamps
