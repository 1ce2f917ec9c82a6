"""Writes for Dread Draw tables: create, join, act. The engine decides what is legal; these
functions decide who may act, store the decisions, and let the bots play their turns."""

from __future__ import annotations

import json
import random
import secrets
import zlib
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.db import transaction

from core.errors import DomainError, ErrorCode
from core.frames import FramesError, first_difference, pack, unpack
from core.intbounds import MAX_SEED, seed_problem
from core.invisible import control_in
from dreaddraw.engine import (
    ENGINE_VERSION,
    CardSet,
    CardSetError,
    Game,
    IllegalDecision,
    PlayerView,
    fairness,
    game_from_dict,
    game_to_dict,
    load_cardset,
    parse,
    replay,
    replay_frames,
    to_notation,
)
from dreaddraw.engine.bots import make_bot
from dreaddraw.engine.game import MAX_PLAYERS, MIN_PLAYERS
from dreaddraw.engine.observation import frame

from .models import BOT_LABELS, BotLevel, DreadDrawSeat, DreadDrawTable, SeatKind, TableStatus, seat_names

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User



class IllegalDecisionError(DomainError):
    """An engine refusal, carried to the API and pages with its rule number."""

    status_code = 400
    default_code = ErrorCode.ILLEGAL_DECISION


def _seat_specs(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not isinstance(seats, list) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise DomainError(f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} seats.", code=ErrorCode.INVALID_SEATS,
                          details={"field": "seats"})
    out = []
    for i, raw in enumerate(seats):
        where = f"seats[{i}]"
        if not isinstance(raw, dict):
            raise DomainError(f"{where}: expected an object with 'kind'.", code=ErrorCode.INVALID_SEATS,
                              details={"field": where})
        kind = raw.get("kind")
        if kind not in SeatKind.values:
            raise DomainError(f"{where}.kind must be one of {', '.join(SeatKind.values)}.",
                              code=ErrorCode.INVALID_SEATS,
                              details={"field": f"{where}.kind"})
        bot = raw.get("bot") or ""
        if kind == SeatKind.BOT and bot not in BotLevel.values:
            raise DomainError(f"{where}.bot must be one of {', '.join(BotLevel.values)}.", code=ErrorCode.INVALID_SEATS,
                              details={"field": f"{where}.bot"})
        if kind != SeatKind.BOT:
            bot = ""
        name = str(raw.get("name") or "").strip()[:40]
        if control := control_in(name):  # shown to every seat: nothing in it reorders or hides the words around it
            raise DomainError(f"{where}.name cannot hold control characters (a tab, a line break, a direction "
                              f"override and the like); it holds {control}.", code=ErrorCode.INVALID_SEATS,
                              details={"field": f"{where}.name"})
        if not name:
            name = BOT_LABELS[bot] if bot else ("Player" if kind == SeatKind.LOCAL else "Guest") + f" {i + 1}"
        out.append({"kind": kind, "bot": bot, "name": name})
    if all(s["kind"] == SeatKind.BOT for s in out):
        raise DomainError("At least one seat must be a person.",
                          code=ErrorCode.INVALID_SEATS, details={"field": "seats"})
    return out


def table_game(table: DreadDrawTable) -> Game:
    """The table's game, rebuilt from its seed, nonce and decisions under the card set it was started with (an
    older set stays loadable by its version, so an old table replays exactly as played, DD-26). Only a table of
    the current rules has one: table_shown says which, after a change of rules (RV-5)."""
    if table.engine_version != ENGINE_VERSION or table.closed_under:
        raise DomainError(f"This table was played under rules version {table.engine_version}, since changed: it is "
                          "shown as it was stored, and can't be played on (rule RV-5).", code=ErrorCode.RULES_CHANGED,
                          status_code=409, details={"engine_version": table.engine_version})  # fmt: skip
    cardset = load_cardset(version=table.set_version)
    return (_from_snapshot(table, cardset)
            or replay(table.players, fairness.game_seed(table.seed, table.nonce), table.decisions, cardset))


def _snapshot(table: DreadDrawTable, game: Game) -> bytes:
    doc = {"rules": ENGINE_VERSION, "decisions": len(table.decisions), "game": game_to_dict(game)}
    return zlib.compress(json.dumps(doc, separators=(",", ":")).encode())


def _from_snapshot(table: DreadDrawTable, cardset: CardSet) -> Game | None:
    """The game as its snapshot keeps it, if the snapshot was taken under these rules after its last decision;
    else None (the game is then replayed from its decisions, as before snapshots were kept)."""
    if not table.snapshot:
        return None
    try:
        doc = json.loads(zlib.decompress(bytes(table.snapshot)))
        if doc["rules"] != ENGINE_VERSION or doc["decisions"] != len(table.decisions):
            return None
        return game_from_dict(doc["game"], cardset)
    except (zlib.error, ValueError, KeyError, TypeError):
        return None


def _names(table: DreadDrawTable) -> list[str]:
    return seat_names(table.seats.all())


def _replayed_frames(table: DreadDrawTable) -> tuple[list[dict[str, Any]], int | None]:
    return replay_frames(table.players, fairness.game_seed(table.seed, table.nonce), table.decisions,
                         load_cardset(version=table.set_version), _names(table))


def _frames_so_far(table: DreadDrawTable) -> list[dict[str, Any]]:
    """The table's stored frames (docs/rules.md, RV-2), one per decision and the start; made again from its
    decisions where they are missing or behind."""
    if table.frames:
        try:
            frames = unpack(table.frames)
        except FramesError:
            frames = []
        if len(frames) == len(table.decisions) + 1:
            return frames
    return _replayed_frames(table)[0]


def table_under_current_rules(table: DreadDrawTable) -> DreadDrawTable:
    """After a change of rules (docs/rules.md, RV-5): a table not yet over, of an older rules version, is replayed
    under the current rules. Where every step shows what its stored frames show (the log's words aside), it plays
    on under them, its frames told in the current words; where a step differs (or a decision is refused), it is
    closed at that step and stays viewable from its frames. A
    finished table keeps its version and is shown from its frames (RV-4). Updates `table` too; returns it."""
    if table.engine_version == ENGINE_VERSION or table.closed_under or table.status == TableStatus.OVER:
        return table
    with transaction.atomic():
        locked = DreadDrawTable.objects.select_for_update().get(pk=table.pk)
        if locked.engine_version != ENGINE_VERSION and not locked.closed_under and locked.status != TableStatus.OVER:
            try:
                stored = unpack(locked.frames) if locked.frames else None
                replayed, refused = _replayed_frames(locked)
            except (FramesError, CardSetError):
                stored, replayed, refused = None, [], 0
            step = None if stored is None else first_difference(_positions(stored), _positions(replayed))
            if stored is not None and refused is None and step is None:
                locked.engine_version, locked.frames = ENGINE_VERSION, pack(replayed)
            else:
                locked.closed_step = 0 if step is None else step
                locked.closed_under = ENGINE_VERSION
            locked.save(update_fields=["engine_version", "frames", "closed_step", "closed_under", "updated_at"])
    for field in ("engine_version", "frames", "closed_step", "closed_under", "updated_at", "status"):
        setattr(table, field, getattr(locked, field))
    return table


def _positions(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each step showed each viewer but the log's words (RV-5: new words for the same events are not new
    rules; the table plays on, told in the new words)."""
    return [{viewer: {key: value for key, value in shown.items() if key != "log"} for viewer, shown in frame.items()}
            for frame in frames]


def table_shown(table: DreadDrawTable) -> Game | None:
    """The game the table page plays, or None where the table is shown from its stored frames: played, or
    closed, under rules since changed (RV-4, RV-5)."""
    table = table_under_current_rules(table)
    if table.engine_version != ENGINE_VERSION or table.closed_under:
        return None
    return table_game(table)


def new_nonce() -> str:
    return secrets.token_hex(fairness.NONCE_BYTES)


@transaction.atomic
def table_create(*, owner: User, seats: list[dict[str, Any]], seed: int | None = None,
                 rematch_of: DreadDrawTable | None = None) -> DreadDrawTable:
    specs = _seat_specs(seats)
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
    elif seed_problem(seed):
        raise DomainError(seed_problem(seed), code=ErrorCode.INVALID, status_code=400, details={"field": "seed"})
    # A creator's seed alone determines nothing: the server's nonce is mixed into every shuffle.
    nonce = new_nonce()
    waiting = any(s["kind"] == SeatKind.INVITE for s in specs)
    table = DreadDrawTable.objects.create(
        owner=owner, players=len(specs), seed=seed, nonce=nonce, commitment=fairness.commitment(seed, nonce),
        set_version=load_cardset().version, engine_version=ENGINE_VERSION,
        status=TableStatus.WAITING if waiting else TableStatus.PLAYING, rematch_of=rematch_of,
    )
    DreadDrawSeat.objects.bulk_create(
        DreadDrawSeat(table=table, index=i, kind=s["kind"], bot=s["bot"], name=s["name"]) for i, s in enumerate(specs)
    )
    frames = _frames_so_far(table)
    game = table_game(table)
    if not waiting:
        _play_bots(table, game, frames)
    table.frames, table.snapshot = pack(frames), _snapshot(table, game)
    table.save()
    return table


@transaction.atomic
def table_rematch(*, table_id: UUID, user: User) -> DreadDrawTable:
    """"Play again": a new table with the finished one's seats (people at this screen, the same bots, open seats
    for invited people, who join the new table by its link) and a new seed. Only the table's creator starts it,
    since the local seats are theirs. The finished table leads its players to it, so it is started once: asked
    again (a second click, another tab), it is the one already started."""
    table = DreadDrawTable.objects.select_for_update().get(pk=table_id)
    if table.owner_id != getattr(user, "pk", None):
        raise DomainError("Only the table's creator can start it again (the local seats are theirs).",
                          code=ErrorCode.NOT_TABLE_OWNER, status_code=403)
    if table.status != TableStatus.OVER:
        raise DomainError("The game is not over yet: finish it before playing again.", code=ErrorCode.TABLE_NOT_OVER,
                          status_code=409)
    if started := table.rematches.order_by("-created_at").first():
        return started
    seats = [{"kind": s.kind, "bot": s.bot, "name": s.name if s.kind != SeatKind.INVITE else ""}
             for s in sorted(table.seats.all(), key=lambda s: s.index)]
    return table_create(owner=user, seats=seats, rematch_of=table)


def viewer_seat(game: Game, seats: set[int]) -> int:
    """The seat to show someone who plays `seats`: the one to move if theirs, else their first;
    -1 (the public table) for a watcher."""
    mover = game.to_move()
    return mover if mover in seats else (min(seats) if seats else -1)


def seats_of(table: DreadDrawTable, user: AbstractBaseUser | AnonymousUser | None) -> set[int]:
    """The seats `user` plays: the creator plays the local seats, a guest the seat they joined."""
    if not user or not user.is_authenticated:
        return set()
    out = set()
    for seat in table.seats.all():
        local = seat.kind == SeatKind.LOCAL and table.owner_id == user.pk
        guest = seat.kind == SeatKind.INVITE and seat.user_id == user.pk
        if local or guest:
            out.add(seat.index)
    return out


@transaction.atomic
def table_join(*, table_id: UUID, user: User) -> DreadDrawTable:
    table = DreadDrawTable.objects.select_for_update().get(pk=table_id)
    seats = list(table.seats.all())
    if any(s.user_id == user.pk for s in seats):
        return table
    if table.owner_id == user.pk:
        raise DomainError("You created this table: you play its local seats, the open seats are for others.",
                          code=ErrorCode.OWNER_CANNOT_JOIN, status_code=409)
    free = [s for s in seats if s.kind == SeatKind.INVITE and s.user_id is None]
    if not free:
        raise DomainError("This table has no free seat.", code=ErrorCode.TABLE_FULL, status_code=409)
    seat = free[0]
    seat.user = user
    seat.name = user.get_username()[:40]
    seat.save(update_fields=["user", "name"])
    frames = _replayed_frames(table)[0]  # the seat's new name is in every frame's words
    if len(free) == 1 and table.status == TableStatus.WAITING:
        table.status = TableStatus.PLAYING
        game = table_game(table)
        _play_bots(table, game, frames)
        table.snapshot = _snapshot(table, game)
    table.frames = pack(frames)
    table.save()
    return table


@transaction.atomic
def table_act(*, table_id: UUID, user: AbstractBaseUser | AnonymousUser, seat: int, decision: str,
              turn: int | None = None) -> tuple[DreadDrawTable, Game]:
    """Play `decision` for `seat`; refused (state unchanged) with the rule number if the rules forbid it."""
    table = DreadDrawTable.objects.select_for_update().get(pk=table_id)
    if table.status == TableStatus.WAITING:
        raise DomainError("The table is waiting for players to join.", code=ErrorCode.TABLE_WAITING, status_code=409)
    if seat not in seats_of(table, user):
        # The page numbers seats from 1, the API's `seat` from 0: a refusal names both, so neither reader is misled.
        raise DomainError(f"You do not play seat {seat + 1} at this table (seat {seat}, counted from 0 as the "
                          "API counts).",
                          code=ErrorCode.NOT_YOUR_SEAT, status_code=403,
                          details={"seat": seat})
    if turn is not None and turn != len(table.decisions):
        raise DomainError("The game has moved on since this page was drawn; here is the current state.",
                          code=ErrorCode.STALE_TURN, status_code=409, details={"turn": len(table.decisions)})
    table = table_under_current_rules(table)
    game = table_game(table)  # refuses a table closed by a change of rules (RV-5)
    frames = _frames_so_far(table)
    try:
        game.check_open()  # a finished game is said so, whatever the decision sent
        d = parse(decision)
        game.apply(seat, d)
    except IllegalDecision as exc:
        raise IllegalDecisionError(str(exc), details={"rule": exc.rule, "seat": seat, "decision": decision}) from None
    table.decisions = [*table.decisions, to_notation(d)]
    frames.append(frame(game, _names(table)))
    _play_bots(table, game, frames)
    table.frames, table.snapshot = pack(frames), _snapshot(table, game)
    table.save()
    return table, game


def _play_bots(table: DreadDrawTable, game: Game, frames: list[dict[str, Any]]) -> None:
    """Let bot seats play until a person must decide (or the game ends); record their decisions, and append what
    each step showed to `frames`."""
    bots = {s.index: s.bot for s in table.seats.all() if s.kind == SeatKind.BOT}
    decisions = list(table.decisions)
    for _ in range(10_000):
        if game.over:
            break
        seat = game.to_move()
        level = bots.get(seat)
        if not level:
            break
        bot = make_bot(level, seed=fairness.bot_seed(table.seed, table.nonce, len(decisions)))
        d = bot.choose(PlayerView(game, seat))
        game.apply(seat, d)
        decisions.append(to_notation(d))
        frames.append(frame(game, _names(table)))
    table.decisions = decisions
    table.to_move = None if game.over else game.to_move()
    if game.over:
        table.status = TableStatus.OVER
        table.winner_seat = game.winner
