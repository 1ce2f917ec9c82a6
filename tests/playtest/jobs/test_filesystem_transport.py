"""The embedded default's broker (playtest/jobs/filesystem_transport.py): a message is never read half-written,
a bad one never stops the consumer, each message is taken exactly once by concurrent consumers, and a message
taken and not acknowledged by a consumer that dies comes back; a drain hands back to the worker's loop within a
quarter of a second.

These talk to the filesystem only: they run in the embedded configuration (docs/testing.md)."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kombu import Connection
from kombu.transport.virtual import Empty

from playtest.jobs import filesystem_transport

pytestmark = pytest.mark.config_independent

QUEUE = "chunks"


def connect(folder: Path) -> Connection:
    queue = folder / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    return Connection("atomicfs://", transport_options={
        "data_folder_in": str(queue), "data_folder_out": str(queue), "control_folder": str(folder / "control"),
        "store_processed": False,
    })


def test_the_transport_is_registered_by_name_and_used_by_the_embedded_default(settings):
    import config.celery  # noqa: F401  (registers the name)

    with Connection("atomicfs://") as connection:
        assert connection.transport_cls == "atomicfs"
        assert isinstance(connection.transport, filesystem_transport.Transport)


def test_a_message_created_but_not_yet_written_is_never_read_and_never_stops_the_consumer(tmp_path, monkeypatch):
    with connect(tmp_path) as writer_connection, connect(tmp_path) as reader_connection:
        writer, reader = writer_connection.default_channel, reader_connection.default_channel
        seen_while_paused = []

        def paused_writer(path):
            # The writer has created the file and written nothing: a consumer polls now.
            assert Path(path).exists() and Path(path).stat().st_size == 0
            try:
                seen_while_paused.append(reader._get(QUEUE))
            except Empty:
                seen_while_paused.append("empty")

        monkeypatch.setattr(filesystem_transport, "_after_create", paused_writer)
        writer._put(QUEUE, {"body": "whole"})
        assert seen_while_paused == ["empty"]
        assert reader._get(QUEUE) == {"body": "whole"}
        with pytest.raises(Empty):
            reader._get(QUEUE)


def test_a_message_that_cannot_be_read_is_set_aside_and_logged_and_the_next_one_is_taken(tmp_path, caplog):
    with connect(tmp_path) as connection:
        channel = connection.default_channel
        (tmp_path / "queue" / f"0_bad.{QUEUE}.msg").write_bytes(b"")  # as kombu's own writer leaves one
        channel._put(QUEUE, {"body": "next"})
        assert channel._get(QUEUE) == {"body": "next"}
        assert (tmp_path / "unreadable" / f"0_bad.{QUEUE}.msg").exists()
        assert "could not be read" in caplog.text and "unreadable" in caplog.text
        with pytest.raises(Empty):
            channel._get(QUEUE)


def _produce(folder: str, producer: int, count: int) -> None:
    with connect(Path(folder)) as connection:
        for number in range(count):
            connection.default_channel._put(QUEUE, {"id": f"{producer}:{number}"})


def _consume(folder: str, expected: int, out: str) -> None:
    taken = []
    with connect(Path(folder)) as connection:
        channel = connection.default_channel
        idle = 0
        while idle < 200:  # until the queue stays empty for a while once the producers are done
            try:
                taken.append(channel._get(QUEUE)["id"])
                idle = 0
            except Empty:
                idle += 1
                multiprocessing.Event().wait(0.01)
    Path(out).write_text(json.dumps(taken))


def test_messages_put_by_other_processes_and_taken_concurrently_are_each_taken_exactly_once(tmp_path):
    producers, per_producer, consumers = 3, 700, 3
    context = multiprocessing.get_context("spawn")
    outs = [tmp_path / f"taken-{n}.json" for n in range(consumers)]
    processes = [context.Process(target=_consume, args=(str(tmp_path), producers * per_producer, str(out)))
                 for out in outs]
    processes += [context.Process(target=_produce, args=(str(tmp_path), n, per_producer)) for n in range(producers)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    taken = [message for out in outs for message in json.loads(out.read_text())]
    expected = {f"{p}:{n}" for p in range(producers) for n in range(per_producer)}
    assert len(taken) == len(expected) and set(taken) == expected
    assert all(json.loads(out.read_text()) for out in outs), "every consumer took a share"


# A consumer in a process of its own: takes one message (acknowledged later, as a worker with late acks does), says
# so, and waits to be killed.
TAKE_AND_HOLD = """
import sys, time
from kombu import Connection
import playtest.jobs.filesystem_transport
folder, queue = sys.argv[1:]
with Connection("atomicfs://", transport_options={"data_folder_in": folder + "/queue", "data_folder_out": folder
                + "/queue", "control_folder": folder + "/control", "store_processed": False}) as connection:
    message = connection.SimpleQueue(queue).get(timeout=10)
    print(message.payload, flush=True)
    time.sleep(60)
"""


def take_and_hold(folder: Path, queue: str) -> tuple[subprocess.Popen, str]:
    holder = subprocess.Popen([sys.executable, "-c", TAKE_AND_HOLD, str(folder), queue], stdout=subprocess.PIPE,
                              text=True, cwd=Path(__file__).resolve().parents[3])
    return holder, holder.stdout.readline().strip()


@pytest.fixture
def queue_name(request) -> str:
    """A queue of the test's own: kombu remembers a process's exchanges across connections, so a queue name used
    with one folder would be published to that folder again."""
    return request.node.name[:40]


def queued(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder / "queue") if name.endswith(".msg"))


def test_a_message_taken_by_a_consumer_that_is_killed_before_acknowledging_it_comes_back_first(tmp_path, queue_name):
    with connect(tmp_path) as connection:
        queue = connection.SimpleQueue(queue_name)
        queue.put("chunk 1")
        time.sleep(0.01)  # a message's name starts with the millisecond it was put: this one is put after
        queue.put("chunk 2")
        holder, taken = take_and_hold(tmp_path, queue_name)
        try:
            assert taken == "chunk 1" and len(queued(tmp_path)) == 1
            # While its consumer lives, a message it holds stays with it, whoever restores.
            assert filesystem_transport.restore_lapsed_claims(tmp_path / "queue") == 0
        finally:
            os.kill(holder.pid, signal.SIGKILL)
            holder.wait()
        assert filesystem_transport.restore_lapsed_claims(tmp_path / "queue") == 1
        assert [queue.get(timeout=5).payload for _ in range(2)] == ["chunk 1", "chunk 2"]
        assert filesystem_transport.restore_lapsed_claims(tmp_path / "queue") == 0  # nothing comes back twice


def test_a_channel_opened_after_a_consumer_died_takes_back_what_it_held(tmp_path, queue_name):
    with connect(tmp_path) as connection:
        connection.SimpleQueue(queue_name).put("chunk 1")
    holder, _ = take_and_hold(tmp_path, queue_name)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert queued(tmp_path) == []
    with connect(tmp_path) as connection:  # a worker started again
        assert connection.SimpleQueue(queue_name).get(timeout=5).payload == "chunk 1"


def test_an_acknowledged_message_leaves_nothing_and_a_requeued_one_is_in_the_queue_once(tmp_path, queue_name):
    with connect(tmp_path) as connection:
        queue = connection.SimpleQueue(queue_name)
        queue.put("done")
        time.sleep(0.01)
        queue.put("again")
        queue.get(timeout=5).ack()
        queue.get(timeout=5).reject(requeue=True)
        claims = [path for path in (tmp_path / "claimed").rglob("*") if path.is_file()]
        assert claims == [] and len(queued(tmp_path)) == 1
        requeued = json.loads((tmp_path / "queue" / queued(tmp_path)[0]).read_text())
        assert "claimed_as" not in requeued["properties"]  # where it was claimed stays with the one who claimed it
        assert queue.get(timeout=5).payload == "again"


@pytest.mark.django_db
def test_the_reaper_gives_back_what_a_dead_worker_had_taken(tmp_path, queue_name, settings):
    from playtest.jobs import services

    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(tmp_path / "queue")}
    settings.PLAYTEST_RESEND_ORPHANED_CHUNKS = True  # the embedded default's reaper
    with connect(tmp_path) as connection:
        connection.SimpleQueue(queue_name).put("chunk 1")
    holder, _ = take_and_hold(tmp_path, queue_name)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    services.runs_reap()
    assert len(queued(tmp_path)) == 1


def test_a_drain_on_an_empty_queue_hands_back_within_a_slice_so_a_warm_shutdown_begins_at_once(tmp_path):
    import socket

    from kombu import Queue

    with connect(tmp_path) as connection:
        queue = Queue("drained-empty", routing_key="drained-empty")
        with connection.Consumer(queue, callbacks=[lambda body, message: None]):
            started = time.monotonic()
            with pytest.raises(socket.timeout):
                connection.drain_events(timeout=2.0)  # celery's blocking loop asks for 2 s at a time
            assert time.monotonic() - started < 1.0
