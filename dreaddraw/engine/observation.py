"""What one seat may see (DD-1.2): the public table plus that seat's own private knowledge.

`PlayerView` is the cheap, read-only interface bots play through; `observe()` is the full
JSON-ready observation the browser and the API show. Neither exposes a hidden card: the Draw
Deck and Life Decks appear as sizes, except for the cards this seat has been allowed to see.
"""

from __future__ import annotations

from typing import Any

from .cardset import OP_LOOKOUT, OP_STEADFAST, CardSet
from .decisions import Decision, parse, to_notation
from .errors import IllegalDecision
from .game import (
    E_ABILITY,
    E_ARRANGED,
    E_CULLED,
    E_DAMAGE,
    E_DAMAGE_DRAWN,
    E_DEFEATED,
    E_DISCARD,
    E_DISCARD_ROW,
    E_DRAIN,
    E_ELIMINATED,
    E_FAIL,
    E_FAIL_EMPTY,
    E_FORTUNE,
    E_GAIN_LIFE,
    E_GAME_WON,
    E_KEEP,
    E_RESERVES_DISCARDED,
    E_RESHUFFLE,
    E_ROUND,
    E_ROUND_WON,
    E_SCRY_BOTTOM,
    E_SCRY_TOP,
    E_SEE,
    E_SIFTED,
    E_SIFTED_LIFE,
    E_SIFTED_OTHER,
    E_SKIP,
    E_SUMMON,
    E_SUMMON_RESERVE,
    E_TO_RESERVES,
    E_TURN,
    P_ABILITY,
    P_ARRANGE,
    P_CULL,
    P_KEEP,
    P_SCRY,
    P_SIFT_DRAW,
    P_SIFT_LIFE,
    Game,
    LogEntry,
    Step,
)

PROMPT_NAMES = {P_ABILITY: "ability", P_KEEP: "keep", P_ARRANGE: "arrange", P_SCRY: "scry", P_SIFT_DRAW: "sift_draw",
                P_SIFT_LIFE: "sift_life", P_CULL: "cull"}


class PlayerView:
    """Read-only access to what `seat` may see. Bots get this, never the Game.

    Zones come out as tuples and knowledge as frozensets: copies, so a bot that edits what it was
    given changes its copy, never the game.
    """

    __slots__ = ("_g", "seat", "cs", "n")

    def __init__(self, game: Game, seat: int) -> None:
        self._g = game
        self.seat = seat
        self.cs = game.cs
        self.n = game.n

    # public table
    def to_move(self) -> int:
        return self._g.to_move()

    def current(self) -> int:
        return self._g.current

    def row(self, seat: int) -> tuple[int, ...]:
        return tuple(self._g.rows[seat])

    def total(self, seat: int) -> int:
        return self._g.totals[seat]

    def reserves(self, seat: int) -> tuple[int, ...]:
        return tuple(self._g.reserves[seat])

    def life_size(self, seat: int) -> int:
        return len(self._g.life[seat])

    def in_round(self, seat: int) -> bool:
        return self._g.in_round[seat]

    def alive(self, seat: int) -> bool:
        return self._g.alive[seat]

    def draw_size(self) -> int:
        return len(self._g.draw)

    def discard(self) -> tuple[int, ...]:
        return tuple(self._g.discard)

    def last_strength(self, seat: int) -> int:
        return self._g.last_strength(seat)

    def has_op(self, seat: int, op: int) -> int:
        return self._g.has_op(seat, op)

    def public_pool_mask(self) -> int:
        """Cards that may be in the Draw Deck as far as everyone knows (face-up cards excluded)."""
        return self._g.base_mask & ~self._g.seen_mask

    # this seat's own knowledge
    def legal(self) -> list[Decision]:
        return self._g.legal() if self._g.to_move() == self.seat else []  # a new list at every call

    def prompt(self) -> Step | tuple[()]:
        """The pending prompt if it is this seat's, else ()."""
        g = self._g
        return g.queue[0] if g.queue and g.queue[0][1] == self.seat else ()

    def hand(self) -> tuple[int, ...]:
        g = self._g
        return tuple(g.hand) if g.queue and g.queue[0][1] == self.seat else ()

    def known_life(self) -> frozenset[int]:
        return frozenset(self._g.known_life[self.seat])

    def known_draw_top(self) -> int:
        """The top card of the Draw Deck if this seat knows it (looked at it, or has Lookout), else 0."""
        g = self._g
        if not g.draw:
            return 0
        top = g.draw[-1]
        if top in g.known_draw[self.seat] or g.has_op(self.seat, OP_LOOKOUT):
            return top
        return 0

    def known_draw(self) -> list[tuple[int, int]]:
        """(position from the top, card) for every Draw Deck card whose place this seat knows."""
        g = self._g
        known = set(g.known_draw[self.seat])
        draw = g.draw
        if draw and g.has_op(self.seat, OP_LOOKOUT):
            known.add(draw[-1])
        if not known:
            return []
        size = len(draw)
        return [(size - 1 - i, c) for i, c in enumerate(draw) if c in known][::-1]


def pool_counts(view: PlayerView) -> list[int]:
    """How many cards of each strength may be on top of the Draw Deck, as far as this seat knows:
    cards not seen face up since the last reshuffle, less its own looked-at Life cards and hand."""
    mask = view.public_pool_mask()
    for c in view.known_life():
        mask &= ~(1 << c)
    for c in view.hand():
        mask &= ~(1 << c)
    cs = view.cs
    counts = [0] * (cs.max_strength + 1)
    strength = cs.strength
    while mask:
        low = mask & -mask
        counts[strength[low.bit_length() - 1]] += 1
        mask ^= low
    return counts


def success_chance(view: PlayerView) -> dict[str, Any]:
    """This seat's chance that a summon from the Draw Deck succeeds now (DD-3.3), from what it may see."""
    seat = view.seat
    last = view.last_strength(seat)
    top = view.known_draw_top()
    steady = bool(view.has_op(seat, OP_STEADFAST))
    if top:
        s = view.cs.strength[top]
        ok = s > last or (steady and s == last)
        return {"chance": 1.0 if ok else 0.0, "known_top": top, "candidates": 1, "good": int(ok)}
    counts = pool_counts(view)
    total = sum(counts)
    good = sum(counts[s] for s in range(len(counts)) if s > last or (steady and s == last))
    return {"chance": good / total if total else 0.0, "known_top": 0, "candidates": total, "good": good}


def _card(cs: CardSet, c: int) -> dict[str, Any]:
    return {"number": c, "name": cs.name(c), "strength": cs.strength[c], "damage": cs.damage[c]}


def _possessive(card_name: str) -> str:
    """A card's name owning its ability: "Weaver of Threads' ability", not "Threads's"."""
    return card_name + ("'" if card_name.endswith("s") else "'s")


def _some(n: int) -> str:
    """A count in the log's words: "none" for 0 (DD-31)."""
    return str(n) if n else "none"


def describe(g: Game, entry: LogEntry, names: list[str] | None = None) -> str:
    """One readable log line."""
    cs = g.cs
    names = names or [f"Seat {p + 1}" for p in range(g.n)]
    event, p, a, b, _ = entry
    who = names[p] if 0 <= p < len(names) else ""
    label = cs.label
    if event == E_ROUND:
        return f"Round {a} begins."
    if event == E_TURN:
        return f"{who} to summon."
    if event == E_SUMMON:
        extra = " (same strength, Steadfast)" if b else ""
        return f"{who} reveals {label(a)} from the Draw Deck and summons it{extra}."
    if event == E_SUMMON_RESERVE:
        return f"{who} summons {label(a)} from their Reserves."
    if event == E_FAIL:
        return f"{who} reveals {label(a)}, not stronger than {label(b)}: the summon fails."
    if event == E_FAIL_EMPTY:
        return f"{who} has nothing to reveal (Draw Deck and Discard Pile empty): the summon fails."
    if event == E_ELIMINATED:
        return f"{who} is eliminated from the round."
    if event == E_DISCARD_ROW:
        return f"{who} discards {a} summoned card{'s' if a != 1 else ''}."
    if event == E_RESHUFFLE:
        return f"The Draw Deck ran out: the Discard Pile ({a} cards) is shuffled into a new Draw Deck."
    if event == E_ABILITY:
        target = f" on {names[b]}" if b >= 0 else ""
        return f"{who} uses {_possessive(cs.name(a))} ability{target}."
    if event == E_SKIP:
        return f"{who} does not use {_possessive(cs.name(a))} ability."
    if event == E_SEE:
        if b >= 2:  # DD-28: another player's Life Deck (b is that seat + 2)
            where = f"top of {names[b - 2]}'s Life Deck"
        else:
            where = "top of their Life Deck" if b else "top of the Draw Deck"
        return f"{who} looks at the {where}: {', '.join(label(c) for c in a) or 'nothing'}."
    if event == E_ARRANGED:
        if b:
            return f"{who} puts back, top first: {', '.join(label(c) for c in a)}."
        return f"{who} rearranges the top {a} cards of the Draw Deck."
    if event == E_SCRY_BOTTOM:
        return f"{who} puts the top card of the Draw Deck on the bottom."
    if event == E_SCRY_TOP:
        return f"{who} leaves the top card of the Draw Deck where it is."
    if event in (E_SIFTED, E_SIFTED_LIFE):
        deck = "the Draw Deck" if event == E_SIFTED else "their Life Deck"
        if isinstance(a, tuple):
            top = f"keeps {', '.join(label(c) for c in a)} on top (top first)" if a else "keeps none on top"
            below = f"puts {', '.join(label(c) for c in b)} at the bottom" if b else "puts none at the bottom"
            return f"{who} {top} and {below} of {deck}."
        return f"{who} puts {_some(b)} of the looked-at cards at the bottom of {deck} and {_some(a)} back on top."
    if event == E_SIFTED_OTHER:  # DD-28: `who` owns the Life Deck; the line before names the sifter
        if isinstance(a, tuple):
            top = f"{', '.join(label(c) for c in a)} stay on top (top first)" if a else "none stay on top"
            below = f"{', '.join(label(c) for c in b)} go to the bottom" if b else "none go to the bottom"
            return f"Of the top of {who}'s Life Deck, {top} and {below}."
        return (f"Of the looked-at cards of {who}'s Life Deck, {_some(b)} {'goes' if b == 1 else 'go'} to the bottom "
                f"and {_some(a)} back on top.")
    if event == E_CULLED:  # DD-29: `who` owns the Life Deck, b is the user
        if isinstance(a, tuple):
            return f"{names[b]} puts {', '.join(label(c) for c in a)} back on top of {who}'s Life Deck (top first)."
        what = f"{label(a)} is discarded from their Life Deck (not damage)." if a else "their Life Deck is empty."
        return f"{names[b]} culls {who}'s Life Deck: {what}"
    if event == E_GAIN_LIFE:
        return f"{who} gains {a} life."
    if event == E_DRAIN:
        what = f"{label(a)} is discarded from their Life Deck." if a else "their Life Deck is empty."
        return f"{names[b]} drains {who}: {what}"
    if event == E_TO_RESERVES:
        return f"{label(a)} goes to {who}'s Reserves."
    if event == E_ROUND_WON:
        extra = f" ({b[0]} extra from {', '.join(label(c) for c in b[1:])})" if b else ""
        return f"{who} wins the round and deals {a} damage to each opponent{extra}."
    if event == E_DAMAGE:
        stopped = f" ({b[0]} stopped by {', '.join(label(c) for c in b[1:])})" if b else ""
        return f"{who} takes {a} damage{stopped}."
    if event == E_DAMAGE_DRAWN:
        return f"{who} draws {', '.join(label(c) for c in a)} from their Life Deck."
    if event == E_KEEP:
        # The next line says where the card goes (E_TO_RESERVES): this one says which, once (DD-31).
        return f"{who} chooses {label(a)} to keep." if b > 1 else f"{who} draws {label(a)} from their Life Deck."
    if event == E_DISCARD:
        return f"{who} discards {', '.join(label(c) for c in a)}."
    if event == E_DEFEATED:
        return f"{who} takes damage with an empty Life Deck and is defeated."
    if event == E_RESERVES_DISCARDED:
        return f"{who}'s {a} Reserve card{'s go' if a != 1 else ' goes'} to the Discard Pile."
    if event == E_GAME_WON:
        return f"{who} is the last player left and wins the game!"
    if event == E_FORTUNE:
        return f"{who}'s fortune is told from {len(a)} remaining Life card{'s' if len(a) != 1 else ''}."
    return f"event {event}"


# Events told twice: to everyone as counts, then to the one who chose as the cards. That one reads the second only
# (DD-31).
TOLD_WHOLE_TO_THE_CHOOSER = frozenset({E_ARRANGED, E_SIFTED, E_SIFTED_LIFE, E_SIFTED_OTHER})


def visible_log(g: Game, seat: int) -> list[LogEntry]:
    """Log entries `seat` may read (public ones and its own private ones). seat -1: public only. Where a private
    entry tells `seat` with the cards what the public one just before it told as counts, `seat` reads it alone."""
    out: list[LogEntry] = []
    for e in g.log:
        if e[4] == -1 or e[4] == seat:
            if (e[4] == seat and e[0] in TOLD_WHOLE_TO_THE_CHOOSER and out and out[-1][4] == -1
                    and out[-1][:2] == e[:2]):
                out[-1] = e
            else:
                out.append(e)
    return out


def fortune_reading(g: Game) -> list[dict[str, Any]]:
    """DD-8.2: present, immediate future, then distant future, with each card's meaning."""
    out = []
    for i, c in enumerate(g.fortune):
        card = g.cs.card(c)
        if i == 0:
            place, meaning = "present", card.fortune_present
        elif i == 1:
            place, meaning = "immediate future", card.fortune_near
        else:
            place, meaning = "distant future", card.fortune_far
        out.append({**_card(g.cs, c), "place": place, "meaning": meaning})
    return out


def observe(g: Game, seat: int, names: list[str] | None = None) -> dict[str, Any]:
    """The JSON-ready observation of `seat` (-1 for a spectator who sees only the public table)."""
    cs = g.cs
    view = PlayerView(g, seat) if seat >= 0 else None
    players = []
    for p in range(g.n):
        players.append({
            "seat": p, "alive": g.alive[p], "in_round": g.in_round[p], "total": g.totals[p],
            "row": [_card(cs, c) for c in g.rows[p]], "reserves": [_card(cs, c) for c in g.reserves[p]],
            "life_size": len(g.life[p]),
        })
    mover = g.to_move()
    obs: dict[str, Any] = {
        "seat": seat, "players": players, "round": g.round_no, "current": g.current, "why": g.why,
        "to_move": mover, "draw_size": len(g.draw), "discard": [_card(cs, c) for c in g.discard],
        "over": g.over, "winner": g.winner, "round_winner": g.round_winner,
        "fortune": fortune_reading(g) if g.over else [],
        "log": [describe(g, e, names) for e in visible_log(g, seat)],
        "prompt": None, "legal": [], "known_draw": [], "known_life": [], "hand_size": len(g.hand),
    }
    if view is not None:
        obs["known_draw"] = [{"position": pos, **_card(cs, c)} for pos, c in view.known_draw()]
        obs["known_life"] = [_card(cs, c) for c in g.life[seat][::-1] if c in g.known_life[seat]]
    if g.queue:
        entry = g.queue[0]
        kind, owner, card = entry[0], entry[1], entry[2]
        prompt: dict[str, Any] = {"kind": PROMPT_NAMES[kind], "seat": owner}
        if kind != P_KEEP:
            prompt["card"] = _card(cs, card)
            prompt["text"] = cs.card(card).text
        if owner == seat:  # only the prompted seat sees the cards the prompt is about
            if kind == P_KEEP:
                prompt["cards"] = [_card(cs, c) for c in g.hand]
            elif kind == P_ARRANGE:
                prompt["cards"] = [_card(cs, c) for c in entry[3]]
            elif kind == P_SCRY:
                prompt["cards"] = [_card(cs, entry[3])]
            elif kind in (P_SIFT_DRAW, P_SIFT_LIFE, P_CULL):
                prompt["cards"] = [_card(cs, c) for c in entry[3]]
        # DD-28, DD-29: whose Life Deck (absent when it is the sifter's own)
        if kind in (P_SIFT_LIFE, P_CULL) and len(entry) > 4:
            prompt["owner"] = entry[4]
        obs["prompt"] = prompt
    if mover == seat and seat >= 0:
        obs["legal"] = [to_notation(d) for d in g.legal()]
    return obs


def frame(g: Game, names: list[str] | None = None) -> dict[str, Any]:
    """What the position shows each viewer: each seat's observation ("0", "1", ...) and the watcher's ("-1")."""
    return {str(seat): observe(g, seat, names) for seat in [*range(g.n), -1]}


def replay_frames(players: int, seed: int, decisions: list[str], cardset: CardSet | None = None,
                  names: list[str] | None = None) -> tuple[list[dict[str, Any]], int | None]:
    """A stored game's frames (docs/rules.md, RV-2): frame k is what the position after k decisions showed each
    viewer, the log's words included; and the index of the first decision these rules refuse (None if none)."""
    g = Game(players, seed, cardset)
    frames = [frame(g, names)]
    for index, text in enumerate(decisions):
        try:
            g.play(parse(text))
        except IllegalDecision:
            return frames, index
        frames.append(frame(g, names))
    return frames, None
