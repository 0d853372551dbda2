# The two commands a fresh machine needs: `make run` (one night on the embedded default) and `make test`.
# Each set-up step prints one line with its duration; apt's and pip's own output goes to .nightshift/setup.log
# and is shown (its tail, with the fix) only when a step fails (scripts/step).
VENV   ?= .venv
PYTHON ?= python3
JOBS   ?= 3
STEP   := scripts/step
export DO_NOT_TRACK := 1
export PREFECT_SERVER_ANALYTICS_ENABLED := false

# bubblewrap is the sandbox of the embedded default; python3-seccomp compiles its syscall filter (for the system
# python, /usr/bin/python3: sandbox/seccomp_compile.py runs there)
RUN_PACKAGES := bubblewrap python3-seccomp
# what the tests use besides: debootstrap + e2fsprogs (the sandbox base image, per-sandbox disk quota), chromium
# (the browser tests: Playwright drives it), redis-server (the fleet quota store), postgresql (the production
# Prefect server, with redis-server; util-linux's runuser)
TEST_PACKAGES := $(RUN_PACKAGES) debootstrap e2fsprogs util-linux procps chromium redis-server postgresql

.PHONY: run test lint typecheck setup test-setup run-packages test-packages sandbox-image clean

EXPERIMENT ?= experiments/default.yaml

run: setup
	@$(VENV)/bin/nightshift run $(EXPERIMENT)

# tests run on $(JOBS) workers, a test file to a worker (its module fixtures are built once); no test asserts a
# wall-clock window (those claims are measured side by side by bench/timing_claims.py), so none runs alone
test: test-setup
	$(VENV)/bin/python -m pytest -q -n $(JOBS) --dist loadfile --no-loadscope-reorder --durations=25

lint: test-setup
	$(VENV)/bin/ruff check .

# mypy over the installed namespace (strict on nightshift/ and experiment/, basic elsewhere: [tool.mypy]);
# `make test` runs it too (tests/test_types.py). Incremental: a re-run reads .mypy_cache
typecheck: $(VENV)/.installed-dev
	$(VENV)/bin/python scripts/typecheck.py

setup: run-packages $(VENV)/.installed

test-setup: test-packages $(VENV)/.installed-dev sandbox-image

run-packages:
	@scripts/system-packages $(RUN_PACKAGES)

test-packages:
	@LABEL="system packages (tests)" scripts/system-packages $(TEST_PACKAGES)

# the pinned Debian base image both backends' tests run in (root, debootstrap; content-cached: a rebuild is skipped)
sandbox-image: $(VENV)/.installed-dev
	@if [ "$$(id -u)" -eq 0 ]; then $(STEP) "sandbox image" --fix "see the log; nightshift build-image builds it alone" \
	  -- $(VENV)/bin/python scripts/build_sandbox_image.py; \
	else echo "sandbox image: not built (needs root); the sandbox tests skip, or fail where required"; fi

$(VENV)/bin/python:
	@$(STEP) "virtualenv $(VENV)" --fix "$(PYTHON) -m venv needs Debian's python3-venv: apt-get install python3-venv" \
	  -- $(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	@$(STEP) "python packages" --fix "check the network to PyPI, then make setup again" \
	  -- sh -c '$(VENV)/bin/pip install -q --upgrade pip && $(VENV)/bin/pip install -q -e .'
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	@$(STEP) "python packages (tests)" --fix "check the network to PyPI, then make test again" \
	  -- sh -c '$(VENV)/bin/pip install -q --upgrade pip && $(VENV)/bin/pip install -q -e ".[dev,production,docker-pool]"'
	@touch $@ $(VENV)/.installed

clean:
	rm -rf runs .nightshift
