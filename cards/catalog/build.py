"""The whole Dreadgate catalog as plain data: authored cards, generated units, keywords, version.

Pure Python, so the rules engine and the benches can build the catalog without a database; the
loader (cards/catalog/loader.py) writes it to the database.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.keywords import KEYWORDS

from .authored import DREADGATE_FILE, load_authored
from .units import generate_units


@dataclass(frozen=True, slots=True)
class Catalog:
    version: str  # declared version + "+" + digest prefix
    digest: str  # sha256 of the canonical JSON of every card and keyword
    keywords: tuple[dict[str, str], ...]
    cards: tuple[dict[str, Any], ...]  # authored cards first, then the 8,100 units

    def by_number(self) -> dict[str, dict[str, Any]]:
        return {c["collector_number"]: c for c in self.cards}


def build_catalog(path: Path = DREADGATE_FILE) -> Catalog:
    declared, authored = load_authored(path)
    units = generate_units(reserved_names=[c["name"] for c in authored])
    keywords = tuple({"slug": k.slug, "name": k.name, "reminder": k.reminder} for k in KEYWORDS.values())
    cards = tuple(authored + units)
    digest = content_digest(keywords, cards)
    return Catalog(version=f"{declared}+{digest[:10]}", digest=digest, keywords=keywords, cards=cards)


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog of the shipped data file, built once per process (callers must not mutate it)."""
    return build_catalog()


def content_digest(keywords: tuple[dict[str, str], ...], cards: tuple[dict[str, Any], ...]) -> str:
    """A digest of everything the catalog holds, so a content change without a version bump still shows."""
    canonical = json.dumps({"keywords": keywords, "cards": cards}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
