"""Cells, directions and the precomputed lines of the 5x5 battlefield (DG-2, DG-3.3).

A cell is an int 0..24: rank_index * 5 + file_index, so a1 = 0, e1 = 4, c3 = 12, e5 = 24.
Directions are indices 0..7 in the bit order of the direction indicator: n, ne, e, se, s, sw, w, nw.
Vectors are in South's frame (n = up the ranks); a North unit's directions are turned half a circle.
"""

from __future__ import annotations

SIZE = 5
CELLS = 25
GATE = 12
FILES = "abcde"
DIRECTION_NAMES = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # (file, rank)
SOUTH, NORTH = 0, 1
SEAT_NAMES = ("s", "n")
BACK_RANK = (tuple(range(0, 5)), tuple(range(20, 25)))  # DG-2.4


def cell_name(cell: int) -> str:
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def parse_cell(text: str) -> int | None:
    if len(text) == 2 and text[0] in FILES and text[1] in "12345":
        return (int(text[1]) - 1) * SIZE + FILES.index(text[0])
    return None


def turn_mask(mask: int, owner: int) -> int:
    """A direction bit set relative to its owner, as absolute (South-frame) bits."""
    if owner == SOUTH:
        return mask
    return ((mask << 4) | (mask >> 4)) & 0xFF


def turn_dir(d: int, owner: int) -> int:
    return d if owner == SOUTH else (d + 4) % 8


def distance(a: int, b: int) -> int:
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


def _ray(cell: int, d: int) -> tuple[int, ...]:
    f, r = cell % SIZE, cell // SIZE
    df, dr = VECTORS[d]
    out = []
    f, r = f + df, r + dr
    while 0 <= f < SIZE and 0 <= r < SIZE:
        out.append(r * SIZE + f)
        f, r = f + df, r + dr
    return tuple(out)


# RAYS[cell][d]: the cells from `cell` (excluded) to the edge in absolute direction d.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(c, d) for d in range(8)) for c in range(CELLS))
# MASK_DIRS[mask]: the direction indices of a bit set.
MASK_DIRS: tuple[tuple[int, ...], ...] = tuple(tuple(d for d in range(8) if m >> d & 1) for m in range(256))


def direction_between(a: int, b: int) -> int | None:
    """The absolute compass direction from a to b by the signs of the differences (None if a == b)."""
    df = (b % SIZE > a % SIZE) - (b % SIZE < a % SIZE)
    dr = (b // SIZE > a // SIZE) - (b // SIZE < a // SIZE)
    if df == 0 and dr == 0:
        return None
    return VECTORS.index((df, dr))


_LINES: dict[int, tuple[tuple[int, ...], ...]] = {}


def lines(cell: int, mask: int, reach: int) -> tuple[tuple[int, ...], ...]:
    """The straight lines from a cell in the directions of a bit set, each cut to `reach` cells (cached)."""
    reach = min(max(reach, 0), 4)  # no line on the board is longer than 4
    key = (cell << 12) | (mask << 4) | reach  # the same key the hot loop in state.py reads directly
    found = _LINES.get(key)
    if found is None:
        found = _LINES[key] = tuple(RAYS[cell][d][:reach] for d in MASK_DIRS[mask] if reach > 0)
    return found
