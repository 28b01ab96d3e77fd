"""The correctness axioms (CORR1-CORR5): citations, references and the opening sentence, on obvious cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import prefer, value

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.axioms.correctness import REFERENCE_PATTERN
from pyterrier_rag_axioms.tools.text import TextAnalyzer


@pytest.mark.parametrize("citation", ["[1]", "[0,1,2]", "[1-3]", "[1][2]", "[1, 2]"])
def test_corr1_counts_every_citation_format(citation):
    cited = f"Water boils at 100 degrees {citation}. It freezes at zero degrees {citation}."
    uncited = f"Water boils at 100 degrees {citation}. It freezes at zero degrees."
    assert prefer(pra.CORR1(), cited, uncited) == 1.0
    assert prefer(pra.CORR1(), uncited, cited) == -1.0


def test_citation_only_sentences_join_the_previous_sentence():
    analysis = TextAnalyzer().analyse(["Water boils at 100 degrees [1]. It freezes [2][3]. Ice floats [0, 1]."])[0]
    assert analysis.sentence_texts == ["Water boils at 100 degrees [1].", "It freezes [2][3].", "Ice floats [0, 1]."]
    values = pra.CORR1().values(pd.DataFrame({"qid": ["q"], "query": ["x"], "response": [analysis.doc.text]}))
    assert values["CORR1_value"].iloc[0] == 1.0
    exclaiming = TextAnalyzer().analyse(["Boiling water is hot [0]! Is ice cold [1]? It is."])[0]
    assert exclaiming.sentence_texts == ["Boiling water is hot [0]!", "Is ice cold [1]?", "It is."]


PASSAGES = [
    "Rayleigh scattering of sunlight by air molecules makes the sky appear blue.",
    "The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
]



def test_corr2_prefers_citations_the_cited_passage_supports():
    supported = "The sky appears blue because air molecules scatter sunlight [0]."
    unsupported = "The sky appears blue because the ocean reflects it [1]."
    assert prefer(pra.CORR2(), supported, unsupported, context=PASSAGES) == 1.0
    assert value(pra.CORR2(), "The tower was completed in 1889 [1].", context=PASSAGES) == 1.0
    assert np.isnan(value(pra.CORR2(), "No citation here.", context=PASSAGES))
    assert np.isnan(value(pra.CORR2(), supported))  # no context


def test_corr3_prefers_citations_of_passages_that_exist():
    assert prefer(pra.CORR3(), "Blue sky [0]. Tower [1].", "Blue sky [0]. Tower [7].", context=PASSAGES) == 1.0
    assert value(pra.CORR3(), "Blue sky [0-3].", context=PASSAGES) == 0.5
    assert value(pra.CORR3(first_index=1), "Blue sky [1]. Tower [2].", context=PASSAGES) == 1.0
    assert np.isnan(value(pra.CORR3(), "No citations.", context=PASSAGES))
    with pytest.raises(ValueError, match="first_index"):
        pra.CORR3(first_index=-1)


@pytest.mark.parametrize(
    "reference",
    ["(see https://example.org/sky)", "(Source: NASA)", "[Source 2]", "[^1]", "\u00b9", "(Smith et al., 2020)",
     "[3]", "www.nasa.gov/sky"],
)
def test_corr4_recognises_references_in_other_formats(reference):
    assert REFERENCE_PATTERN.search(f"The sky is blue {reference}.")
    assert not REFERENCE_PATTERN.search("The sky is blue (mostly) since 2020 [citation needed].")


def test_corr4_prefers_more_sentences_with_a_reference():
    cited = "The sky is blue, see https://example.org/sky for details. It scatters light."
    assert value(pra.CORR4(), cited) == 0.5
    assert prefer(pra.CORR4(), cited, "The sky is blue. It scatters light.") == 1.0


def test_corr5_prefers_the_response_that_opens_with_the_answer():
    query = "Why is the sky blue?"
    direct = "The sky is blue because air molecules scatter blue sunlight more than red. Paris is in France."
    indirect = "Paris is in France. The sky is blue because air molecules scatter blue sunlight more than red."
    assert value(pra.CORR5(), direct, query=query) > value(pra.CORR5(), indirect, query=query) + 0.3
    assert prefer(pra.CORR5(), direct, indirect, query=query) == 1.0
    # only the opening counts: what follows it changes nothing
    assert value(pra.CORR5(), direct, query=query) == pytest.approx(
        value(pra.CORR5(), direct.split(". ")[0] + ".", query=query), abs=1e-6
    )
    assert np.isnan(value(pra.CORR5(), "", query=query))
