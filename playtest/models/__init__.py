from .dreaddraw import BotLevel, DreadDrawSeat, DreadDrawTable, SeatKind, TableStatus
from .runs import Run, RunChunk, RunStatus
from .tables import GoldfishTable

__all__ = [
    "BotLevel", "DreadDrawSeat", "DreadDrawTable", "GoldfishTable", "Run", "RunChunk", "RunStatus", "SeatKind",
    "TableStatus",
]
