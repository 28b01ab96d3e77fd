"""One shared instance per tool configuration, pickled as that configuration.

A tool (a spaCy analyzer, an embedding model, a LanguageTool client, an argument tagger) loads
slowly and keeps caches, so all axioms of a process share one instance per configuration. A tool
pickles as its configuration alone (e.g. for ``.parallel(N)``) and unpickles as the receiving
process's shared instance of that configuration.
"""

from __future__ import annotations

import inspect
from typing import Any, TypeVar

from pyterrier_rag_axioms.declaration import configuration_of, declared_repr, is_declared

T = TypeVar("T", bound="SharedTool")

_instances: dict[tuple[Any, ...], SharedTool] = {}


class _Configuration:
    """The ``configuration`` of a tool class: its declared parameters but the hidden ones (computed once per class)."""

    def __init__(self) -> None:
        self._of: dict[type, tuple[str, ...]] = {}

    def __get__(self, instance: object, owner: type) -> tuple[str, ...]:
        if owner not in self._of:
            self._of[owner] = configuration_of(owner)
        return self._of[owner]


class SharedTool:
    """Base of the tools shared per configuration.

    A subclass declares its constructor parameters (:func:`~pyterrier_rag_axioms.declaration.parameters`,
    checks included); those not ``hidden`` make its configuration (stored values hashable), in
    order, and its ``repr`` is the declared one (the first parameter is declared ``always_shown``).
    Its constructor must be cheap (loading happens on first use; caches start in ``__post_init__``).

    A subclass not declared yet names :attr:`configuration` itself (keywords of its own ``__init__``,
    stored under their own names) and gets a ``repr`` of the first of them and the others that differ
    from their defaults.
    """

    #: The constructor arguments that make a configuration (derived from the declaration).
    configuration = _Configuration()

    @classmethod
    def shared(cls: type[T], **arguments: Any) -> T:
        """The process-wide instance of the configuration these arguments make (built on first request)."""
        candidate = cls(**arguments)
        return _instances.setdefault((cls, *candidate.configuration_key()), candidate)  # type: ignore[return-value]

    def configuration_key(self) -> tuple[Any, ...]:
        """The stored values of :attr:`configuration`."""
        return tuple(getattr(self, name) for name in self.configuration)

    def __repr__(self) -> str:
        """The declared ``repr`` (see :func:`~pyterrier_rag_axioms.declaration.declared_repr`); for a tool
        not declared yet, ``Tool(first=..., other=...)``: the first configuration argument always, the
        others where they differ from their defaults, so that two configurations never look alike."""
        if is_declared(type(self)):
            return declared_repr(self)
        defaults = {name: parameter.default for name, parameter in inspect.signature(type(self)).parameters.items()}
        shown = [
            f"{name}={value!r}"
            for position, (name, value) in enumerate(zip(self.configuration, self.configuration_key()))
            if position == 0 or value != defaults.get(name, inspect.Parameter.empty)
        ]
        return f"{type(self).__name__}({', '.join(shown)})"

    def __reduce__(self):
        """Pickled as its configuration; unpickled as the shared instance of that configuration."""
        return _unpickle_shared, (type(self), dict(zip(self.configuration, self.configuration_key())))


def _unpickle_shared(cls: type[T], configuration: dict[str, Any]) -> T:
    return cls.shared(**configuration)
