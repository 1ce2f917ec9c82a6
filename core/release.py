"""What this code is: a digest of the source, templates and static files it serves from, the same on every machine
that runs the same code. The answers kept in the shared cache (cards.selectors.answer_get: pages, their parts and API
answers, kept up to DECK_PAGE_CACHE_SECONDS and SEARCH_CACHE_SECONDS) carry it in their keys, so that a page
rendered by the code before a deploy is never served by the code after it, nor the other way round while both run."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What shapes an answer: the apps' code, the templates, and the static files whose addresses a page carries.
SERVED_FROM = ("cards", "config", "core", "decks", "dreaddraw", "playtest", "templates", "static")
SUFFIXES = frozenset({".py", ".html", ".txt", ".js", ".css", ".svg", ".json", ".md"})


@functools.cache
def code_release() -> str:
    """The digest, read once per process (some 360 files, a few milliseconds)."""
    digest = hashlib.sha256()
    for folder in SERVED_FROM:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
