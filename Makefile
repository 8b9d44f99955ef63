# Matika — the two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-lock
TSC := tools/js/node_modules/.bin/tsc

.PHONY: run test install lint format lock messages translations jstest clean-data image images container-test

## requirements/prod.lock is what the image installs; dev.lock adds the tools and test services.
$(STAMP): requirements/prod.lock requirements/dev.lock
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements/prod.lock -r requirements/dev.lock
	@touch $(STAMP)

install: $(STAMP)

## The JS type checker (TypeScript, pinned in tools/js/package-lock.json), local to tools/js.
$(TSC): tools/js/package.json tools/js/package-lock.json
	npm ci --prefix tools/js --no-audit --no-fund --loglevel=error
	@touch $(TSC)

messages: install
	@$(PY) -m tools.compilemessages

## Start PostgreSQL, Redis, migrations, demo data, web + worker + beat (Ctrl-C stops all).
run: install messages
	$(PY) -m tools.devservices run

## Lint, JS tests, then the whole Python suite against throwaway PostgreSQL and Redis,
## with branch coverage (tests/coverage_scope.py: which tests are traced) reported at
## the end; the whole suite fails under the floor in pyproject.toml, a part of it
## (PYTEST_ARGS) is reported without the floor.
## TEST_WORKERS=2 runs the tests in two pytest-xdist workers, a test file each at a
## time; every worker has its own test database, Redis database, servers and browser
## (docs/testing.md, "Fifth pass"); the default stays one process.
TEST_WORKERS ?= 0
test: install messages lint jstest
	@tests/tools/ensure_chromium.sh
	@rm -f .coverage .coverage.*
	COVERAGE_PROCESS_START=$(CURDIR)/pyproject.toml COVERAGE_FILE=$(CURDIR)/.coverage \
	  $(PY) -m tools.devservices test -p tests.coverage_scope \
	  $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder) $(PYTEST_ARGS)
	@$(PY) -m coverage combine --quiet
	$(PY) -m coverage report $(if $(PYTEST_ARGS),--fail-under=0)

lint: install $(TSC)
	@test ! -e platform/__init__.py || { echo "platform/__init__.py must not exist: a package named platform shadows the standard library" >&2; exit 1; }
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m tools.protocol_schema --check
	$(PY) -m tools.jsconfig --check
	$(TSC) -p jsconfig.json

jstest:
	@if [ -d tests/js ]; then node --test tests/js/; fi

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## Re-pin dependencies after editing requirements/prod.in or dev.in: the production
## set first, then the tools constrained by it (dev.lock holds only what prod.lock lacks).
## Today's versions stay (the old locks are constraints) unless an .in file needs another;
## `make lock LOCK_UPGRADE=1` takes the newest versions the .in files allow. Hashes of
## unchanged pins are kept: only new or moved pins are downloaded and hashed.
LOCK_PINS = $(if $(LOCK_UPGRADE),,-c .lock-venv/pins.txt)
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv && mkdir .lock-venv/old
	cp requirements/prod.lock requirements/dev.lock .lock-venv/old/
	.lock-venv/bin/python tests/tools/hash_lock.py --pins .lock-venv/old/prod.lock .lock-venv/old/dev.lock > .lock-venv/pins.txt
	.lock-venv/bin/pip install --quiet -r requirements/prod.in $(LOCK_PINS)
	.lock-venv/bin/pip freeze --exclude-editable | grep -v -E '^(pip|setuptools|wheel)==' > requirements/prod.lock
	.lock-venv/bin/pip install --quiet -r requirements/dev.in -c requirements/prod.lock $(LOCK_PINS)
	.lock-venv/bin/pip freeze --exclude-editable | grep -v -E '^(pip|setuptools|wheel)==' \
	  | grep -v -x -F -f requirements/prod.lock > requirements/dev.lock
	.lock-venv/bin/python tests/tools/hash_lock.py requirements/prod.lock --known .lock-venv/old/prod.lock --known .lock-venv/old/dev.lock
	.lock-venv/bin/python tests/tools/hash_lock.py requirements/dev.lock --known .lock-venv/old/dev.lock --known .lock-venv/old/prod.lock
	rm -rf .lock-venv

## The production image with podman, from a local Debian base (no registry needed; root;
## apt-get install podman buildah debootstrap runc): localhost/matika:<version>.
## `images` adds PgBouncer, PostgreSQL, Redis, nginx and Prometheus for compose.
## docs/operations.md "Building the image".
image:
	nice -n 10 platform/podman/images.sh app

images:
	nice -n 10 platform/podman/images.sh all

## The container checks (not part of `make test`; .ci/run runs them after it): the images,
## `podman kube play` of the web Deployment answering /readyz, compose.scale.yaml under
## podman-compose with three Redis failovers through nginx and the web containers
## restarted behind it (tests/containers/). Root; installs podman.
container-test: install messages
	tests/tools/ensure_podman.sh
	nice -n 10 platform/podman/images.sh all
	MATIKA_CONTAINER_TESTS=1 nice -n 10 $(PY) -m tools.devservices test tests/containers -q -rA $(PYTEST_ARGS)

## Extract strings into locale/*/LC_MESSAGES/django.po (needs GNU gettext).
translations: install
	$(PY) manage.py makemessages --locale cs --locale sk --locale en --ignore '.venv/*' --ignore 'tests/*' --ignore 'bench/*' --ignore 'staticfiles/*' --ignore 'tools/js/node_modules/*' --no-obsolete
	$(PY) manage.py makemessages --domain djangojs --locale cs --locale sk --locale en --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'tools/js/node_modules/*' --ignore 'node_modules/*' --no-obsolete
	$(PY) -m tools.mergetranslations

clean-data:
	rm -rf .data
