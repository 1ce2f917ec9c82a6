"""The Dread Draw engine still plays its reference records as they were stored (docs/rules.md, RV-1): a change of
what a stored game replays to (a decision refused, another position, other words) needs a new rules version, so
that stored tables know they were played under other rules (RV-5). tests/reference_records.py says more."""

from __future__ import annotations

import pytest

from dreaddraw.engine import ENGINE_VERSION
from tests.reference_records import COMMAND, DREADDRAW_GAMES, difference, stored

RECORDS = stored("dreaddraw")


def test_there_is_a_record_for_each_reference_game():
    assert sorted(RECORDS) == sorted(DREADDRAW_GAMES), f"regenerate them: {COMMAND} dreaddraw"


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_the_rules_replay_the_reference_record_to_its_stored_frames(name):
    record = RECORDS[name]
    assert record["engine"] == ENGINE_VERSION, (
        f"The rules version is now {ENGINE_VERSION!r}; the reference records are of {record['engine']!r}: "
        f"regenerate them with {COMMAND} dreaddraw")
    why = difference("dreaddraw", name, record)
    assert why is None, (
        f"The Dread Draw rules changed what a stored game shows, without a version bump: {why}.\n"
        f"If the change is meant, bump ENGINE_VERSION in dreaddraw/engine/game.py (docs/rules.md, RV-1) and "
        f"regenerate the reference records with {COMMAND} dreaddraw; if not, the change is a bug.")
