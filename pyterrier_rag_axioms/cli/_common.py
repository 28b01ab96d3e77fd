"""What both subcommands of ``rag-axioms`` share: the shipped sample, building axioms by name, text shortening."""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable

#: The sample shipped inside the package (``data/sample/responses.jsonl`` is its readable copy).
SAMPLE: Traversable = files("pyterrier_rag_axioms") / "sample" / "responses.jsonl"

#: The sample as a path on disk, the default input of both subcommands.
SAMPLE_PATH = str(SAMPLE)


def build_axioms(
    names: Sequence[str], *, languagetool_url: str | None, aspects: str, verbose: bool, program: str = "rag-axioms"
) -> list:
    """Instantiate axioms of the registry by short name (case-insensitive), passing the options each one takes."""
    from pyterrier_rag_axioms.registry import axiom_class

    axioms = []
    for name in names:
        try:
            cls = axiom_class(name)
        except KeyError as error:
            raise SystemExit(f"{program}: {error.args[0]}") from None
        options: dict[str, object] = {"verbose": verbose}
        parameters = inspect.signature(cls).parameters
        if "remote_server" in parameters:
            options["remote_server"] = languagetool_url
        if "aspects" in parameters:
            options["aspects"] = aspects
        axioms.append(cls(**options))
    return axioms


def quiet_model_loading() -> None:
    """Hide the progress bars that model libraries print while loading weights."""
    try:
        from transformers.utils import logging as transformers_logging
    except ImportError:
        return
    transformers_logging.disable_progress_bar()


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters."""
    return textwrap.shorten(" ".join(text.split()), width=width, placeholder=" ...")
