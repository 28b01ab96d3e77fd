"""pyterrier-rag-axioms, the public face: every axiom under its short and long name, the combinators,
rankers, PreferenceModel and pipelines. Not here: loaders, statistics, plots and tools (their subpackages)."""

from pyterrier_rag_axioms import (  # noqa: F401  (reachable as attributes, not star-imported)
    axioms,
    evaluation,
    frames,
    grounding,
    io,
    judgments,
    nuggets,
    pipelines,
    preference,
    registry,
    reranking,
    runtime,
    support,
    tools,
)
from pyterrier_rag_axioms.aggregation import Cascade, Combinator, Conjunction, MajorityVote, WeightedSum
from pyterrier_rag_axioms.axioms import AXIOM_NAMES as _AXIOM_NAMES
from pyterrier_rag_axioms.axioms import Axiom, FeatureAxiom, compare_with_margin
from pyterrier_rag_axioms.evaluation import agreement
from pyterrier_rag_axioms.frames import preference_frame, response_frame
from pyterrier_rag_axioms.grounding import Faithfulness
from pyterrier_rag_axioms.nuggets import NuggetExtractor
from pyterrier_rag_axioms.pipelines import BestOfN, MultiGenerator, SamplingReader
from pyterrier_rag_axioms.preference import PreferenceModel
from pyterrier_rag_axioms.registry import EXTRA_AXIOMS, GEN_AXIOMS, RAG_AXIOMS
from pyterrier_rag_axioms.reranking import AxiomaticReranker, KwikSort, PreferenceCountReranker
from pyterrier_rag_axioms.tools import TargerTagger

globals().update(_AXIOM_NAMES)  # every axiom, under its short and its long name

__version__ = "0.1.0"

__all__ = [
    *_AXIOM_NAMES,
    # at most 15 names that are neither axioms nor transformers; everything else is in its subpackage
    "Axiom", "FeatureAxiom", "compare_with_margin", "response_frame", "preference_frame", "RAG_AXIOMS",
    "EXTRA_AXIOMS", "GEN_AXIOMS", "agreement", "TargerTagger",
    # combinators, rankers, the fitted model and the pyterrier-rag transformers
    "Cascade", "Combinator", "Conjunction", "MajorityVote", "WeightedSum",
    "AxiomaticReranker", "KwikSort", "PreferenceCountReranker", "PreferenceModel",
    "BestOfN", "MultiGenerator", "SamplingReader", "NuggetExtractor", "Faithfulness",
    # not the subpackages: a star import binds no module name (``io`` would hide the standard library's)
]
