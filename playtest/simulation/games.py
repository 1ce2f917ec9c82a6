"""Playing many Dreadgate games and summing them up: pure Python, no Django.

`play_chunk` plays games `first_game`.. of a run; every game's randomness comes from
(run seed, game number) only, so results don't depend on the chunking. Its result is a set of
counters that `merge` adds up, in any grouping, into the run's aggregate.
"""

from __future__ import annotations

import random
from typing import Any

from core.frames import pack, to_text
from core.interrupt import checkpoint
from playtest.dreadgate import CardDef, State, game_frames, new_game, to_record
from playtest.dreadgate.actions import DRAW, END, MULLIGAN
from playtest.dreadgate.state import MAIN_PHASE
from playtest.dreadgate.view import SeatView
from playtest.policies import BOARD_KINDS, POLICIES

from . import card_usage

SAMPLE_GAMES = 5  # games 0..4 of a run keep their full record for the replay viewer


def sample_frames(state: State) -> str:
    """What each step of a sample game showed, every card (the full view: the game is over), packed as text for
    the run's result: its replay needs no engine, whatever the rules become (docs/rules.md, RV-2, RV-4)."""
    return to_text(pack(game_frames(state, ("all",))))


def game_seed(run_seed: int, game: int) -> int:
    return random.Random(f"{run_seed}:{game}").getrandbits(63)


def deck_cards(deck: dict[str, Any]) -> list[CardDef]:
    """A deck snapshot ({"cards": {code: card dict}, "list": [code, ...]}) as engine card definitions."""
    defs = {code: CardDef.from_dict(card) for code, card in deck["cards"].items()}
    return [defs[code] for code in deck["list"]]


def play_game(decks: list[list[CardDef]], fmt: str, seed: int, policies: list[str], keep_record: bool = False,
              keep_frames: bool = False) -> dict:
    """One game; `policies[i]` plays deck i. Returns what the report needs, seen from deck 0 and deck 1; with its
    record (`keep_record`), and what each step showed (`keep_frames`: a sample game)."""
    state = new_game(decks, seed, fmt)
    seat_deck = state.deck_of_seat  # seat -> deck index (the seed picks who moves first, DG-4.3)
    by_seat = [POLICIES[policies[seat_deck[s]]] for s in (0, 1)]
    rngs = [random.Random(seed * 2 + s) for s in (0, 1)]
    own_turns = [0, 0]
    ap_used: list[list[int]] = [[], []]
    ap_wasted: list[list[int]] = [[], []]
    drawn = [len(state.hand[seat_deck.index(d)]) for d in (0, 1)]  # the opening hands: fewer from a smaller deck
    mulligans = [0, 0]
    cards = card_usage.GameCards(state)
    turn_seen, turn_ap = 0, 0
    opening = [sum(1 for i in state.hand[seat_deck.index(d)] if state.inst[i].kind in BOARD_KINDS) for d in (0, 1)]
    while state.winner < 0:
        seat = state.current_player
        deck = seat_deck[seat]
        if state.phase == MAIN_PHASE and state.turn != turn_seen:
            turn_seen, turn_ap = state.turn, state.ap
            own_turns[seat_deck[state.active]] += 1
            cards.explain(deck, seat)  # at the start of the turn, with its points, why a held card can't be played
        cards.decision(deck, seat, state.legal_actions())
        action = by_seat[seat](SeatView(state, seat), rngs[seat])  # what the seat sees now, never the state
        kind = action[0]
        cards.play(deck, action, own_turns[deck])
        if kind == END and state.phase == MAIN_PHASE:
            ap_used[deck].append(turn_ap - state.ap)
            ap_wasted[deck].append(state.ap)
        elif kind == DRAW:
            drawn[deck] += 1
        elif kind == MULLIGAN:
            mulligans[deck] += 1
        state.apply(action)
        if kind == MULLIGAN:
            drawn[deck] += len(state.hand[seat])  # the new hand
    winner = seat_deck[state.winner] if state.winner in (0, 1) else -1
    result = {
        "winner": winner,
        "condition": state.condition,
        "turns": state.turn,
        "own_turns": own_turns,
        "ap_used": ap_used,
        "ap_wasted": ap_wasted,
        "drawn": drawn,
        "mulligans": mulligans,
        "opening_board_cards": opening,
        "played": [cards.played[d] for d in (0, 1)],
        "cards": [cards.result(d) for d in (0, 1)],
        "scores": {"beyond": [state.beyond_score[seat_deck.index(d)] for d in (0, 1)],
                   "boneyard": [state.bone_score[seat_deck.index(d)] for d in (0, 1)]},
    }
    if keep_record:
        result["record"] = to_record(state)
    if keep_frames:
        result["frames"] = sample_frames(state)
        result["seat_deck"] = list(seat_deck)
    return result


def play_chunk(params: dict, seed: int, first_game: int, games: int) -> dict:
    decks = [deck_cards(d) for d in params["decks"]]
    fmt, policies = params["format"], params["policies"]
    agg = empty_aggregate()
    for g in range(first_game, first_game + games):
        checkpoint()
        s = game_seed(seed, g)
        game = play_game(decks, fmt, s, policies, keep_record=g < SAMPLE_GAMES, keep_frames=g < SAMPLE_GAMES)
        add_game(agg, game)
        if g < SAMPLE_GAMES:
            agg["samples"].append({"game": g, "seed": s, "record": game["record"], "frames": game["frames"],
                                   "seat_deck": game["seat_deck"], "winner": game["winner"],
                                   "condition": game["condition"], "turns": game["turns"]})
    return agg


def empty_aggregate() -> dict:
    return {
        "games": 0, "wins": [0, 0], "draws": 0,
        "conditions": [{}, {}],  # per deck: condition -> wins
        "turns_to_win": [{}, {}],  # per deck: own turns -> wins
        "game_turns": {},  # total turns -> games
        "ap_used": [{}, {}], "ap_wasted": [{}, {}],  # per deck: own turn -> [sum, count]
        "drawn": [0, 0], "mulligans": [0, 0],
        "played": [{}, {}],  # per deck: card name -> [times, sum of own turns]
        "cards": [{}, {}],  # per deck: card name -> counters (card_usage.add_game)
        "opening_board_cards": [{}, {}],  # per deck: units+legends in opening hand -> games
        "samples": [],
    }  # fmt: skip


def _bump(counter: dict, key, by: int = 1) -> None:
    key = str(key)  # JSON object keys
    counter[key] = counter.get(key, 0) + by


def add_game(agg: dict, game: dict) -> None:
    agg["games"] += 1
    _bump(agg["game_turns"], game["turns"])
    if game["winner"] < 0:
        agg["draws"] += 1
    else:
        w = game["winner"]
        agg["wins"][w] += 1
        _bump(agg["conditions"][w], game["condition"])
        _bump(agg["turns_to_win"][w], game["own_turns"][w])
    for d in (0, 1):
        for key, values in (("ap_used", game["ap_used"][d]), ("ap_wasted", game["ap_wasted"][d])):
            table = agg[key][d]
            for turn, value in enumerate(values, start=1):
                cell = table.setdefault(str(turn), [0, 0])
                cell[0] += value
                cell[1] += 1
        agg["drawn"][d] += game["drawn"][d]
        agg["mulligans"][d] += game["mulligans"][d]
        for name, turn in game["played"][d]:
            cell = agg["played"][d].setdefault(name, [0, 0])
            cell[0] += 1
            cell[1] += turn
        _bump(agg["opening_board_cards"][d], game["opening_board_cards"][d])
        won = game["winner"] == d
        card_usage.add_game(agg["cards"][d], game["cards"][d], won, game["own_turns"][d])


def merge(partials: list[dict], params: dict) -> dict:
    total = empty_aggregate()
    for part in partials:
        total["games"] += part["games"]
        total["draws"] += part["draws"]
        for d in (0, 1):
            total["wins"][d] += part["wins"][d]
            total["drawn"][d] += part["drawn"][d]
            total["mulligans"][d] += part["mulligans"][d]
            for key in ("conditions", "turns_to_win", "opening_board_cards"):
                for k, v in part[key][d].items():
                    _bump(total[key][d], k, v)
            for key in ("ap_used", "ap_wasted", "played"):
                for k, (a, b) in part[key][d].items():
                    cell = total[key][d].setdefault(k, [0, 0])
                    cell[0] += a
                    cell[1] += b
            card_usage.merge_tables(total["cards"][d], part.get("cards", [{}, {}])[d])
        for k, v in part["game_turns"].items():
            _bump(total["game_turns"], k, v)
        total["samples"].extend(part["samples"])
    total["samples"].sort(key=lambda s: s["game"])
    return total


def counter_values(counter: dict) -> list[int]:
    """A {value: count} counter back to its list of values (for medians and intervals)."""
    return [int(k) for k, n in sorted(counter.items(), key=lambda kv: int(kv[0])) for _ in range(n)]

