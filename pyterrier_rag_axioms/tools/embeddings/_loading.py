"""Loading a model without the libraries' progress bars and notes reaching the caller's terminal."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def quiet_loading() -> Iterator[None]:
    """Silence transformers' progress bars and notes while a model loads; restore them after."""
    from transformers.utils import logging as transformers_logging

    bars, level = transformers_logging.is_progress_bar_enabled(), transformers_logging.get_verbosity()
    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    try:
        yield
    finally:
        transformers_logging.set_verbosity(level)
        if bars:
            transformers_logging.enable_progress_bar()
