"""Shared by the Dread Draw bench scripts: the environment line and the JSON figure format."""

from __future__ import annotations

import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def env() -> dict:
    return {"python": platform.python_version(), "machine": platform.machine(), "cores_used": 1}


def figure(bench: str, what: str, value: float, unit: str, target: float | None = None,
           better: str = "higher", **extra) -> None:
    line = {"bench": bench, "figure": what, "value": round(value, 4), "unit": unit, "target": target,
            "better": better, "env": env()}
    line.update(extra)
    print(json.dumps(line), flush=True)
