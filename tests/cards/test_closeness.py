"""The closest names to a written one: difflib's measure and cutoff, the closest first."""

import difflib

from cards.closeness import close_matches

NAMES = ["iron spear", "iron pike", "iron drake", "goblin sapper", "goblin sniper", "lamplit duelist"]


def test_the_closest_names_come_first_and_none_below_the_cutoff():
    assert close_matches("iron spaer", NAMES, limit=3, cutoff=0.6)[0] == "iron spear"
    assert close_matches("goblin saper", NAMES, limit=2, cutoff=0.6) == ["goblin sapper", "goblin sniper"]
    assert close_matches("qwzx frobnicated lantern", NAMES, limit=3, cutoff=0.6) == []


def test_it_finds_what_difflib_finds_for_misspellings():
    for written in ("iron spaer", "irn pike", "goblin snipr", "lamplit dualist", "iron drak"):
        assert close_matches(written, NAMES, limit=1, cutoff=0.6) == \
            difflib.get_close_matches(written, NAMES, n=1, cutoff=0.6), written
