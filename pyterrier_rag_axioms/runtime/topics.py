"""The one split by topic: a frame's or a list's topics cut into groups of whole topics, in their order.

Every result of this package's transformers depends on its topic (``qid``) alone, so they split their
work by topic and by nothing else: the worker processes of :mod:`~pyterrier_rag_axioms.runtime.processes`
and the pyterrier-alpha workers of ``.parallel(N)`` both take runs of neighbouring topics of about equal
weight from :func:`topic_groups`, and put the results back together in the order of the topics.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pandas as pd


def topic_groups(topics: Sequence[Hashable], weights: Sequence[float], groups: int) -> list[list[Hashable]]:
    """``topics`` cut into at most ``groups`` runs of neighbouring topics of about equal weight, in their order."""
    total = float(sum(weights)) or 1.0
    cut: list[list[Hashable]] = [[]]
    cut_weight = 0.0
    for topic, weight in zip(topics, weights):
        if cut[-1] and cut_weight + weight / 2 > total / groups and len(cut) < groups:
            cut.append([])
            cut_weight = 0.0
        cut[-1].append(topic)
        cut_weight += weight
    return cut


def response_characters(responses: pd.DataFrame, topics: Sequence[Hashable]) -> list[int]:
    """The characters of each topic's distinct responses: an estimate of the topic's work."""
    characters = responses.groupby("qid", sort=False)["response"].agg(lambda texts: sum(map(len, set(texts))))
    return [int(characters.get(topic, 0)) for topic in topics]


def split_by_topic(frame: pd.DataFrame, parts: int) -> list[pd.DataFrame]:
    """``frame`` cut into at most ``parts`` frames of whole topics (by :func:`topic_groups`, each topic
    weighed by its rows), in qid order, each topic's rows in input order (as PyTerrier splits a result frame)."""
    by_topic = dict(list(frame.groupby("qid", sort=True)))
    topics = list(by_topic)
    groups = topic_groups(topics, [len(by_topic[topic]) for topic in topics], max(1, parts))
    return [pd.concat([by_topic[topic] for topic in group]) for group in groups]
