"""The installed versions of the libraries behind a derived value: part of the keys of what is kept on disk."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable


def installed_versions(packages: Iterable[str]) -> dict[str, str | None]:
    """The installed version of each package (``None`` where one is missing), in the order given."""
    versions: dict[str, str | None] = {}
    for package in packages:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    return versions
