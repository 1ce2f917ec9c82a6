"""Benchmark: deck validation and deck-list import.

Figures (one JSON line each):
- validating a 60-card deck in memory (target under 1 ms);
- reading a 60-card text list: parse, resolve every card, copy limits (target 1,000 lists/s);
- the validate endpoint's work for a 60-card list: parse and every rule, as the API answers it;
- its worst case: a list of as many lines as a list may have, none of them a card, each answered with the closest
  names of the whole catalog (target under 1 s);
- importing a 60-card list into the database (parse, deck, entries, first revision): no target.

Sets itself up on a scratch SQLite database (migrate and load the catalog), so it needs nothing running.
Run from the repo root: `.venv/bin/python bench/decks.py`.
"""

from __future__ import annotations

import os
import platform
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import _common

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SCRATCH = tempfile.mkdtemp(prefix="bench-decks-")
os.environ["DATABASE_URL"] = f"sqlite:///{SCRATCH}/bench.sqlite3"
os.environ["DREADGATE_VAR_DIR"] = SCRATCH
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def emit(figure: str, value: float, unit: str, target: float | None, better: str, env: dict) -> None:
    _common.emit("decks", figure, value, unit, target, better, env, digits=4)


def random_decks(index, n: int, rng: random.Random):
    """Legal-sized 60-card decks of units, 4 copies each (what a typical list looks like)."""
    from decks.cardinfo import Entry

    units = sorted((c for c in index.by_id.values() if c.type == "unit" and not c.is_unique),
                   key=lambda c: c.collector_number)
    return [[Entry(card, 4) for card in rng.sample(units, 15)] for _ in range(n)]


def main() -> None:
    import io

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from decks.decklist import format_deck_list
    from decks.selectors import card_index
    from decks.services import deck_import, read_deck_list, validate_list
    from decks.validation import validate_deck

    call_command("migrate", verbosity=0)
    call_command("loadcatalog", stdout=io.StringIO())
    index = card_index()
    rng = random.Random(4)
    decks = random_decks(index, 200, rng)
    # Lists as players write them: by name, half of them by collector number, with section headers.
    texts = []
    for i, entries in enumerate(decks):
        text = format_deck_list(entries, gateway=index.gateway, name=f"Bench {i}", format="standard")
        if i % 2:
            for e in entries:
                text = text.replace(f"4 {e.card.name}\n", f"4 {e.card.collector_number}\n")
        texts.append(text)
    assert all(sum(e.count for e in d) == 60 for d in decks)
    env = {"python": platform.python_version(), "django": django.get_version(), "database": "sqlite",
           "cards": len(index), "cpus": os.cpu_count()}

    # 1. Validation in memory.
    rounds = 50
    start = time.perf_counter()
    for _ in range(rounds):
        for entries in decks:
            validate_deck(entries, "standard")
    per = (time.perf_counter() - start) / (rounds * len(decks))
    emit("validate a 60-card deck in memory (mean)", per * 1000, "ms", 1.0, "lower", env)

    # 2. Reading lists (the import's parse and line checks), index already built.
    rounds = 10
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            result = read_deck_list(text, "standard", index)
            assert not result.problems
    emit("read a 60-card text list for import", rounds * len(texts) / (time.perf_counter() - start), "lists/s",
         1000, "higher", env)

    # 3. What POST /api/decks/validate/ computes for a list.
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            assert validate_list(text, "standard", index)["legal"]
    emit("validate a 60-card text list (the validate endpoint's work)",
         rounds * len(texts) / (time.perf_counter() - start), "lists/s", 1000, "higher", env)

    # 3b. The worst list the endpoint accepts: as many lines as a list may have (decklist.MAX_LINES), each a name no
    # card has, so that every line is answered with the closest names of the whole catalog.
    from decks.decklist import MAX_LINES

    unknown = "\n".join(f"1 Qwzx{i} Frobnicated Lantern" for i in range(MAX_LINES))
    start = time.perf_counter()
    answer = validate_list(unknown, "standard", index)
    assert not answer["legal"]
    emit(f"validate a list of {MAX_LINES} unknown names (the endpoint's worst case)", time.perf_counter() - start,
         "s", 1.0, "lower", env)

    # 4. Imports saved to the database (SQLite, one transaction per deck, as the API does).
    owner = get_user_model().objects.create_user("bench", password="bench-password-1")
    start = time.perf_counter()
    for text in texts:
        deck_import(owner=owner, text=text)
    emit("import a 60-card list into the database", len(texts) / (time.perf_counter() - start), "lists/s", None,
         "higher", env)


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
