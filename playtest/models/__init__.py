from .runs import Run, RunChunk, RunStage, RunStatus
from .tables import GoldfishTable

__all__ = [
    "GoldfishTable", "Run", "RunChunk", "RunStage", "RunStatus",
]
