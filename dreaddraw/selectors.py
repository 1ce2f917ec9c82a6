"""Reads for the Dread Draw pages and API: the card set and the tables."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.db.models import Q, QuerySet

from core.errors import DomainError, ErrorCode

from .models import BOT_LABELS, DreadDrawCard, DreadDrawKeyword, bot_name, seat_names

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from .engine import CardSet, Game
    from .models import DreadDrawSeat, DreadDrawTable

    User = AbstractBaseUser | AnonymousUser

KEYWORD_VALUES = [k for k in DreadDrawKeyword.values if k] + ["none"]


def _int_param(params: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    raw = (params.get(name) or "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise DomainError(f"{name} must be a whole number from {low} to {high}, not {raw!r}.",
                          code=ErrorCode.INVALID_FILTER,
                          details={"field": name, "value": raw})
    return value


def dreaddraw_card_filters(params: Mapping[str, str]) -> dict[str, Any]:
    """Validate the card-list filters (query string): q, strength, damage, keyword."""
    keyword = (params.get("keyword") or "").strip().lower()
    if keyword and keyword not in KEYWORD_VALUES:
        raise DomainError(f"keyword must be one of {', '.join(KEYWORD_VALUES)}, not {keyword!r}.",
                          code=ErrorCode.INVALID_FILTER, details={"field": "keyword", "value": keyword})
    q = (params.get("q") or "").strip()
    if len(q) > 100:
        raise DomainError("q is limited to 100 characters.", code=ErrorCode.INVALID_FILTER, details={"field": "q"})
    return {
        "q": q, "keyword": keyword, "strength": _int_param(params, "strength", 0, 99),
        "damage": _int_param(params, "damage", 0, 99),
    }


def dreaddraw_card_list(*, q: str = "", keyword: str = "", strength: int | None = None,
                        damage: int | None = None) -> QuerySet[DreadDrawCard]:
    cards = DreadDrawCard.objects.all()
    if q:
        cards = cards.filter(
            Q(name__icontains=q) | Q(text__icontains=q) | Q(fortune_present__icontains=q)
            | Q(fortune_near__icontains=q) | Q(fortune_far__icontains=q)
        )
    if keyword == "none":
        cards = cards.filter(keyword="")
    elif keyword:
        cards = cards.filter(keyword=keyword)
    if strength is not None:
        cards = cards.filter(strength=strength)
    if damage is not None:
        cards = cards.filter(damage=damage)
    return cards.order_by("number")


def dreaddraw_card_get(*, number: int) -> DreadDrawCard | None:
    return DreadDrawCard.objects.filter(number=number).first()


# --- tables ---------------------------------------------------------------------------------

def dreaddraw_tables_for(*, user: User) -> QuerySet[DreadDrawTable]:
    """Tables the user created or sits at, newest first."""
    from .models import DreadDrawTable

    return (DreadDrawTable.objects.filter(Q(owner=user) | Q(seats__user=user)).distinct()
            .prefetch_related("seats__user").order_by("-updated_at"))


def dreaddraw_table_rows(*, user: User, limit: int = 30) -> list[dict[str, Any]]:
    """The user's tables as their list shows them, each with what it waits on: "Your turn", another seat's turn,
    its open seats, or who won. Read from what each table keeps (its status, the seat to move, the winner's seat)
    and its prefetched seats: the same few queries however many tables, and no game replayed."""
    from .models import TableStatus
    from .services import seats_of

    rows = []
    for table in dreaddraw_tables_for(user=user).defer("frames", "snapshot")[:limit]:
        names = seat_names(table.seats.all())
        yours = False
        if table.closed_under:
            state = "Closed: the rules changed"
        elif table.status == TableStatus.OVER:
            state = f"{names[table.winner_seat]} won" if table.winner_seat is not None else "Game over"
        elif table.status == TableStatus.WAITING:
            state = "Waiting for players to join"
        elif table.to_move is None:  # a table whose stored frames could not say
            state = "Playing"
        else:
            yours = table.to_move in seats_of(table, user)
            state = "Your turn" if yours else f"{names[table.to_move]}'s turn"
        rows.append({"table": table, "state": state, "yours": yours})
    return rows


def dreaddraw_table_rematch(*, table: DreadDrawTable) -> DreadDrawTable | None:
    """The table a finished one's "Play again" started, if any (services.table_rematch starts one at most)."""
    return table.rematches.select_related("owner").prefetch_related("seats").order_by("-created_at").first()


def dreaddraw_table_get(*, table_id: UUID | str) -> DreadDrawTable | None:
    """Any signed-in user may look at a table by its link (to join it, or to watch the public table)."""
    from .models import DreadDrawTable

    return DreadDrawTable.objects.prefetch_related("seats__user").filter(pk=table_id).first()


def _choice_label(cs: CardSet, prompt: dict[str, Any], notation: str, names: list[str]) -> str:
    kind = prompt["kind"]
    if notation == "S":
        return "Skip"
    if notation == "B":
        return "Put them all on the bottom" if kind.startswith("sift") else "Put it on the bottom"
    if kind == "ability":
        name = prompt["card"]["name"]
        return f"Use {name} on {names[int(notation[1:])]}" if len(notation) > 1 else f"Use {name}"
    if notation.startswith("K"):
        return f"Keep {cs.label(int(notation[1:]))}"
    if notation.startswith("O"):
        cards = [int(x) for x in notation[1:].split(".")]
        if kind == "scry":
            return f"Leave {cs.label(cards[0])} on top"
        if kind.startswith("sift"):
            rest = len(prompt.get("cards") or ()) - len(cards)
            below = f"; {rest} to the bottom" if rest else ""
            return "On top, top first: " + ", ".join(cs.label(c) for c in cards) + below
        if kind == "cull":  # DD-29: the looked-at card not named is discarded
            gone = [c["number"] for c in prompt.get("cards") or () if c["number"] not in cards]
            what = f"Discard {cs.label(gone[0])}; " if gone else ""
            return what + "back on top, top first: " + ", ".join(cs.label(c) for c in cards)
        return "Top first: " + ", ".join(cs.label(c) for c in cards)
    return notation


def _and(words: list[str]) -> str:
    """Names as a sentence says them: "Ann, Ben and Cy"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _with_ability(cs: CardSet | None, card: dict[str, Any]) -> dict[str, Any]:
    """A face-up card of the observation with its ability's words and keyword, read from the set by its number
    (the observation, kept in stored frames, carries neither)."""
    if cs is None:
        return card
    kept = cs.card(card["number"])
    return {**card, "text": kept.text, "keyword": kept.keyword}


def _players(seats: Iterable[DreadDrawSeat], obs: dict[str, Any], legal: set[str], viewer: int, mover: int | None,
             winner: int | None, cs: CardSet | None) -> list[dict[str, Any]]:
    """Each seat as the page shows it: the observation's public table, with who is to move and who won, and what
    each of its cards does (`cs`: the table's card set, None if this app no longer has it)."""
    players = []
    seats = list(seats)
    for p, (seat, name) in enumerate(zip(seats, seat_names(seats), strict=True)):
        info = obs["players"][p]
        if winner is not None and p == winner:  # the game is over: no round is under way
            state = "won the game"
        elif not info["alive"]:
            state = "defeated"
        elif not info["in_round"]:
            state = "out of this round"
        else:
            state = "in the round"
        reserves = [{**_with_ability(cs, c), "notation": f"R{c['number']}", "playable": f"R{c['number']}" in legal}
                    for c in info["reserves"]]
        row = [_with_ability(cs, c) for c in info["row"]]
        # A bot seat named by its level's own name ("Counting bot") says its level once, in the name.
        bot = "" if not seat.bot or seat.name == BOT_LABELS.get(seat.bot) else bot_name(seat.bot)
        # A name two seats share says its seat already ("Heuristic bot (seat 2)"): the heading does not say it again.
        players.append({**info, "name": name, "kind": seat.get_kind_display(), "bot": bot, "seat_number": p + 1,
                        "seat_in_name": name != seat.name,
                        "state": state, "row": row, "reserves": reserves, "is_viewer": p == viewer,
                        "to_move": p == mover, "is_winner": winner is not None and p == winner})
    return players


def table_board(*, table: DreadDrawTable, game: Game | None, user: User, error: dict[str, Any] | None = None,
                revealed: int | None = None) -> dict[str, Any]:
    """Everything the table page shows to `user`: their seat's observation, the choices they have, and why.
    `game` None: the table is shown from its stored frames (stored_board).

    Several people sharing the creator's screen: when the seat to show changes from one person at the screen
    to another, only the public table is shown until the next person says it is them (`revealed` is the seat
    this screen last showed), so nobody sees another's cards by accident. While none of the screen's seats is to
    decide (another player's move, open seats), it shows the public table and follows the game without asking."""
    from dreaddraw.engine.cardset import load_cardset
    from dreaddraw.engine.game import E_SUMMON, E_SUMMON_RESERVE
    from dreaddraw.engine.observation import PlayerView, observe, success_chance

    from .models import TableStatus
    from .services import seats_of, viewer_seat

    if game is None:
        return stored_board(table=table, user=user, error=error)
    seats = list(table.seats.all())
    names = seat_names(seats)
    mine = seats_of(table, user)
    mover = game.to_move()
    viewer = viewer_seat(game, mine)
    shared = {s.index for s in seats if s.kind == "local"} & mine
    handover = -1
    playing = table.status == TableStatus.PLAYING
    if len(shared) > 1 and not game.over:  # over: all is shown
        # Who sits at a shared screen while no seat of it is to decide is unknown: the public table, polled.
        if mover not in shared or not playing:
            viewer = -1
        elif revealed != mover:
            handover, viewer = mover, -1
    obs = observe(game, viewer, names)
    acting = playing and viewer >= 0 and mover == viewer
    legal = set(obs["legal"]) if acting else set()
    cs = game.cs
    current_version = load_cardset().version
    new_card = next((e[2] for e in reversed(game.log) if e[0] in (E_SUMMON, E_SUMMON_RESERVE)), 0)
    players = _players(seats, obs, legal, viewer, mover if playing else None, game.winner if game.over else None, cs)
    prompt = obs["prompt"]
    if prompt and prompt.get("cards"):  # the cards only the prompted seat is shown
        prompt = {**prompt, "cards": [_with_ability(cs, c) for c in prompt["cards"]]}
    choices = []
    if prompt and acting:
        choices = [{"notation": n, "label": _choice_label(cs, prompt, n, names)} for n in obs["legal"]]
    if game.over:
        turn_text = f"{names[game.winner]} wins the game."
    elif table.status == TableStatus.WAITING:
        turn_text = "Waiting for players to join by the table's link."
    elif prompt:
        who = names[prompt["seat"]]
        # DD-28: a sift may be of another player's Life Deck (the prompt then names its owner).
        whose, rule = (f"{names[prompt['owner']]}'s", "DD-28") if "owner" in prompt else ("their", "DD-25")
        turn_text = {
            "keep": f"{who} took damage and chooses the card to keep in Reserve (DD-5.1).",
            "ability": f"{who} may use {prompt.get('card', {}).get('name', '')}'s ability (optional, DD-7.1).",
            "arrange": f"{who} puts the looked-at cards back on the Draw Deck in any order.",
            "scry": f"{who} decides whether the top card of the Draw Deck goes to the bottom.",
            "sift_draw": f"{who} chooses which looked-at cards go to the bottom of the Draw Deck (DD-25).",
            "sift_life": f"{who} chooses which looked-at cards go to the bottom of {whose} Life Deck ({rule}).",
            "cull": f"{who} chooses which looked-at card of {whose} Life Deck to discard (DD-29).",
        }[prompt["kind"]]
    else:
        turn_text = f"{names[mover]} to summon: {obs['why']}."
    # "Play again" started a new table: each player of this one is shown the way to it (watchers are not). A seated
    # player's finished page polls slowly for it, as the creator may start it after they have stopped looking.
    rematch = dreaddraw_table_rematch(table=table) if game.over and mine else None
    chance = None
    if acting and not prompt:
        chance = success_chance(PlayerView(game, viewer))
        chance["percent"] = round(chance["chance"] * 100)
        if chance["known_top"]:
            chance["top_label"] = cs.label(chance["known_top"])
    return {
        "table": table, "obs": obs, "players": players, "viewer": viewer,
        "viewer_name": names[viewer] if viewer >= 0 else "",
        "acting": acting, "can_draw": "D" in legal, "choices": choices, "prompt": prompt, "turn_text": turn_text,
        "prompt_owner": names[prompt["owner"]] if prompt and "owner" in prompt else "",
        "turn": len(table.decisions), "chance": chance, "log": obs["log"], "new_card": new_card,
        "fortune": obs["fortune"], "over": game.over, "error": error, "mine": sorted(mine),
        "discard_top": obs["discard"][-1] if obs["discard"] else None,
        "poll": (table.status == TableStatus.WAITING or (playing and not acting)) and handover < 0,
        "handover": handover, "handover_name": names[handover] if handover >= 0 else "",
        "sharing": _and([names[p] for p in sorted(shared)]) if len(shared) > 1 and viewer < 0 else "",
        "open_seats": [s for s in seats if s.kind == "invite" and s.user_id is None],
        "winner_name": names[game.winner] if game.over else "",
        "can_play_again": game.over and table.owner_id == getattr(user, "pk", None),
        "rematch": rematch, "rematch_seated": bool(rematch and seats_of(rematch, user)),
        "await_rematch": game.over and bool(mine) and rematch is None and table.owner_id != getattr(user, "pk", None),
        "open_seats_again": any(s.kind == "invite" for s in seats),
        "current_set": current_version,  # a table started under an older set plays on with that set
    }


def stored_observation(table: DreadDrawTable, viewer: int) -> dict[str, Any]:
    """What `viewer` (a seat, or -1 for a watcher) saw at the table's last stored step ({} if nothing was stored)."""
    from core.frames import FramesError, unpack

    try:
        frames = unpack(table.frames) if table.frames else []
    except FramesError:
        frames = []
    return frames[-1].get(str(viewer), {}) if frames else {}


def _cardset(table: DreadDrawTable) -> CardSet | None:
    """The set a table was played with, if this app still has it."""
    from dreaddraw.engine.cardset import CardSetError, load_cardset

    try:
        return load_cardset(version=table.set_version)
    except CardSetError:
        return None


def stored_board(*, table: DreadDrawTable, user: User, error: dict[str, Any] | None = None) -> dict[str, Any]:
    """A table shown from its stored frames, without the engine (docs/rules.md, RV-4, RV-5): one played under
    rules this app has since changed, as it stood at its last step, for the seat `user` plays (their first) or
    for a watcher; nothing to decide. Without frames (RV-6) there is nothing to show but what the table says."""
    from .services import seats_of

    seats = list(table.seats.all())
    mine = seats_of(table, user)
    viewer = min(mine) if mine else -1
    obs = stored_observation(table, viewer) or None
    over = bool(obs and obs["over"])
    context: dict[str, Any] = {
        "table": table, "obs": obs, "viewer": viewer, "viewer_name": seats[viewer].name if viewer >= 0 else "",
        "acting": False, "can_draw": False, "choices": [], "prompt": None, "turn": len(table.decisions),
        "chance": None, "new_card": 0, "error": error, "mine": sorted(mine), "poll": False, "handover": -1,
        "open_seats": [], "can_play_again": False, "open_seats_again": False, "current_set": table.set_version,
        "stored": True, "closed": table.closed_under != "", "over": over, "fortune": [], "log": [], "players": [],
        "winner_name": "", "discard_top": None, "turn_text": "",
    }
    if obs is None:
        return context
    mover = None if over or context["closed"] else obs["to_move"]
    context.update({
        "players": _players(seats, obs, set(), viewer, mover, obs["winner"] if over else None, _cardset(table)),
        "fortune": obs["fortune"], "log": obs["log"],
        "discard_top": obs["discard"][-1] if obs["discard"] else None,
        "winner_name": seats[obs["winner"]].name if over else "",
        "turn_text": (f"{seats[obs['winner']].name} wins the game." if over
                      else f"Closed at step {len(table.decisions)}, as it stood when the rules changed."),
    })
    return context
