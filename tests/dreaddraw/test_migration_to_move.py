"""Tables in play when migration dreaddraw 0006 runs take the seat their game waits on from their last stored
frame, so that the list of a player's tables says whose turn it is for them too."""

import pytest
from django.contrib.auth import get_user_model

from dreaddraw.models import DreadDrawTable
from dreaddraw.services import table_create, table_game
from tests.support import migrate_to


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_a_table_in_play_takes_its_seat_to_move_from_its_last_frame():
    owner = get_user_model().objects.create_user("mover", password="x" * 12)
    table = table_create(owner=owner, seats=[{"kind": "local", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
                         seed=7)
    waiting = table_game(DreadDrawTable.objects.get(pk=table.pk)).to_move()
    assert DreadDrawTable.objects.get(pk=table.pk).to_move == waiting
    migrate_to([("dreaddraw", "0005_table_snapshot")])  # the column gone, the frames kept
    migrate_to(None)
    assert DreadDrawTable.objects.get(pk=table.pk).to_move == waiting
