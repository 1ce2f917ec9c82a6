"""The mulligan (DG-4.5), judged against the deck: a hand is kept when what it can put on the board in the first
turns is at least what a new hand from the same cards would put there on average.

DG-4.5's mulligan costs no card: the hand goes back, six new cards come from the hand and the deck together, and
the new hand is kept. So the choice is between this hand and the deck's average hand (its curve), and a hand
below that average is worth changing, one above it worth keeping, whatever a fixed rule would say of it.

A hand's tempo is the vitality it can deploy in its first TEMPO_TURNS own turns, each card counted once for every
turn it stands on the board by the last of them (a unit down a turn earlier races a turn sooner: the turns a
slow hand loses). Deploys are paid as DG-7.3 pays them: 1 AP at least, then the influence of the legends already
down (DG-17.2, any craft's for a universal card, DG-7.4), then recycled cards of the hand that are no unit or
legend (DG-7.6), then more AP; cheapest first, legends before units of the same cost (their influence pays from
the next turn). Drawing is left out: a draw costs the same AP whatever the hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from playtest.dreadgate.cards import UNIVERSAL, Compiled
from playtest.dreadgate.state import AP_PER_TURN

TEMPO_TURNS = 3
SAMPLES = 32  # new hands drawn to estimate the deck's average


def _deploy_order(c: Compiled) -> tuple[int, bool]:
    return c.vit, c.kind != "legend"


def tempo(hand: Sequence[Compiled]) -> int:
    """The vitality the hand puts on the board in its first TEMPO_TURNS turns, weighted by the turns it stands.
    The policies judge 33 hands at each keep, so the loop is kept lean: a turn stops at its last action point
    (every deploy takes one), and points are counted without min()."""
    waiting = sorted([c for c in hand if c.board], key=_deploy_order)
    spare = len(hand) - len(waiting)  # cards the hand can recycle without giving up a unit or legend
    influence: dict[int, int] = {}  # craft -> influence of the legends down, from the turn after their deploy
    total = 0
    for turn in range(TEMPO_TURNS):
        ap, left = AP_PER_TURN, dict(influence)
        deployed = []
        for card in waiting:
            if ap < 1:
                break
            rest = card.vit - 1 if card.vit > 0 else 0  # 1 AP always (a unit of no vitality costs that alone)
            if left:
                crafts = sorted(left) if card.craft == UNIVERSAL else [card.craft]
                from_influence = min(rest, sum(left.get(craft, 0) for craft in crafts))
            else:  # no legend down yet (most hands): no influence to pay from or spend
                crafts, from_influence = [], 0
            owed = rest - from_influence
            from_recycling = owed if owed < spare else spare
            from_ap = owed - from_recycling
            if ap < 1 + from_ap:
                continue
            ap -= 1 + from_ap
            spare -= from_recycling
            for craft in crafts:  # the influence spent, craft by craft
                spent = min(left.get(craft, 0), from_influence)
                if spent:
                    left[craft] -= spent
                    from_influence -= spent
            deployed.append(card)
            total += card.vit * (TEMPO_TURNS - turn)
        for card in deployed:
            waiting.remove(card)
            if card.kind == "legend":
                influence[card.craft] = influence.get(card.craft, 0) + card.influence
    return total


def keeps(hand: Sequence[Compiled], pool: Sequence[Compiled], rng: random.Random) -> bool:
    """Keep `hand` when its tempo is at least the average tempo of a new hand of as many cards drawn from `pool`
    (the hand and the deck together, as DG-4.5 shuffles them)."""
    if len(pool) <= len(hand):
        return True
    average = sum(tempo(rng.sample(pool, len(hand))) for _ in range(SAMPLES)) / SAMPLES
    return tempo(hand) >= average
