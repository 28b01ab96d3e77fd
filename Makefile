# Set-up and main tasks. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench clean

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

lint: setup
	$(BIN)/ruff check pyterrier_rag_axioms tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache
