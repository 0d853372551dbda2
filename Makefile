# The two commands a fresh machine needs: `make run` (one night on the embedded default) and `make test`.
VENV   ?= .venv
PYTHON ?= python3
export DO_NOT_TRACK := 1
export PREFECT_SERVER_ANALYTICS_ENABLED := false

.PHONY: run test lint setup system-packages clean

run: setup
	$(VENV)/bin/nightshift run experiments/default.yaml

test: setup
	$(VENV)/bin/python -m pytest -q

lint: setup
	$(VENV)/bin/ruff check .

setup: system-packages $(VENV)/.installed

# bubblewrap is the sandbox of the embedded default, python3-seccomp compiles its syscall filter (for the
# system python, /usr/bin/python3: sandbox/seccomp_compile.py runs there), redis-server is the fleet quota store
# the tests start, postgresql (with redis-server) the production Prefect server's; installed from Debian when
# missing (root)
system-packages:
	@command -v bwrap >/dev/null && /usr/bin/python3 -c "import seccomp" 2>/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap python3-seccomp; }
	@command -v redis-server >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e ".[dev,production,docker-pool]"
	touch $@

clean:
	rm -rf runs .nightshift
