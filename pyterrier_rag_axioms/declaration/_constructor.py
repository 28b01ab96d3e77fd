"""The one declaration of a configurable object's parameters, read by everything that needs them.

Decorate the class with :func:`parameters` and give each constructor parameter as an annotated class
attribute whose default is :func:`parameter`, with its role, choices, bounds and resolver::

    @parameters
    class Example(FeatureAxiom):
        #: How many words a sentence needs.
        min_words: int = parameter(3, whole=True, at_least=1)
        #: How terms are reduced (checked against the choices).
        stemmer: str = parameter("lemma", choices=("lemma", "porter"))
        #: The spaCy analyzer, a tool named by its model.
        analyzer: TextAnalyzer | str | None = parameter(None, role=TOOL, resolve=resolve_tool(resolve_text_analyzer))

Roles: :data:`VALUE` (changes what the object computes; in its value key and saved), :data:`DECISION` (how
values become a decision, e.g. a margin; saved), :data:`PRESENTATION` (the column name; progress bars,
``hidden``) and :data:`TOOL` (a model, analyzer or server: shown and saved by the name that resolves to it).
The declaration builds the constructor (a declared class writes no ``__init__``): positional, variadic
(``*members``), then keyword parameters; it takes a ``deprecated`` name with a warning, stores each argument
under its name, checks them all (choices, bounds, ``check``), resolves them (``resolve``) and calls
``__post_init__`` for derived state. ``repr`` (:func:`declared_repr`), copies (:func:`replaced`), files
(:func:`saved_arguments`), value keys (:func:`keyed_parameters`), :func:`check_arguments`, the command line
(``cli/_declared_option.py``) and the configuration of a shared tool (:func:`configuration_of`,
``tools/_shared.py``) read it.

The parts of the package: ``_fields`` (one parameter's declaration and how to read it), this module
(the constructor a declaration builds), ``_checks`` (choices, bounds, checks and the constructor's
argument errors), ``_comparison`` (``repr`` and comparison) and ``_saving`` (files and copies).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from pyterrier_rag_axioms.declaration._checks import deprecated_keywords, resolve_parameters, unaccepted_arguments
from pyterrier_rag_axioms.declaration._fields import REQUIRED, declared, label_of

T = TypeVar("T")

#: The attribute that marks a constructor built by a declaration.
_BUILT = "__declared_constructor__"


def parameters(cls: type[T] | None = None, /, *, frozen: bool = False, eq: bool = False) -> Any:
    """Declare a class's annotated attributes as its constructor parameters; the declaration builds the
    constructor (see the module). ``@parameters(frozen=True, eq=True)``
    declares a value object: its fields cannot be set after construction, and objects with equal
    fields are equal (and hash alike)."""

    def declare(cls: type[T]) -> type[T]:
        if "__init__" in cls.__dict__:
            raise TypeError(f"{cls.__name__}: a declared class takes its constructor from its declaration")
        cls = dataclasses.dataclass(kw_only=True, eq=eq, frozen=frozen, repr=False, init=False)(cls)
        cls.__init__ = _constructor(cls)  # type: ignore[misc]
        return cls

    return declare if cls is None else declare(cls)


def is_declared(cls: type) -> bool:
    """Whether a class's constructor is built by a declaration: its own, or an inherited one where the
    class adds no annotated attribute of its own (which only a declaration of its own would read)."""
    if not getattr(cls.__init__, _BUILT, False):
        return False
    fields = {field.name for field in dataclasses.fields(cls)}
    annotations = cls.__dict__.get("__annotations__", {})
    return all(name in fields or "ClassVar" in str(annotation) for name, annotation in annotations.items())


def _signature(cls: type) -> inspect.Signature:
    """The constructor's signature: ``self``, the positional parameters, ``*members``, then the keywords."""
    listed = []
    for field in declared(cls):
        kind, annotation = inspect.Parameter.KEYWORD_ONLY, field.type
        default = inspect.Parameter.empty if field.default is REQUIRED else field.default
        if field.metadata.get("variadic"):  # annotated with the type of one member
            kind, default = inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.empty
            annotation = str(annotation).removeprefix("tuple[").removesuffix(", ...]")
        elif field.metadata.get("positional"):
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        listed.append(inspect.Parameter(field.name, kind, default=default, annotation=annotation))
    listed.sort(key=lambda item: item.kind)  # positional, then variadic, then keyword-only (stable)
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    return inspect.Signature([self, *listed], return_annotation=None)


def _constructor(cls: type) -> Callable[..., None]:
    signature = _signature(cls)
    fields = declared(cls)
    # Keywords alone, all known and the required ones given (the common call), need no binding.
    defaults = {field.name: () if field.metadata.get("variadic") else field.default for field in fields}
    keywords_taken = {field.name for field in fields if not field.metadata.get("variadic")}
    required = {name for name in keywords_taken if defaults[name] is REQUIRED}
    aliases = {old: field.name for field in fields for old in field.metadata.get("deprecated", ())}

    def __init__(self: Any, *positional: Any, **keywords: Any) -> None:
        if not positional and required <= keywords.keys() <= keywords_taken:
            values = {**defaults, **keywords}
        else:
            if aliases and not aliases.keys().isdisjoint(keywords):
                keywords = deprecated_keywords(self, keywords, aliases)
            try:
                arguments = signature.bind(self, *positional, **keywords)
            except TypeError as error:
                reason = unaccepted_arguments(self, signature, positional, keywords)
                raise TypeError(reason or f"{label_of(self)}: {error}") from None
            arguments.apply_defaults()
            values = arguments.arguments
        for field in fields:
            value = values[field.name]
            object.__setattr__(self, field.name, tuple(value) if field.metadata.get("variadic") else value)
        resolve_parameters(self)
        if hasattr(self, "__post_init__"):
            self.__post_init__()

    __init__.__signature__ = signature  # type: ignore[attr-defined]
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(__init__, _BUILT, True)
    return __init__
