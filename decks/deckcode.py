"""Deck codes: a compact, URL-safe text form of a deck that round-trips exactly.

Layout (version 1), then base64url without padding:
    byte 0      version (1)
    byte 1      format (index in FORMAT_CODES)
    varint      number of entries, then each entry:
        byte    high nibble = kind, low nibble = count (0 means a count byte follows)
        kind 0  unit "U-ddddd": 3 bytes, the number big-endian
        kind 1  any other collector number: 1 length byte + UTF-8 text
        kind 2  the gateway card (count is the pair's size): as kind 1
        kind 3  an authored card "<T>-<CRAFT>-<nn>" (e.g. L-CHA-01): 1 byte type * 8 + craft, 1 byte nn
Entries are sorted by collector number so one deck has one code. Decoding gives collector
numbers; resolving them to cards is the caller's job. Only DeckCodeError is ever raised.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from core.crafts import CRAFT_ORDER
from core.formats import FORMAT_SLUGS

VERSION = 1
FORMAT_CODES = FORMAT_SLUGS  # a code stores the format's place in this order
MAX_CODE_LENGTH = 4096
MAX_ENTRIES = 200
_UNIT = re.compile(r"^U-(\d{5})$")
AUTHORED_TYPES = "LTGI"  # legend, talent, glyph, item
AUTHORED_CRAFTS = tuple(craft[:3].upper() for craft in CRAFT_ORDER)  # ART, CHA, ... in the crafts' order
_AUTHORED = re.compile(rf"^([{AUTHORED_TYPES}])-({'|'.join(AUTHORED_CRAFTS)})-(\d{{2}})$")
KIND_UNIT, KIND_TEXT, KIND_GATEWAY, KIND_AUTHORED = 0, 1, 2, 3


class DeckCodeError(ValueError):
    """The text is not a deck code this app can read."""


@dataclass(frozen=True, slots=True)
class DeckCode:
    format: str
    cards: tuple[tuple[str, int], ...]  # (collector number, count), sorted
    gateway: str | None = None
    gateway_count: int = 2


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _head(kind: int, count: int) -> bytes:
    if not 1 <= count <= 255:
        raise DeckCodeError(f"A count of {count} cannot be written in a deck code.")
    return bytes([kind << 4 | count]) if count < 16 else bytes([kind << 4, count])


def _text(number: str) -> bytes:
    raw = number.encode()
    if not 1 <= len(raw) <= 255:
        raise DeckCodeError(f"Collector number {number!r} cannot be written in a deck code.")
    return bytes([len(raw)]) + raw


def encode(code: DeckCode) -> str:
    if code.format not in FORMAT_CODES:
        raise DeckCodeError(f"Unknown format {code.format!r}.")
    out = bytearray([VERSION, FORMAT_CODES.index(code.format)])
    cards = sorted(code.cards)
    if len(cards) + (1 if code.gateway else 0) > MAX_ENTRIES:
        raise DeckCodeError(f"A deck code holds at most {MAX_ENTRIES} different cards.")
    out += _varint(len(cards) + (1 if code.gateway else 0))
    for number, count in cards:
        unit = _UNIT.match(number)
        authored = _AUTHORED.match(number)
        if unit:
            out += _head(KIND_UNIT, count) + int(unit[1]).to_bytes(3, "big")
        elif authored:
            kind_byte = AUTHORED_TYPES.index(authored[1]) * 8 + AUTHORED_CRAFTS.index(authored[2])
            out += _head(KIND_AUTHORED, count) + bytes([kind_byte, int(authored[3])])
        else:
            out += _head(KIND_TEXT, count) + _text(number)
    if code.gateway:
        out += _head(KIND_GATEWAY, code.gateway_count) + _text(code.gateway)
    return base64.urlsafe_b64encode(bytes(out)).decode().rstrip("=")


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise DeckCodeError("The deck code is cut short.")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]

    def varint(self) -> int:
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                return n
            shift += 7
            if shift > 28:
                raise DeckCodeError("The deck code has a malformed number.")


def decode(text: str) -> DeckCode:
    if not isinstance(text, str):
        raise DeckCodeError("A deck code is text.")
    text = text.strip()
    if not text or len(text) > MAX_CODE_LENGTH or not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        raise DeckCodeError("A deck code is letters, digits, '-' and '_' only, at most "
                            f"{MAX_CODE_LENGTH} characters.")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise DeckCodeError("The deck code is not valid base64url.") from exc
    if base64.urlsafe_b64encode(data).decode().rstrip("=") != text:
        raise DeckCodeError("The deck code is not valid base64url (stray trailing bits).")
    r = _Reader(data)
    version = r.byte()
    if version != VERSION:
        raise DeckCodeError(f"Deck code version {version} is not supported (this app reads version {VERSION}).")
    fmt = r.byte()
    if fmt >= len(FORMAT_CODES):
        raise DeckCodeError(f"The deck code names an unknown format ({fmt}).")
    n = r.varint()
    if n > MAX_ENTRIES:
        raise DeckCodeError(f"The deck code lists {n} cards; at most {MAX_ENTRIES} are allowed.")
    cards: list[tuple[str, int]] = []
    gateway: str | None = None
    gateway_count = 2
    for _ in range(n):
        head = r.byte()
        kind, count = head >> 4, head & 0x0F
        if count == 0:
            count = r.byte()
            if count < 16:
                raise DeckCodeError("The deck code writes a small count the long way.")
        if kind == KIND_UNIT:
            value = int.from_bytes(r.take(3), "big")
            if value > 99999:
                raise DeckCodeError("The deck code names a unit number out of range.")
            number = f"U-{value:05d}"
        elif kind in (KIND_TEXT, KIND_GATEWAY):
            try:
                number = r.take(r.byte()).decode()
            except UnicodeDecodeError as exc:
                raise DeckCodeError("The deck code is damaged: a card in it cannot be read (the code was cut or "
                                    "changed); copy it again whole.") from exc
            if not number or _UNIT.match(number) or _AUTHORED.match(number):
                raise DeckCodeError("The deck code has a malformed collector number.")
        elif kind == KIND_AUTHORED:
            kind_byte, nn = r.take(2)
            type_index, craft_index = divmod(kind_byte, 8)
            if type_index >= len(AUTHORED_TYPES) or craft_index >= len(AUTHORED_CRAFTS) or nn > 99:
                raise DeckCodeError("The deck code names a card number out of range.")
            number = f"{AUTHORED_TYPES[type_index]}-{AUTHORED_CRAFTS[craft_index]}-{nn:02d}"
        else:
            raise DeckCodeError(f"The deck code has an unknown entry kind ({kind}).")
        if kind == KIND_GATEWAY:
            if gateway is not None:
                raise DeckCodeError("The deck code names two gateway cards.")
            gateway, gateway_count = number, count
        else:
            cards.append((number, count))
    if r.pos != len(data):
        raise DeckCodeError("The deck code has bytes left over after its last card.")
    if cards != sorted(cards) or len({c for c, _ in cards}) != len(cards):
        raise DeckCodeError("The deck code's cards are not in order or repeat.")
    return DeckCode(FORMAT_CODES[fmt], tuple(cards), gateway, gateway_count)
