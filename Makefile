# Every target creates and uses .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# what the demo needs (the CLI and the local cloud), and what the
# maintainers' targets need on top (tests, lint)
DEMO_STAMP := $(VENV)/.installed-demo
DEV_STAMP := $(VENV)/.installed-dev
LINTED := occli tests benchmarks examples
# the checkout on sys.path (a .pth line), not setuptools' editable finder,
# which Python asks only after its path search: with it a script saved
# beside a clone named occli imports the clone folder as an empty
# namespace package
EDITABLE := --config-settings editable_mode=compat

.PHONY: venv demo test unit functional fidelity lint format bench docs clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(DEMO_STAMP): setup.cfg pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet $(EDITABLE) -e '.[localcloud]'
	touch $@

$(DEV_STAMP): setup.cfg pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet $(EDITABLE) -e '.[localcloud,test,lint,docs]'
	touch $(DEMO_STAMP) $@

venv: $(DEV_STAMP)

demo: $(DEMO_STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" bash examples/demo.sh

test: $(DEV_STAMP)
	$(BIN)/python -m pytest -q

unit: $(DEV_STAMP)
	$(BIN)/python -m pytest -q tests/unit

functional: $(DEV_STAMP)
	$(BIN)/python -m pytest -q tests/functional

# differential tests against the real Keystone + Nova (and Neutron,
# Cinder, Glance) on 127.0.0.1 (../shared/realcloud/start.sh); each
# service's tests are skipped without it
fidelity: $(DEV_STAMP)
	$(BIN)/python -m pytest -q tests/fidelity

lint: $(DEV_STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

format: $(DEV_STAMP)
	$(BIN)/ruff check --fix $(LINTED)
	$(BIN)/ruff format $(LINTED)

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/run.py --peers

# HTML in doc/build/html, the manual page in doc/build/man/occli.1; any
# warning fails the build (after reporting them all)
docs: $(DEV_STAMP)
	$(BIN)/sphinx-build -W --keep-going -q -E -d doc/build/doctrees -b html doc/source doc/build/html
	$(BIN)/sphinx-build -W --keep-going -q -d doc/build/doctrees -b man doc/source doc/build/man

clean:
	rm -rf $(VENV) build *.egg-info
