from .runs import Run, RunChunk, RunStage, RunStatus
from .speeds import PolicySpeed
from .tables import GoldfishTable

__all__ = [
    "GoldfishTable", "PolicySpeed", "Run", "RunChunk", "RunStage", "RunStatus",
]
