"""Which process is playing a chunk, and whether it still lives: how the embedded default finds the chunks of a
worker that died.

kombu's filesystem broker forgets a message once a worker has taken it, so a chunk whose worker is killed is
never delivered again (Redis redelivers it after its visibility timeout). On the embedded default every worker
runs on the one machine, so the process itself is the lease: a chunk records the process that took it, and a
chunk still pending whose process is gone is sent again by the reaper. A process is named by its host, its pid
and its start time, so a pid reused by a later process is not taken for the one that died.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _start_time(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()[19]  # field 22, after the command name in parentheses


def current() -> str:
    """This process's lease."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid) or ''}"


def lapsed(lease: str) -> bool:
    """Whether the process named by `lease` has ended (False for one on another host: it cannot be told)."""
    host, _, rest = lease.partition(":")
    pid_text, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if started:
        return _start_time(pid) != started
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
