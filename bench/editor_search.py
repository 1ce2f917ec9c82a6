"""What a keystroke in the deck editor's search costs against the same query through the API: both answered by the
in-process index of the catalog (SEARCH_ENGINE=index), the editor rendering its results with their Add buttons.

In-process (Django's test client, no server), on a throw-away SQLite database with the catalog loaded, the search
answer cache off so every request searches: each query of QUERIES BENCH_ROUNDS times on each path, after one
warm-up round. Run from the repository root: `.venv/bin/python bench/editor_search.py`.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "20"))
QUERIES = ["t:unit", "c:hinter vit<=3", "o:draw", "t:unit c:champion -is:unique", "aber", "t:glyph", "atk>=4 def<=2",
           "name:moon"]


def timed(client, path: str) -> float:
    started = time.perf_counter()
    response = client.get(path)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, (path, response.status_code)
    return elapsed * 1000


def main() -> None:
    os.environ["DREADGATE_VAR_DIR"] = tempfile.mkdtemp(prefix="bench-editor-search-")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.update(SEARCH_ENGINE="index", SEARCH_CACHE_SECONDS="0", THROTTLE_SEARCH="1000000/minute")
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL"):
        os.environ.pop(name, None)
    import django

    django.setup()
    import _common
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from decks.services import deck_create

    call_command("migrate", verbosity=0)
    call_command("loadcatalog", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-editor-search-1")
    deck = deck_create(owner=user, name="Bench", entries=[])
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    editor, api = [], []
    for round_number in range(ROUNDS + 1):
        for query in QUERIES:
            q = quote(query)
            one_editor = timed(client, f"/decks/{deck.pk}/edit/search/?q={q}")
            one_api = timed(client, f"/api/cards/?q={q}")
            if round_number:  # the first round builds the index and warms the caches
                editor.append(one_editor)
                api.append(one_api)
    env = {"engine": "index", "database": "sqlite", "client": "in-process", "requests": len(editor)}
    editor_p50, api_p50 = statistics.median(editor), statistics.median(api)
    _common.emit("editor_search", "editor search p50 per keystroke", editor_p50, "ms", None, "lower", env)
    _common.emit("editor_search", "API search p50, same queries", api_p50, "ms", None, "lower", env)
    _common.emit("editor_search", "editor / API search time", editor_p50 / api_p50, "ratio", 1.0, "lower", env)


if __name__ == "__main__":
    main()
