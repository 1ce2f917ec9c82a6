"""Shared by the bench scripts: the JSON line of one figure, a free loopback port, percentiles, processes' CPU."""

from __future__ import annotations

import json
import math
import os
import socket
from collections.abc import Iterator


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


def process_cpu() -> Iterator[tuple[int, str, float]]:
    """(process group, command name, CPU seconds) of every process now running, from /proc: user and system time,
    and those of its children that ended (PostgreSQL and gunicorn reap theirs)."""
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        comm, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        yield int(fields[2]), comm, sum(int(v) for v in fields[11:15]) / tick
