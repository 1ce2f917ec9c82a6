"""Shared by the bench scripts: the JSON line of one figure, a free loopback port, percentiles."""

from __future__ import annotations

import json
import math
import socket


def emit(bench: str, figure: str, value: float, unit: str, target: float | None, better: str, env: dict,
         digits: int = 2) -> None:
    print(json.dumps({"bench": bench, "figure": figure, "value": round(value, digits), "unit": unit,
                      "target": target, "better": better, "env": env}), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile, q in (0, 1]: the smallest value with at least q of them at or below it."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]
