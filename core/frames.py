"""What each step of a stored game showed, kept compact (docs/rules.md, RV-2): its frames.

    data = pack(frames)        # bytes: JSON-ready frames, each kept as its change from the one before, zlib'd
    unpack(data) == frames     # as their JSON round trip (tuples come back as lists)
    extend(data, frames[-1:] + more) == pack(frames + more)   # new steps added, the stored ones not read again
    first_difference(a, b)     # the first step at which two games' frames differ, or None

A frame is whatever an engine says one step of a game showed (its observation per viewer and the words of the
action that led to it); this module knows nothing of either game. Consecutive frames differ in a few fields, so
a 400-action game packs to a few kilobytes (bench/frames.py measures it).

A change is a one-key mapping: {"=": value} (replaced), {"+": [...]} (items appended to a list),
{"[": {"i": change}} (items of a list of the same length changed), {"~": {key: change}, "-": [key, ...]}
(keys of a mapping changed, added or removed); {} is no change.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

FORMAT = 1


class FramesError(ValueError):
    """Stored frames that can't be read (corrupt, or of a format this app does not know)."""


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _change(old: Any, new: Any) -> dict[str, Any]:
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {key: _change(old[key], value) if key in old else {"=": value}
                   for key, value in new.items() if key not in old or old[key] != value}  # fmt: skip
        gone = [key for key in old if key not in new]
        out: dict[str, Any] = {}
        if changed:
            out["~"] = changed
        if gone:
            out["-"] = gone
        return out
    if isinstance(old, list) and isinstance(new, list) and old != new:
        if len(new) > len(old) and new[: len(old)] == old:
            return {"+": new[len(old):]}
        if len(new) == len(old):
            return {"[": {str(i): _change(a, b) for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}}
    return {} if old == new and type(old) is type(new) else {"=": new}


def _apply(old: Any, change: dict[str, Any]) -> Any:
    if not change:
        return old
    if "=" in change:
        return change["="]
    if "+" in change:
        return [*old, *change["+"]]
    if "[" in change:
        out = list(old)
        for index, item in change["["].items():
            out[int(index)] = _apply(out[int(index)], item)
        return out
    new = {key: value for key, value in old.items() if key not in change.get("-", ())}
    for key, item in change.get("~", {}).items():
        new[key] = _apply(new[key], item) if key in new else item["="]
    return new


def pack(frames: list[Any]) -> bytes:
    """The frames as bytes: the first whole, each later one as its change from the one before, zlib-compressed.
    Frames are JSON-ready (lists and string keys; a tuple comes back a list)."""
    plain = frames
    changes = [plain[0]] if plain else []
    changes += [_change(before, after) for before, after in zip(plain, plain[1:], strict=False)]
    text = json.dumps({"format": FORMAT, "frames": changes}, separators=(",", ":"))
    return zlib.compress(text.encode(), 9)


def extend(data: bytes | memoryview, frames: list[Any]) -> bytes:
    """What `pack` gives for the frames packed in `data` followed by `frames[1:]`, where `frames[0]` is the last
    frame packed in `data` (whole, to take the first change from). The stored frames are neither unpacked nor
    compared again: a game that stores its frames after each move pays for its new steps, not for all of them
    (their changes are added to the stored text)."""
    if len(frames) < 2:
        return bytes(data)
    try:
        text = zlib.decompress(bytes(data))
    except zlib.error as exc:
        raise FramesError(f"frames: can't be read ({exc})") from exc
    if not text.endswith(b"]}") or text.endswith(b"[]}"):
        raise FramesError("frames: not a packed game with a first frame to add to")
    added = json.dumps([_change(before, after) for before, after in zip(frames, frames[1:], strict=False)],
                       separators=(",", ":"))
    return zlib.compress(text[:-2] + b"," + added[1:-1].encode() + b"]}", 9)


def unpack(data: bytes | memoryview) -> list[Any]:
    """The frames that `pack` was given (their JSON round trip)."""
    try:
        doc = json.loads(zlib.decompress(bytes(data)))
    except (zlib.error, ValueError) as exc:
        raise FramesError(f"frames: can't be read ({exc})") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("frames"), list):
        raise FramesError(f"frames: unknown format {doc.get('format') if isinstance(doc, dict) else None!r}")
    frames: list[Any] = []
    for change in doc["frames"]:
        frames.append(_apply(frames[-1], change) if frames else change)
    return frames


def to_text(data: bytes) -> str:
    """Packed frames as text, for a JSON document (a run's sample games)."""
    return base64.b64encode(data).decode("ascii")


def from_text(text: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise FramesError(f"frames: not base64 ({exc})") from exc


def first_difference(stored: list[Any], replayed: list[Any]) -> int | None:
    """The first step whose frame differs between two plays of a game (a step only one of them has counts), or
    None where every step shows the same."""
    stored, replayed = _plain(stored), _plain(replayed)
    for step, (a, b) in enumerate(zip(stored, replayed, strict=False)):
        if a != b:
            return step
    return None if len(stored) == len(replayed) else min(len(stored), len(replayed))
