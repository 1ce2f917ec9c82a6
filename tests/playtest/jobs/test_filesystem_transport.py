"""The embedded default's broker (playtest/jobs/filesystem_transport.py): a message is never read half-written,
a bad one never stops the consumer, and each message is taken exactly once by concurrent consumers.

These talk to the filesystem only: they run in the embedded configuration (docs/testing.md)."""

from __future__ import annotations

import json
import multiprocessing
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
