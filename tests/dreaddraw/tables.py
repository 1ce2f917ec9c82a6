"""Dread Draw tables played through the services, for the tests of the pages and the table."""

from __future__ import annotations

from dreaddraw.engine import to_notation
from dreaddraw.models import DreadDrawTable
from dreaddraw.services import table_act, table_game


def played_to_the_end(table: DreadDrawTable, moves: int = 600) -> DreadDrawTable:
    """The table with its owner's seat 0 taking the first legal decision each time (the bots play theirs), until
    the game is over or `moves` decisions were taken; read again."""
    for _ in range(moves):
        table.refresh_from_db()
        game = table_game(table)
        if game.over:
            break
        table_act(table_id=table.pk, user=table.owner, seat=0, decision=to_notation(game.legal()[0]),
                  turn=len(table.decisions))
    table.refresh_from_db()
    return table
