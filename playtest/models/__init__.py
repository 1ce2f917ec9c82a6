from .runs import Run, RunChunk, RunStatus
from .tables import GoldfishTable

__all__ = [
    "GoldfishTable", "Run", "RunChunk", "RunStatus",
]
