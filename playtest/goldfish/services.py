"""Services of the interactive goldfish table: a person plays a deck against a passive opponent
that holds only training dummies, which it deploys where the person asks (to have something to attack),
or against the AI playing a deck of its own, which answers in the defence step and the response windows as the rules
give it the decision. The AI plays at a level: "quick" (the `matchup` policy, a decision in milliseconds, played in
the request) or "strong" (the `strong` policy, a search of up to a second a decision): the strong level's decisions
in its own main phase are never taken in a web request but by a worker (`table_think`, queued when the person's move
gives the AI the decision), which saves each action as it is taken; the table is `thinking` meanwhile, and the person
can't act (409) until the worker gives the decision back.

The state is rebuilt from seed, nonce and actions on each request; the engine checks every action, so an
illegal one is refused with its rule number and nothing is saved. The seed and nonce are the table's secret until
its game is over (DG-4.6): `table_secrets` says what may be shown of them. The person may concede (`table_concede`):
the game ends there, the opponent winning; the engine's rules have no concession, so the table keeps it (its
`conceded_step`). What each step showed is saved with every move (its frames, docs/rules.md RV-2): the replay reads
them, and after a change of rules they say whether the table plays on or is closed (`table_under_current_rules`,
RV-5).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cards.selectors import catalog_version
from core.errors import DomainError, ErrorCode
from core.frames import extend, first_difference, pack
from core.intbounds import MAX_SEED, seed_problem
from decks.selectors import deck_for_viewer
from playtest.dreadgate import (
    ENGINE_VERSION,
    IllegalAction,
    NotationError,
    State,
    fairness,
    game_frames,
    new_game,
    parse_action,
)
from playtest.dreadgate.actions import DEPLOY, Action
from playtest.dreadgate.board import BACK_RANK, cell_name, parse_cell
from playtest.dreadgate.describe import refusal_words
from playtest.dreadgate.record import game_frames_from, replay_frames
from playtest.dreadgate.state import MAIN_PHASE
from playtest.dreadgate.view import SeatView
from playtest.goldfish.last_move import PlayRead, read_play
from playtest.goldfish.stored import ALL, frames_shown, stored_frames, stored_over
from playtest.jobs.broker import ensure_broker_folders
from playtest.models import GoldfishTable
from playtest.policies import POLICIES
from playtest.policies.classic import passive
from playtest.simulation.games import deck_cards
from playtest.simulation.job_kind import FORMATS, check_deck_format, deck_snapshot

HUMAN_DECK, DUMMY_DECK = 0, 1
AI_TURN_LIMIT = 500  # actions in one "let the AI play this turn", or in one answer of the AI opponent
# The AI's levels at a table against the AI, by the policy that plays each; "quick" is the default.
LEVELS = {"quick": "matchup", "strong": "strong"}
OPPONENT_POLICY = LEVELS["quick"]
# Policies whose decisions in their own main phase search for up to a second: a worker takes them (table_think).
THINKING_POLICIES = frozenset({"strong"})
TABLE_THINK_TASK = "playtest.tasks.table_think"
# The wall-time cap of one decision at the table (runs and benches play by the iteration budget alone): a person
# waits about this long per action of the AI's turn at most.
THINK_SECONDS = 1.0
THINK_STALE_SECONDS = 30  # a decision takes THINK_SECONDS and saving it a moment: much longer, and it was lost
DUMMY_CARD = {
    "collector_number": "X-DUMMY", "name": "Training Dummy", "craft": "universal", "type": "unit",
    "vitality": 2, "attack": 0, "defense": 0, "range": 1, "maneuver": 1,
    "attack_directions": 0, "maneuver_directions": 0,
}  # fmt: skip
DUMMY_DECK_SNAPSHOT = {"id": None, "name": "Training dummies", "legal": True, "cards": {"X-DUMMY": DUMMY_CARD},
                       "list": ["X-DUMMY"] * 40}


class TableRefused(DomainError):
    """An action the rules refuse; carries the rule number and a link to it."""

    default_code = ErrorCode.ILLEGAL_ACTION

    def __init__(self, exc: IllegalAction, state: State | None = None):
        message = exc.message if state is None else refusal_words(state, exc)  # cards by name
        super().__init__(message, details={"rule": exc.rule, "rule_url": exc.anchor})
        self.rule = exc.rule


def table_create(*, owner, deck_id, key: str | None = None, seed: int | None = None,
                 format: str | None = None, opponent_deck_id=None, level: str | None = None,
                 opponent_key: str | None = None) -> GoldfishTable:
    """A table for `deck`; against training dummies, or against the AI playing `opponent_deck_id` at `level` (one of
    LEVELS, "quick" if not given). `key` and `opponent_key`: the keys of unlisted decks' links."""
    if level is not None and level not in LEVELS:
        raise DomainError(f"level: must be one of {', '.join(LEVELS)}", code=ErrorCode.INVALID, status_code=400,
                          details={"field": "level"})
    if level is not None and not opponent_deck_id:
        raise DomainError("level: only a table against the AI has a level; choose the AI's deck (opponent)",
                          code=ErrorCode.INVALID, status_code=400, details={"field": "level"})
    deck = deck_for_viewer(deck_id=deck_id, user=owner, key=key)
    fmt = format or deck.format
    if fmt not in FORMATS:
        raise DomainError(f"format: must be one of {', '.join(FORMATS)}",
                          code=ErrorCode.INVALID, details={"field": "format"})
    params: dict = {"format": fmt, "decks": [deck_snapshot(deck), DUMMY_DECK_SNAPSHOT]}
    if opponent_deck_id:
        try:
            opponent = deck_for_viewer(deck_id=opponent_deck_id, user=owner, key=opponent_key or None)
        except DomainError as exc:
            # its own code (deck_not_found, as the runs' and tunings' own refusal of the deck says), named as the
            # opponent
            raise DomainError(f"opponent: {exc.message}", code=exc.code, status_code=exc.status_code,
                              details={**exc.details, "field": "opponent"}) from exc
        check_deck_format(opponent, fmt, "opponent")
        params["decks"][1] = deck_snapshot(opponent)
        params["opponent_policy"] = LEVELS[level or "quick"]
    if seed is not None and seed_problem(seed):
        raise DomainError(seed_problem(seed), code=ErrorCode.INVALID, status_code=400, details={"field": "seed"})
    seed = random.SystemRandom().randrange(MAX_SEED) if seed is None else seed
    # An owner's seed alone determines nothing: the server's nonce is mixed into every random source (DG-4.6).
    nonce = new_nonce()
    table = GoldfishTable(
        owner=owner, deck=deck, seed=seed, nonce=nonce, commitment=fairness.commitment(seed, nonce),
        params=params, engine_version=ENGINE_VERSION, catalog_version=catalog_version(),
    )
    try:
        state = table_state(table)
    except Exception as exc:  # the engine can't set up this deck
        raise DomainError(f"The deck can't be played: {exc}", code=ErrorCode.DECK_UNPLAYABLE,
                          details={"field": "deck"}) from exc
    table.seat = human_seat(state)
    with transaction.atomic():  # a worker sent to think for the AI finds the table saved
        _advance_opponent(table, state)
        _keep_frames(table, state)
        table.save()
    return table


def new_nonce() -> str:
    return secrets.token_hex(fairness.NONCE_BYTES)


def _new_game(table: GoldfishTable) -> State:
    decks = [deck_cards(d) for d in table.params["decks"]]
    return new_game(decks, fairness.game_seed(table.seed, table.nonce), table.params["format"])


def table_state(table: GoldfishTable, steps: int | None = None) -> State:
    """The table's game (after its first `steps` actions, if given). A table opened under rules since changed is
    first replayed under the current ones (table_under_current_rules); one they closed has no game to play: it is
    refused with rule RV-5 (its replay shows it)."""
    if not table_shown(table):
        raise DomainError(f"This table was played under rules version {table.engine_version}, since changed: its "
                          "game can't be played on, and its replay shows it as it was (rule RV-5).",
                          code=ErrorCode.RULES_CHANGED, status_code=409,
                          details={"engine_version": table.engine_version, "rule": "RV-5"})  # fmt: skip
    state = _new_game(table)
    for action in table.actions if steps is None else table.actions[:steps]:
        state.apply(tuple(action))
    return state


def _keep_frames(table: GoldfishTable, state: State, stored: int | None = None) -> None:
    """What each step of the game so far showed each seat, and in full (docs/rules.md, RV-2). `stored`: the number of
    actions whose frames the table holds (those before a move): the frames of the steps after them are added to
    the stored ones, so that a move costs its own steps, not the whole game's again."""
    if stored and table.frames:
        table.frames = extend(table.frames, game_frames_from(state, stored))
    else:
        table.frames = pack(game_frames(state))


def table_under_current_rules(table: GoldfishTable) -> GoldfishTable:
    """After a change of rules (docs/rules.md, RV-5): a table not yet over, of an older rules version, is replayed
    under the current rules. Where every step shows what its stored frames show, it plays on under them; where a
    step differs (or an action is refused, or it has no frames to compare), it is closed at that step and stays
    viewable from its frames. A finished table keeps its version and is shown from its frames (RV-4). Updates
    `table` too; returns it."""
    if table.engine_version == ENGINE_VERSION or table.closed_under or table.conceded_step is not None:
        return table  # a conceded game is over: kept as it was played (RV-4)
    with transaction.atomic():
        locked = GoldfishTable.objects.select_for_update().get(pk=table.pk)
        stored = stored_frames(locked.frames)
        if (locked.engine_version != ENGINE_VERSION and not locked.closed_under and locked.conceded_step is None
                and not stored_over(stored)):
            try:
                replayed, _ = replay_frames(_new_game(locked), locked.actions)
            except Exception:  # the current rules can't even set the game up
                replayed = []
            step = 0 if stored is None else first_difference(stored, replayed)
            if step is None:
                locked.engine_version, locked.frames = ENGINE_VERSION, pack(replayed)
            else:
                locked.closed_step, locked.closed_under = step, ENGINE_VERSION
            locked.save(update_fields=["engine_version", "frames", "closed_step", "closed_under", "updated_at"])
    for field in ("engine_version", "frames", "closed_step", "closed_under", "updated_at"):
        setattr(table, field, getattr(locked, field))
    return table


def table_shown(table: GoldfishTable) -> bool:
    """Whether the table is played by the current rules (after table_under_current_rules); if not, it is shown
    from its stored frames: finished under older rules (RV-4), or closed by a change of rules (RV-5)."""
    table_under_current_rules(table)
    return table.engine_version == ENGINE_VERSION and not table.closed_under


def human_seat(state: State) -> int:
    return state.deck_of_seat.index(HUMAN_DECK)


def _apply(table: GoldfishTable, state: State, action: Action) -> None:
    state.apply(action)
    table.actions.append(list(action))


def opponent_policy(table: GoldfishTable) -> str | None:
    """The AI policy that plays the opponent, or None for the passive opponent with training dummies."""
    return table.params.get("opponent_policy")


def table_level(table: GoldfishTable) -> str | None:
    """The AI's level ("quick", "strong"), or None at a table against training dummies."""
    policy = opponent_policy(table)
    return next((level for level, name in LEVELS.items() if name == policy), policy)


def _thinks(policy: str, state: State) -> bool:
    """Whether the AI's decision now is one a worker takes: a search in its own main phase (its answers in the
    person's turn and its choices of targets are the quick level's, played at once)."""
    return policy in THINKING_POLICIES and state.phase == MAIN_PHASE and len(state.legal_actions()) > 1


def opponent_rng(table: GoldfishTable) -> random.Random:
    """The AI opponent's random source for a stretch of its decisions (those it takes before the person has the
    decision again): one source, so the plan of its turn carries from one decision to the next as it does in runs;
    drawn from the actions before the stretch, so the same after an undo and not to be foreseen without the nonce
    (DG-4.6)."""
    return random.Random(fairness.opponent_seed(table.seed, table.nonce, len(table.actions)))


def _opponent_action(state: State, policy: str, rng: random.Random, deadline: float | None = None) -> Action:
    play = POLICIES[policy]
    if deadline is not None and hasattr(play, "with_deadline"):
        play = play.with_deadline(deadline)
    return play(SeatView(state, 1 - human_seat(state)), rng)


def _advance_opponent(table: GoldfishTable, state: State) -> None:
    """The opponent takes its decisions: the AI plays its deck, or the passive opponent deploys waiting dummies
    where it may. A decision the AI thinks about (the strong level) is left to a worker, sent when this transaction
    commits; the table is marked as thinking until it has played."""
    me = human_seat(state)
    policy = opponent_policy(table)
    if policy is not None:
        rng = opponent_rng(table)
        for _ in range(AI_TURN_LIMIT):
            if state.is_over() or state.current_player != 1 - me:
                break
            if _thinks(policy, state):
                table.thinking_since = timezone.now()
                transaction.on_commit(partial(_send_think, table.pk))
                break
            _apply(table, state, _opponent_action(state, policy, rng))
        return
    while not state.is_over() and state.current_player == 1 - me:
        legal = state.legal_actions()
        dummy = next((a for a in legal if a[0] == DEPLOY and cell_name(a[2]) in table.dummies), None)
        if dummy:
            table.dummies.remove(cell_name(dummy[2]))
        _apply(table, state, dummy or passive(SeatView(state, 1 - me), random.Random(0)))


def _send_think(table_id) -> None:
    ensure_broker_folders()  # the embedded (filesystem) broker needs its folders
    current_app.send_task(TABLE_THINK_TASK, args=[str(table_id)], queue=settings.PLAYTEST_TABLE_QUEUE)


def table_thinking(table: GoldfishTable) -> bool:
    """Whether a worker is playing the AI's decisions (the person waits)."""
    return table.thinking_since is not None


def table_think(*, table_id) -> int:
    """The worker's part (playtest.tasks.table_think): play the AI's decisions of a thinking table, one at a time,
    until the person has the decision (or the game ends), saving each action as it is taken so the table shows it.
    A decision is worked out outside any lock (up to THINK_SECONDS of search) and saved only if the table is
    still where it was, so a task delivered twice plays nothing twice. Returns the actions played."""
    played, rng = 0, None
    for _ in range(AI_TURN_LIMIT):
        table = GoldfishTable.objects.filter(pk=table_id).first()
        if table is None or table.thinking_since is None:
            return played
        state = table_state(table)
        policy = opponent_policy(table)
        done = policy is None or table_over(table, state) or state.current_player == human_seat(state)
        rng = rng or opponent_rng(table)
        action = None if done else _opponent_action(state, policy, rng, THINK_SECONDS)
        with transaction.atomic():
            locked = GoldfishTable.objects.select_for_update().get(pk=table_id)
            if locked.thinking_since is None or len(locked.actions) != len(table.actions):
                continue  # another delivery played it, or it was given back: look again
            if action is not None:
                _apply(locked, state, action)
                played += 1
                _keep_frames(locked, state, stored=len(locked.actions) - 1)
            still = action is not None and not state.is_over() and state.current_player != human_seat(state)
            locked.thinking_since = timezone.now() if still else None  # its progress, for table_think_resend
            locked.save(update_fields=["actions", "frames", "thinking_since", "updated_at"])
    return played


def think_stale_before() -> datetime:
    """A table thinking since before this has thought for THINK_STALE_SECONDS without an action."""
    return timezone.now() - timedelta(seconds=THINK_STALE_SECONDS)


def table_think_resend(table: GoldfishTable) -> bool:
    """Send the thinking task again when the table has thought for THINK_STALE_SECONDS without an action (its
    message or worker was lost; a duplicate plays nothing twice). Whether it was sent."""
    since = table.thinking_since
    if since is None or since > think_stale_before():
        return False
    if not GoldfishTable.objects.filter(pk=table.pk, thinking_since=since).update(thinking_since=timezone.now()):
        return False  # it moved on meanwhile, or another request sent it
    _send_think(table.pk)
    return True


def _not_while_thinking(table: GoldfishTable) -> None:
    if table_thinking(table):
        raise DomainError("The AI is thinking about its move: wait until it has played (its actions show on the "
                          "table as it takes them).", code=ErrorCode.AI_THINKING, status_code=409)


@dataclass(frozen=True, slots=True)
class Shown:
    """The table's actions as its person was shown them (DG-15.7): a pass in a response window offered to the
    opponent is not, and takes no step of its own, so that no number the table's page or the API carries (a form's
    step, `?at=N`, the replay's steps) counts those passes, which would tell that the opponent held an instant."""

    bounds: list[int]  # step k: the table after its first bounds[k] actions (the k-th shown, the passes hidden after)
    seen: list[bool]  # per action: shown to the person
    theirs: list[bool]  # per action: the opponent's

    @property
    def last(self) -> int:
        """The live table's step."""
        return len(self.bounds) - 1


def game_read(state: State) -> PlayRead:
    """The table's game, `state`, read in one replay as its person sees it: the opponent's last move, the log, the
    actions shown (last_move.read_play)."""
    return read_play(state.replay(()), state.history, human_seat(state))


def steps_shown(state: State, play: PlayRead | None = None) -> Shown:
    """The steps of the table whose game `state` is (all of its actions played), as its person was shown them;
    from `play`, the game read already (read_play of its whole history), without replaying it again."""
    play = play or game_read(state)
    bounds = [0]
    for seen in play.seen:
        if seen:
            bounds.append(bounds[-1] + 1)
        else:
            bounds[-1] += 1
    return Shown(bounds, list(play.seen), list(play.theirs))


def opponent_steps(table: GoldfishTable, shown: Shown) -> tuple[list[int], int] | None:
    """The steps (`?at=N`, of `shown`'s numbering) that play the opponent's actions out one by one after the person's
    last move: the one before its first action, then the one after each action the person is shown, the last of which
    is the live table (not listed); and how many actions those are. None if the opponent took no action the person
    sees."""
    if not table.human_moves:
        return None
    steps: list[int] = []
    count = 0
    step = sum(shown.seen[:table.human_moves[-1]])  # the step the person's last move began at
    for index in range(table.human_moves[-1], len(shown.seen)):
        if shown.theirs[index]:
            steps = steps or [step]
            count += shown.seen[index]
        step += shown.seen[index]
        if shown.theirs[index] and shown.seen[index] and step < shown.last:
            steps.append(step)
    return (steps, count) if count else None


def table_over(table: GoldfishTable, state: State | None = None) -> bool:
    """Whether the table's game has ended: over, conceded, or closed by a change of rules (nothing more can be played
    in it, RV-5). A table of older rules is over where its stored frames say so; without them it counts as running,
    so its secrets stay kept (RV-6)."""
    if table.conceded_step is not None:
        return True
    if state is None:
        if not table_shown(table):
            return bool(table.closed_under) or stored_over(stored_frames(table.frames))
        state = table_state(table)
    return state.is_over()


def table_secrets(table: GoldfishTable, state: State | None = None) -> dict[str, Any]:
    """What may be shown of the table's randomness (DG-4.6): its commitment always, its seed and nonce once the game
    is over (None before; an empty nonce for a table opened before nonces)."""
    over = table_over(table, state)
    return {"commitment": table.commitment, "over": over,
            "seed": table.seed if over else None, "nonce": table.nonce if over else None}


def table_replay(table: GoldfishTable) -> tuple[list[dict[str, Any]] | None, str, int | None]:
    """The table's stored frames for the replay viewer (docs/rules.md, RV-2); the view it shows: the person's seat
    while the game runs (DG-2.6, DG-4.6), every card ("all") once it has ended; and the person's seat, from whose
    side the board is drawn (None where nothing was stored of it)."""
    frames = stored_frames(table.frames)
    seat = table.seat
    if table_shown(table) and (frames is None or seat is None):  # stored before frames existed and missed by them
        state = table_state(table)
        frames, seat = game_frames(state), human_seat(state)
    viewer = ALL if table_over(table) or seat is None else str(seat)
    return (frames if viewer == ALL or frames is None else frames_shown(frames, viewer)), viewer, seat


def _your_decision(table: GoldfishTable, state: State) -> None:
    if table_over(table, state):
        raise TableRefused(IllegalAction("DG-1.2", "the game is over"))
    if state.current_player != human_seat(state):
        raise TableRefused(IllegalAction("DG-5.9", "it is not your decision"))


def _as_seen(table: GoldfishTable, seen: int | None, state: State | None = None) -> None:
    """Refuses a move made on a page that showed the table at another step (`seen`, of `steps_shown`'s numbering;
    None: not said, as by the API): played now, it would be played in a position its player never saw. `state`: the
    table's game, if at hand."""
    if seen is None:
        return
    if seen != (now := steps_shown(state or table_state(table)).last):
        raise DomainError("The table has moved on since this page showed it: here it is now, and nothing was "
                          "played.", code=ErrorCode.STALE_TURN, status_code=409, details={"step": now})


def _human_move(table: GoldfishTable, play, seen: int | None = None) -> State:
    """One undoable move of the person: `play(table, state)` applies actions to the locked table;
    then the opponent answers and everything is saved (nothing is, if `play` raises)."""
    with transaction.atomic():
        table = GoldfishTable.objects.select_for_update().get(pk=table.pk)
        state = table_state(table)
        _as_seen(table, seen, state)
        _not_while_thinking(table)
        _your_decision(table, state)
        start = len(table.actions)
        play(table, state)
        table.human_moves.append(start)
        _advance_opponent(table, state)
        _keep_frames(table, state, stored=start)
        table.save(update_fields=["actions", "human_moves", "dummies", "frames", "thinking_since", "updated_at"])
    return state


def table_act(*, table: GoldfishTable, action: Action, seen: int | None = None) -> State:
    def play(table: GoldfishTable, state: State) -> None:
        try:
            _apply(table, state, action)
        except IllegalAction as exc:
            raise TableRefused(exc, state) from exc

    return _human_move(table, play, seen)


def table_act_notation(*, table: GoldfishTable, text: str, seen: int | None = None) -> State:
    """An action typed in the notation (`deploy Ardent Page a5`)."""
    state = table_state(table)  # refuses a table closed by a change of rules (RV-5)
    try:
        action = parse_action(state, text)
    except NotationError as exc:
        raise DomainError(f"notation: {exc}", code=ErrorCode.INVALID, details={"field": "notation"}) from exc
    return table_act(table=table, action=action, seen=seen)


def table_ai_turn(*, table: GoldfishTable, seen: int | None = None) -> State:
    """Let the goldfish AI play the rest of the person's turn (one undo takes it back)."""

    def play(table: GoldfishTable, state: State) -> None:
        me, turn = human_seat(state), state.turn
        rng = random.Random(fairness.helper_seed(table.seed, table.nonce, len(table.actions)))
        for _ in range(AI_TURN_LIMIT):
            if state.is_over() or state.current_player != me or state.turn != turn:
                break
            _apply(table, state, POLICIES["goldfish"](SeatView(state, me), rng))

    return _human_move(table, play, seen)


@transaction.atomic
def table_undo(*, table: GoldfishTable, seen: int | None = None) -> State:
    table = GoldfishTable.objects.select_for_update().get(pk=table.pk)
    _as_seen(table, seen)
    _not_while_thinking(table)
    table_state(table, steps=0)  # refuses a table closed by a change of rules (RV-5)
    if not table.human_moves:
        raise TableRefused(IllegalAction("DG-4.1", "there is nothing to undo"))
    if table_over(table):  # its seed and nonce are revealed: a game taken back from there would hold no secret
        raise TableRefused(IllegalAction("DG-4.6", "the game is over and its seed revealed, so it can't be undone"))
    start = table.human_moves.pop()
    undone = table.actions[start:]
    table.actions = table.actions[:start]
    state = table_state(table)
    if opponent_policy(table) is None:
        # The dummies the passive opponent deployed in the undone actions are requested again (its deck holds
        # nothing else, and only it deploys on its own back rank); the AI plays the same again by itself.
        rank = BACK_RANK[1 - human_seat(state)]
        again = [cell_name(a[2]) for a in undone if a[0] == DEPLOY and a[2] in rank]
        table.dummies = list(dict.fromkeys([*again, *table.dummies]))
    _keep_frames(table, state)
    table.save(update_fields=["actions", "human_moves", "dummies", "frames", "updated_at"])
    return state


@transaction.atomic
def table_place_dummy(*, table: GoldfishTable, cell: str) -> State:
    """Ask for a training dummy on the opponent's back rank; it is deployed on the opponent's next turn."""
    table = GoldfishTable.objects.select_for_update().get(pk=table.pk)
    _not_while_thinking(table)
    state = table_state(table)
    if table_over(table, state):
        raise TableRefused(IllegalAction("DG-1.2", "the game is over"))
    index = parse_cell((cell or "").strip().lower())  # "A1" is a1, as the board's labels are read
    opponent_rank = BACK_RANK[1 - human_seat(state)]
    if index is None or index not in opponent_rank:
        allowed = ", ".join(cell_name(c) for c in opponent_rank)
        raise DomainError(f"cell: a dummy goes on the opponent's back rank ({allowed})", code=ErrorCode.INVALID,
                          details={"field": "cell", "rule": "DG-7.1"})
    name = cell_name(index)
    if name not in table.dummies:
        table.dummies.append(name)
    stored = len(table.actions)
    _advance_opponent(table, state)
    _keep_frames(table, state, stored=stored)
    table.save(update_fields=["actions", "dummies", "frames", "updated_at"])
    return state


@transaction.atomic
def table_concede(*, table: GoldfishTable) -> State:
    """The person gives the game up: it ends where it stands, the opponent winning, and its seed and nonce are
    revealed (DG-4.6); the replay shows it to the step conceded at. A game already over is refused (DG-1.2)."""
    table = GoldfishTable.objects.select_for_update().get(pk=table.pk)
    _not_while_thinking(table)
    state = table_state(table)  # refuses a table closed by a change of rules (RV-5)
    if table_over(table, state):
        raise TableRefused(IllegalAction("DG-1.2", "the game is over"))
    table.conceded_step = len(table.actions)
    table.save(update_fields=["conceded_step", "updated_at"])
    return state
