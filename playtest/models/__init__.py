from .runs import Run, RunChunk, RunStatus

__all__ = ["Run", "RunChunk", "RunStatus"]
