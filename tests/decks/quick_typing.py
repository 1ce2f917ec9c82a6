"""Typing a card into the editor's quick-add box as a player does: "4 " and the name, a letter at a time until the
name is among the offered ones, then the arrow keys to it and Enter, which adds the line with that name.
Shared by the editor's browser tests and bench/editor.py. Returns the keystrokes it took."""

from __future__ import annotations


def type_card(page, name: str, count: int = 4) -> int:
    box = page.locator("#quick")
    prefix = f"{count} "
    box.press_sequentially(prefix)
    keystrokes = len(prefix)
    for length in range(1, len(name) + 1):
        box.press_sequentially(name[length - 1])
        keystrokes += 1
        if length < 3 or name[length - 1] == " ":
            continue
        page.wait_for_function("text => document.getElementById('quick-options').dataset.answered === text",
                               arg=name[:length].strip())
        offered = page.locator("#quick-options [role=option]").all_inner_texts()
        if name in offered:
            break
    while page.locator('#quick-options [aria-selected="true"]').inner_text() != name:
        box.press("ArrowDown")
        keystrokes += 1
    box.press("Enter")  # adds the line with the name chosen
    return keystrokes + 1
