"""The embedded default's broker under a soak: producers and consumers in processes of their own put and take
messages at once (playtest/jobs/filesystem_transport.py), and every message must be taken exactly once.

Run from the repository root: `.venv/bin/python bench/broker_soak.py` (BENCH_SOAK_MESSAGES per producer,
default 5000; BENCH_SOAK_PRODUCERS and BENCH_SOAK_CONSUMERS, default 4 each). Prints one JSON line per figure:
messages lost, taken twice, and unreadable (each targets 0), and messages per second through the broker.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MESSAGES = int(os.environ.get("BENCH_SOAK_MESSAGES", "5000"))
PRODUCERS = int(os.environ.get("BENCH_SOAK_PRODUCERS", "4"))
CONSUMERS = int(os.environ.get("BENCH_SOAK_CONSUMERS", "4"))
QUEUE = "soak"


def connect(folder: Path):
    from kombu import Connection

    import playtest.jobs.filesystem_transport  # noqa: F401  (registers the transport)

    queue = folder / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    return Connection("atomicfs://", transport_options={
        "data_folder_in": str(queue), "data_folder_out": str(queue), "control_folder": str(folder / "control")})


def produce(folder: str, producer: int) -> None:
    with connect(Path(folder)) as connection:
        for number in range(MESSAGES):
            connection.default_channel._put(QUEUE, {"id": f"{producer}:{number}"})


def consume(folder: str, out: str, producers_done) -> None:
    from kombu.transport.virtual import Empty

    taken = []
    with connect(Path(folder)) as connection:
        channel = connection.default_channel
        while True:
            try:
                taken.append(channel._get(QUEUE)["id"])
            except Empty:
                if producers_done.is_set():
                    break
                time.sleep(0.005)
    Path(out).write_text(json.dumps(taken))


def main() -> None:
    import _common

    folder = Path(tempfile.mkdtemp(prefix="bench-broker-"))
    context = multiprocessing.get_context("spawn")
    done = context.Event()
    outs = [folder / f"taken-{n}.json" for n in range(CONSUMERS)]
    consumers = [context.Process(target=consume, args=(str(folder), str(out), done)) for out in outs]
    producers = [context.Process(target=produce, args=(str(folder), n)) for n in range(PRODUCERS)]
    started = time.perf_counter()
    for process in consumers + producers:
        process.start()
    for process in producers:
        process.join()
    done.set()
    for process in consumers:
        process.join()
    seconds = time.perf_counter() - started
    taken = [m for out in outs for m in json.loads(out.read_text())]
    expected = {f"{p}:{n}" for p in range(PRODUCERS) for n in range(MESSAGES)}
    unreadable = len(list((folder / "unreadable").glob("*"))) if (folder / "unreadable").exists() else 0
    env = {"producers": PRODUCERS, "consumers": CONSUMERS, "messages": len(expected), "cpus": os.cpu_count()}
    _common.emit("broker_soak", "messages lost", len(expected - set(taken)), "messages", 0, "lower", env)
    _common.emit("broker_soak", "messages taken twice", len(taken) - len(set(taken)), "messages", 0, "lower", env)
    _common.emit("broker_soak", "messages unreadable", unreadable, "messages", 0, "lower", env)
    _common.emit("broker_soak", "throughput", len(taken) / seconds, "messages/s", None, "higher", env, digits=0)


if __name__ == "__main__":
    main()
