# Two commands for a fresh machine: `make run` and `make test`.
# Both set up everything first: system packages (apt-get, when root), a .venv,
# and this package installed editable with its test tools (Playwright among
# them; its browser is Debian's chromium, never a download).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
APT_PACKAGES := tesseract-ocr chromium

.PHONY: run test setup system-packages bench clean

# the table web app, served to this computer's network over HTTPS: tablets and
# phones join by the address (or QR code) it prints and shows on this computer's
# home page, and HTTPS lets their browsers use the camera; other devices type
# the table code it prints before changing anything (Ctrl+C stops it).
# `make run SERVE=` serves this computer only, over plain HTTP.
SERVE ?= --host 0.0.0.0 --https
run: setup
	$(VENV)/bin/mamma-mia serve $(SERVE)

test: setup
	$(PY) -m pytest

bench: setup
	$(PY) -m tools.bench.engine_bench

setup: system-packages $(STAMP)

# Installs what is missing with apt-get when running as root; otherwise says
# in one line what to install and stops.
system-packages:
	@missing=""; \
	command -v tesseract >/dev/null 2>&1 || missing="$$missing tesseract-ocr"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	$(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing system packages:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "Please run: sudo apt-get install -y$$missing   (then run make again)"; exit 1; \
	  fi; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
