"""The embedded default's broker: kombu's filesystem transport, with messages that are never read half-written
and a consumer that never stops on a bad one.

kombu's own filesystem transport creates a message file under its final ``.msg`` name and writes it
afterwards, while a consumer moves and parses any ``.msg`` file it lists: a consumer that lists the file
between the two reads an empty message, and the JSON error stops the worker (celery/kombu#1551). Here:

- a message is written under a name no consumer lists (in the queue folder's ``.writing`` folder, on the
  same filesystem) and renamed into place once whole: a rename is atomic, so a listed ``.msg`` file is
  always complete;
- a consumer claims a file by renaming it into a folder of its own under the ``claimed`` folder beside the
  queue, named by its process's lease (playtest/jobs/leases.py): of two consumers that list the same file,
  exactly one rename succeeds, so each message is taken once;
- a claimed message stays there until it is acknowledged, rejected or handed back, as a broker keeps an
  unacknowledged message: the claims of a consumer whose process has died (killed, out of memory) are put
  back in the queue, in their place, by the next channel to open and by the reaper
  (``restore_lapsed_claims``). Without this a worker killed with a chunk in hand, or only reserved and not yet
  started, loses that message for good (kombu's transport deletes a message as it is read);
- a claimed file that still does not read as a message (a disk that filled up, a file put there by hand) is
  moved to the ``unreadable`` folder and logged, and the consumer goes on to the next one;
- ``remove`` takes chosen messages off a queue (a cancelled run's chunks), claiming each as a consumer would;
- a drain waits at most a quarter of a second, so a worker's warm shutdown begins at once.

Registered as the ``atomicfs`` transport when this module is imported (config/celery.py imports it); the
settings point the embedded default at it.
"""

from __future__ import annotations

import logging
import os
import uuid
from functools import cached_property
from pathlib import Path
from time import monotonic

from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

from playtest.jobs import leases

log = logging.getLogger(__name__)

NAME = "atomicfs"
WRITING_FOLDER = ".writing"  # inside the queue folder: its name never ends in ".<queue>.msg"
CLAIM = "claimed_as"  # the property that names a delivered message's claimed file, never sent on


def restore_lapsed_claims(queue_folder: str | Path) -> int:
    """Put back in the queue the messages claimed by consumers whose process has ended; returns how many. A
    restored message keeps its name, so it comes first again. Safe to run from any number of processes at once:
    each file is moved by one rename."""
    claimed_root = Path(queue_folder).parent / "claimed"
    restored = 0
    for folder in (claimed_root.iterdir() if claimed_root.is_dir() else ()):
        if not folder.is_dir() or not leases.lapsed(folder.name):
            continue
        for claimed in folder.iterdir():
            try:
                os.rename(claimed, Path(queue_folder) / claimed.name)
            except FileNotFoundError:
                continue  # restored by another process meanwhile
            restored += 1
        try:
            folder.rmdir()
        except OSError:
            pass
    if restored:
        log.warning("%d message(s) of a consumer that died were put back in the embedded broker's queue.", restored)
    return restored


def _after_create(path: str) -> None:
    """Between creating a message's file and writing it; the tests pause a writer here."""


class Channel(filesystem.Channel):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._acknowledged_queues: set[str] = set()
        restore_lapsed_claims(self.data_folder_in)  # a worker started again takes back what its last life held

    def basic_consume(self, queue, no_ack, *args, **kwargs):
        if not no_ack:  # a message of these is kept claimed until it is acknowledged
            self._acknowledged_queues.add(queue)
        return super().basic_consume(queue, no_ack, *args, **kwargs)

    def basic_ack(self, delivery_tag, multiple=False):
        claimed = self._claim_of(delivery_tag)
        super().basic_ack(delivery_tag, multiple)
        _forget(claimed)

    def basic_reject(self, delivery_tag, requeue=False):
        claimed = self._claim_of(delivery_tag)
        super().basic_reject(delivery_tag, requeue=requeue)  # requeued: `_restore` has put a copy back
        _forget(claimed)

    def _claim_of(self, delivery_tag) -> str | None:
        message = self.qos._delivered.get(delivery_tag)
        return message.properties.get(CLAIM) if message is not None else None

    def _restore(self, message):
        claimed = message.properties.pop(CLAIM, None)
        super()._restore(message)
        _forget(claimed)

    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        writing = Path(self.data_folder_out) / WRITING_FOLDER
        partial = writing / name
        try:
            writing.mkdir(exist_ok=True)
            with open(partial, "wb") as file:
                _after_create(str(partial))
                file.write(str_to_bytes(dumps(payload)))
            os.rename(partial, Path(self.data_folder_out) / name)
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add a message to {self.data_folder_out!r}") from exc

    def _get(self, queue):
        wanted = f"{queue}.msg"
        kept = queue in self._acknowledged_queues
        claimed_folder = self._own_claims_folder if kept else self._claimed_folder
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = claimed_folder / name
            try:
                os.rename(Path(self.data_folder_in) / name, claimed)
            except FileNotFoundError:
                continue  # another consumer took it first
            try:
                message = loads(bytes_to_str(claimed.read_bytes()))
            except (OSError, ValueError) as exc:
                self._set_aside(claimed, exc)
                continue
            if kept:
                message["properties"][CLAIM] = str(claimed)
            else:
                claimed.unlink()
            return message
        raise filesystem.Empty()

    def remove(self, queue, unwanted) -> int:
        """Take off `queue` the messages for which `unwanted(message)` is true; returns how many. Each is claimed
        as `_get` claims it, so a message a consumer takes at the same time is either taken or removed."""
        wanted, removed = f"{queue}.msg", 0
        for name in os.listdir(self.data_folder_in):
            if name.partition(".")[2] != wanted:
                continue
            try:
                message = loads(bytes_to_str((Path(self.data_folder_in) / name).read_bytes()))
            except (OSError, ValueError):
                continue  # taken meanwhile, or unreadable: `_get` sets it aside
            if not unwanted(message):
                continue
            try:
                os.rename(Path(self.data_folder_in) / name, self._claimed_folder / name)
            except FileNotFoundError:
                continue
            (self._claimed_folder / name).unlink()
            removed += 1
        return removed

    def _set_aside(self, claimed: Path, exc: Exception) -> None:
        unreadable = self._unreadable_folder / claimed.name
        try:
            os.replace(claimed, unreadable)
        except OSError:
            unreadable = claimed
        log.error("A message of the embedded broker could not be read (%s: %s); set aside as %s.",
                  type(exc).__name__, exc, unreadable)

    @cached_property
    def _claimed_folder(self) -> Path:
        return self._sibling_folder("claimed")

    @cached_property
    def _own_claims_folder(self) -> Path:
        """Where this process keeps the messages it has taken and not yet acknowledged."""
        folder = self._claimed_folder / leases.current()
        folder.mkdir(exist_ok=True)
        return folder

    @cached_property
    def _unreadable_folder(self) -> Path:
        return self._sibling_folder("unreadable")

    def _sibling_folder(self, name: str) -> Path:
        """A folder beside the queue folder, on the same filesystem (so that renames into it are atomic)."""
        folder = Path(self.data_folder_in).parent / name
        folder.mkdir(parents=True, exist_ok=True)
        return folder


def _forget(claimed: str | None) -> None:
    if claimed:
        Path(claimed).unlink(missing_ok=True)


# The longest a drain waits for a message before it hands back to the worker's loop.
DRAIN_SLICE_SECONDS = 0.25


class Transport(filesystem.Transport):
    Channel = Channel

    def drain_events(self, connection, timeout=None):
        # Celery's blocking loop (a transport without an event loop, such as this one) drains 2 s at a time, looks
        # for a stop request between drains, and drains once more after it: a warm shutdown waited up to 4 s before
        # it began (`make run` stopping, a worker restarted). Shorter drains let it begin within a slice; a drain
        # asked to wait for good still does.
        if timeout is not None and timeout > DRAIN_SLICE_SECONDS:
            timeout = DRAIN_SLICE_SECONDS
        return super().drain_events(connection, timeout=timeout)


TRANSPORT_ALIASES[NAME] = f"{__name__}:Transport"
