# repo-digest: `make html` builds the site from the bundled sample; `make test` runs the tests.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PELICAN := $(BIN)/pelican
INPUTDIR := content
OUTPUTDIR := output
CONFFILE := pelicanconf.py
PUBLISHCONF := publishconf.py
PORT ?= 8000
# The search index (Pagefind, settings in pagefind.yml) over a built site: `$(SEARCH_INDEX) FOLDER`.
SEARCH_INDEX = "$(BIN)/python" -m pagefind --quiet --site
# Runtime extras for the build, for example EXTRAS=llm (the language-model writer); the test tools
# are not among them: `make test` adds the test extra.
EXTRAS ?=
GITHUB_PAGES_BRANCH ?= gh-pages

.PHONY: help install html serve devserver publish github constraints typecheck test test-fast test-oldest-pelican bench golden sample clean

help:
	@echo "make html       build the site into $(OUTPUTDIR)/ (creates $(VENV) on first use)"
	@echo "make test       type-check digest_plugin/, then run the test suite"
	@echo "make test-fast  run the tests of the pure stages and the project's own checks (under a minute)"
	@echo "make test-oldest-pelican  run tests/site and tests/stages on the oldest Pelican pyproject.toml allows"
	@echo "make serve      serve $(OUTPUTDIR)/ on http://127.0.0.1:$(PORT)"
	@echo "make devserver  rebuild on every change (the store's too) and serve"
	@echo "make publish    build for deployment: SITEURL=https://USER.github.io/SITE make publish"
	@echo "make github     publish, then push $(OUTPUTDIR)/ to the $(GITHUB_PAGES_BRANCH) branch (ghp-import)"
	@echo "make golden     rewrite the golden reports under tests/golden/ (needs ../shared/data)"
	@echo "make sample     regenerate the bundled sample store under data/"

install: $(VENV)/.installed

# What a build needs, and no more. setup.py compiles the translation catalogues on install: a
# changed .po reinstalls.
$(VENV)/.installed: pyproject.toml setup.py $(wildcard digest_plugin/locale/*/LC_MESSAGES/*.po)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.$(if $(EXTRAS),[$(EXTRAS)])'
	touch $@

# The test tools (pytest, Playwright, ruff, ...) on top of the build's packages, for `make test`
# and `make bench`; again after every reinstall of the runtime.
$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Build into a fresh folder and swap it in only when the build succeeded, so a failed build
# (bad settings, corrupt data) leaves the previous site as it was; a second build waits for the
# first (digest_plugin/build/locked_output.py) for at most LOCK_WAIT seconds (default 1800), then stops.
# Every path is quoted: OUTPUTDIR="my site" is one folder.
html: install
	"$(BIN)/python" -m digest_plugin.build.locked_output "$(OUTPUTDIR)" --wait "$(LOCK_WAIT)" -- "$(PELICAN)" "$(INPUTDIR)" -s "$(CONFFILE)" --then $(SEARCH_INDEX)

publish: install
	"$(BIN)/python" -m digest_plugin.build.locked_output "$(OUTPUTDIR)" --wait "$(LOCK_WAIT)" -- "$(PELICAN)" "$(INPUTDIR)" -s "$(PUBLISHCONF)" --then $(SEARCH_INDEX)

# The branch-based alternative to the Pages workflow: Pages serves the $(GITHUB_PAGES_BRANCH) branch.
github: publish
	test -x $(BIN)/ghp-import || $(BIN)/python -m pip install --quiet -e '.[github]'
	$(BIN)/ghp-import --no-jekyll --push --message "Publish the digest" --branch $(GITHUB_PAGES_BRANCH) $(OUTPUTDIR)

# The versions the workflows install (PIP_CONSTRAINT): regenerate after changing dependencies.
constraints: $(VENV)/.installed-test
	$(BIN)/python -m pip freeze --exclude-editable --local > constraints.txt

# Pelican's server, answering a missing address with the site's 404 page (digest_plugin/publish/serve.py).
serve: install
	"$(BIN)/python" -m digest_plugin.publish.serve "$(OUTPUTDIR)" --bind 127.0.0.1 --port "$(PORT)"

# Pelican's --autoreload and --listen, watching the store too (digest_plugin/publish/devserver.py).
devserver: install
	"$(BIN)/python" -m digest_plugin.publish.devserver "$(INPUTDIR)" -o "$(OUTPUTDIR)" -s "$(CONFFILE)" --bind 127.0.0.1 --port "$(PORT)"

# The type checker over digest_plugin/ (settings in pyproject.toml, [tool.mypy]), before the tests.
typecheck: $(VENV)/.installed-test
	$(BIN)/python -m mypy

test: typecheck
	$(BIN)/python -m pytest -n auto

# The tiers a change to a stage needs first: the pure stages on hand-made records, and the checks
# on the project itself (layers, lint, complexity); docs/development.md, "Tests", lists every tier.
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto -m "not realdata" tests/stages tests/project

# The oldest Pelican that pyproject.toml allows, in a virtual environment of its own, with the
# other versions of constraints.txt; `make test` runs on the newest (the pinned set).
OLDEST_PELICAN := 4.9.0
OLDEST_VENV := .venv-oldest-pelican
$(OLDEST_VENV)/.installed: pyproject.toml setup.py constraints.txt
	test -x $(OLDEST_VENV)/bin/python || $(PY) -m venv $(OLDEST_VENV)
	grep -v -i '^pelican==' constraints.txt > $(OLDEST_VENV)/constraints.txt
	PIP_CONSTRAINT=$(OLDEST_VENV)/constraints.txt $(OLDEST_VENV)/bin/python -m pip install --quiet -e '.[test]' 'pelican==$(OLDEST_PELICAN)'
	touch $@

# The builds (tests/site; not the fresh install of test_any_theme.py, which takes the pinned set,
# nor the workflows) and the stages, on that Pelican.
test-oldest-pelican: $(OLDEST_VENV)/.installed
	$(OLDEST_VENV)/bin/python -m pytest -n auto -m "not realdata" tests/site tests/stages \
		--ignore=tests/site/test_any_theme.py --ignore=tests/site/test_workflows.py

bench: $(VENV)/.installed-test
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

# The golden reports (tests/golden/): real weeks as the code words them, compared by
# tests/realdata/test_golden_reports.py; rewrite them when a change of the words is intended.
golden: install
	$(BIN)/python -m tests.golden_reports --update

sample: install
	$(BIN)/repo-digest sample

clean:
	rm -rf "$(OUTPUTDIR)" "$(OUTPUTDIR).new" "$(OUTPUTDIR).lock" cache
