"""Helpers that build Dread Draw games in a chosen position without breaking card conservation."""

from __future__ import annotations

from dreaddraw.engine.cardset import KEYWORDS, OPS, load_cardset
from dreaddraw.engine.game import Game

CS = load_cardset()
OLD_CS = load_cardset(version="dd-1.0")  # the set before Scry, Peek and Salvage were redesigned; still replayable
DD11_CS = load_cardset(version="dd-1.1")  # the set whose sift_life sifts only one's own Life Deck (DD-25, DD-28)
DD12_CS = load_cardset(version="dd-1.2")  # the set whose sift_any_life sifts any player's Life Deck (DD-28, DD-29)


def card(name: str) -> int:
    for c in CS.numbers:
        if CS.name(c) == name:
            return c
    raise KeyError(name)


def with_op(op: str, keyword: str | None = None, cs=CS) -> list[int]:
    """Cards whose ability is `op` (and keyword, if given), in the current set or in `cs`."""
    return [c for c in cs.numbers if OPS[cs.op[c]] == op and (keyword is None or KEYWORDS[cs.keyword[c]] == keyword)]


def vanilla(strength: int, exclude: tuple[int, ...] = (), damage: int | None = None, cs=CS) -> int:
    """A card with no ability of this strength (and damage, if given), not in `exclude`, in the current set or
    in `cs` (the sets differ in which card has which strength and dots)."""
    for c in cs.numbers:
        fits = damage is None or cs.damage[c] == damage
        if cs.strength[c] == strength and not cs.op[c] and c not in exclude and fits:
            return c
    raise LookupError(f"no vanilla card of strength {strength} damage {damage}")


def vanillas(*strengths: int, cs=CS) -> list[int]:
    """Distinct ability-less cards with these strengths."""
    out: list[int] = []
    for s in strengths:
        out.append(vanilla(s, tuple(out), cs=cs))
    return out


def zones_of(g: Game) -> list[list[int]]:
    lists = [g.draw, g.discard, g.hand]
    for p in range(g.n):
        lists += [g.life[p], g.reserves[p], g.rows[p]]
    return lists


def rig(g: Game, *, draw_top: list[int] = (), rows: dict | None = None, reserves: dict | None = None,
        life: dict | None = None, discard: list[int] | None = None, current: int | None = None,
        life_sizes: dict | None = None) -> Game:
    """Move the named cards into place; every other card stays where it was (so all 100 stay accounted for).

    draw_top is listed top first. rows/reserves/life map a seat to its cards (life listed bottom to top).
    A card displaced from a Life Deck is replaced by one from the Draw Deck so sizes stay as dealt,
    unless life_sizes says otherwise.
    """
    rows, reserves, life = rows or {}, reserves or {}, life or {}
    placed = list(draw_top) + [c for cs in (*rows.values(), *reserves.values(), *life.values()) for c in cs]
    placed += list(discard or [])
    assert len(placed) == len(set(placed)), "a card is placed twice"
    for zone in zones_of(g):
        zone[:] = [c for c in zone if c not in placed]
    for p, cards in rows.items():
        g.draw[0:0] = g.rows[p]
        g.rows[p][:] = cards
        g.totals[p] = sum(CS.strength[c] for c in cards)
    for p, cards in reserves.items():
        g.draw[0:0] = g.reserves[p]
        g.reserves[p][:] = cards
    for p, cards in life.items():
        g.draw[0:0] = g.life[p]  # the replaced Life cards go to the bottom of the Draw Deck
        g.life[p][:] = cards
    if discard is not None:
        g.discard[:] = list(discard) + g.discard
    # Refill Life Decks that lost cards (to their dealt size or the size asked for), from the Draw Deck's bottom.
    for p in range(g.n):
        want = (life_sizes or {}).get(p, 10 if p not in life else len(life[p]))
        while len(g.life[p]) < want:
            g.life[p].insert(0, g.draw.pop(0))
        while len(g.life[p]) > want:
            g.discard.insert(0, g.life[p].pop(0))
    g.draw.extend(reversed(list(draw_top)))
    if current is not None:
        g.current = current
    for known in g.known_draw:
        known.clear()
    g.seen_mask = 0
    check_conservation(g)
    return g


def check_conservation(g: Game) -> None:
    every = [c for zone in zones_of(g) for c in zone] + list(g.fortune)
    assert sorted(every) == sorted(CS.numbers), "a card is missing or in two places"


def new_game(players: int = 2, seed: int = 1, current: int = 0, cs=CS) -> Game:
    g = Game(players, seed, cs)
    g.current = current
    g.log.clear()
    return g


def skip_prompts(g: Game) -> None:
    """Answer every pending prompt: keep the first drawn card, skip abilities, leave arrangements."""
    from dreaddraw.engine.decisions import S, keep
    from dreaddraw.engine.game import P_ABILITY, P_KEEP

    while g.prompt():
        kind = g.prompt()[0]
        if kind == P_KEEP:
            g.apply(g.to_move(), keep(g.hand[0]))
        elif kind == P_ABILITY:
            g.apply(g.to_move(), S)
        else:
            g.apply(g.to_move(), g.legal()[0])


def damage_drawn_by_seat_1() -> Game:
    """Three players; seat 1 fails a summon and loses the round to seat 0's row of 4 and 7, so it draws
    cards as damage (DD-16): the game is left at seat 1's prompt to keep them."""
    from dreaddraw.engine.decisions import D

    winner_row = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(3, current=1), rows={0: winner_row, 1: [loser_row]}, draw_top=[fail])
    g.in_round = [True, True, False]
    g.in_round_count = 2
    g.apply(1, D)
    return g
