"""One shared instance per tool configuration, pickled as that configuration.

A tool (a spaCy analyzer, an embedding model, a LanguageTool client, an argument tagger) loads
slowly and keeps caches, so all axioms of a process share one instance per configuration. A tool
pickles as its configuration alone (e.g. for ``.parallel(N)``) and unpickles as the receiving
process's shared instance of that configuration.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="SharedTool")

_instances: dict[tuple[Any, ...], SharedTool] = {}


class SharedTool:
    """Base of the tools shared per configuration.

    A subclass names in :attr:`configuration` the constructor arguments (keywords, stored under
    their own names, hashable once stored) that make a configuration; its constructor must be
    cheap (loading happens on first use).
    """

    #: The constructor arguments that make a configuration.
    configuration: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def shared(cls: type[T], **arguments: Any) -> T:
        """The process-wide instance of the configuration these arguments make (built on first request)."""
        candidate = cls(**arguments)
        return _instances.setdefault((cls, *candidate.configuration_key()), candidate)  # type: ignore[return-value]

    def configuration_key(self) -> tuple[Any, ...]:
        """The stored values of :attr:`configuration`."""
        return tuple(getattr(self, name) for name in self.configuration)

    def __repr__(self) -> str:
        """``Tool(first=..., other=...)``: the first configuration argument always, the others where
        they differ from their defaults, so that two configurations never look alike."""
        defaults = {
            name: parameter.default for name, parameter in inspect.signature(type(self)).parameters.items()
        }
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
