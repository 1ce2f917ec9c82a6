"""Every ability of the set, executed: one scenario per effect, then every ability card in turn."""

from __future__ import annotations

import pytest

from dreaddraw.engine.cardset import KEYWORDS, OPS
from dreaddraw.engine.decisions import B, D, S, U, keep, order, use
from dreaddraw.engine.errors import IllegalDecision
from dreaddraw.engine.game import (
    E_ABILITY,
    E_RESERVES_DISCARDED,
    E_SIFTED,
    P_ABILITY,
    P_ARRANGE,
    P_CULL,
    P_KEEP,
    P_SCRY,
    P_SIFT_DRAW,
    P_SIFT_LIFE,
)
from dreaddraw.engine.observation import PlayerView, describe, observe
from dreaddraw.engine.serialize import game_to_dict
from tests.dreaddraw.factories import (
    CS,
    DD11_CS,
    DD12_CS,
    OLD_CS,
    check_conservation,
    new_game,
    rig,
    skip_prompts,
    vanilla,
    vanillas,
    with_op,
)

STRENGTH = CS.strength


def summon_it(card: int, players: int = 2, draw_after: list[int] = (), cs=CS, **kw):
    g = rig(new_game(players, cs=cs), draw_top=[card, *draw_after], **kw)
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, card)
    return g


def test_peek_draw_shows_the_top_cards_to_the_user_only():
    """Peek Draw (card set dd-1.0, still replayable)."""
    peeker = with_op("peek_draw", "summon", OLD_CS)[0]
    x, y, z = vanillas(2, 5, 8)
    g = summon_it(peeker, players=3, draw_after=[x, y, z], cs=OLD_CS)
    g.apply(0, U)
    n = OLD_CS.amount[peeker]
    assert [c["number"] for c in observe(g, 0)["known_draw"]] == [x, y, z][:n]
    assert observe(g, 1)["known_draw"] == []
    assert PlayerView(g, 0).known_draw_top() == x
    assert PlayerView(g, 1).known_draw_top() == 0


def test_scry_may_put_the_top_card_on_the_bottom():
    """Scry (card set dd-1.0, still replayable)."""
    scry = with_op("scry", "summon", OLD_CS)[0]
    x, y = vanillas(6, 3)
    g = summon_it(scry, draw_after=[x, y], cs=OLD_CS)
    g.apply(0, U)
    assert g.prompt()[0] == P_SCRY and g.prompt()[3] == x
    g.apply(0, B)
    assert g.draw[0] == x and g.draw[-1] == y
    g2 = summon_it(scry, draw_after=[x, y], cs=OLD_CS)
    g2.apply(0, U)
    g2.apply(0, order((x,)))
    assert g2.draw[-1] == x


def test_arrange_puts_the_cards_back_in_the_chosen_order_and_others_lose_track():
    arranger = next(c for c in with_op("arrange_draw", "summon") if CS.amount[c] == 3)
    x, y, z = vanillas(2, 5, 8)
    g = summon_it(arranger, players=3, draw_after=[x, y, z])
    g.known_draw[1].update({x, y, z})  # seat 1 had seen them
    g.apply(0, U)
    assert g.prompt()[0] == P_ARRANGE and set(g.prompt()[3]) == {x, y, z}
    assert len(g.legal()) == 6
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, order((x, y)))
    assert err.value.rule == "DD-7.1"
    g.apply(0, order((z, x, y)))
    assert g.draw[-3:] == [y, x, z]
    assert g.known_draw[1] == set()
    assert PlayerView(g, 0).known_draw_top() == z
    check_conservation(g)


def test_peek_life_lets_a_player_see_the_top_of_their_own_life_deck():
    """Peek Life (card set dd-1.0, still replayable)."""
    reed = with_op("peek_life", "summon", OLD_CS)[0]
    g = summon_it(reed, cs=OLD_CS)
    top = g.life[0][::-1][:OLD_CS.amount[reed]]
    g.apply(0, U)
    assert [c["number"] for c in observe(g, 0)["known_life"]] == top
    assert observe(g, 1)["known_life"] == []


def test_drain_discards_the_top_life_card_of_the_chosen_player():
    drainer = with_op("drain")[0]
    g = summon_it(drainer, players=3)
    legal = g.legal()
    assert use(1) in legal and use(2) in legal and use(0) not in legal
    with pytest.raises(IllegalDecision):
        g.apply(0, use(0))
    top = g.life[2][-1]
    g.apply(0, use(2))
    assert len(g.life[2]) == 9 and g.discard[-1] == top
    assert g.alive[2]


def test_drain_on_an_empty_life_deck_does_not_defeat():
    drainer = with_op("drain")[0]
    g = summon_it(drainer, life_sizes={1: 0})
    g.apply(0, use(1))
    assert g.alive[1] and g.life[1] == []


def test_recruit_puts_the_top_draw_card_into_reserves_and_offers_its_reserve_ability():
    recruiter = with_op("recruit")[0]
    rcard = with_op("arrange_draw", "reserve")[0]
    g = summon_it(recruiter, draw_after=[rcard])
    g.apply(0, U)
    assert rcard in g.reserves[0]
    assert g.prompt()[:3] == (P_ABILITY, 0, rcard)
    g.apply(0, U)
    assert g.prompt()[0] == P_ARRANGE and g.prompt()[1] == 0


def test_gain_life_from_reserve_keyword():
    """Gain 2 life from the Reserves (card set dd-1.0, still replayable)."""
    card = next(c for c in with_op("gain_life", "reserve", OLD_CS) if OLD_CS.amount[c] == 2)
    w = [vanilla(4, damage=1, cs=OLD_CS), vanilla(7, damage=2, cs=OLD_CS)]
    loser_row, fail = vanillas(9, 3, cs=OLD_CS)
    g = rig(new_game(2, current=1, cs=OLD_CS), rows={0: w, 1: [loser_row]}, draw_top=[fail],
            life={1: [*vanillas(1, 2, cs=OLD_CS), card]})
    g.apply(1, D)  # 3 damage: draws all three
    g.apply(1, keep(card))
    g.apply(1, U)
    assert len(g.life[1]) == 2


def test_salvage_keeps_the_card_in_reserves():
    """Salvage (card set dd-1.0, still replayable)."""
    salvager = with_op("salvage", cs=OLD_CS)[0]
    bad = vanilla(1)
    g = rig(new_game(3, cs=OLD_CS), rows={0: [salvager]}, draw_top=[bad])
    g.apply(0, D)
    g.apply(0, U)
    assert salvager in g.reserves[0] and g.rows[0] == []


def test_scavenge_takes_the_failed_card_from_the_discard_pile():
    scav = with_op("scavenge")[0]
    ten, bad = vanillas(10, 9)
    g = rig(new_game(3), rows={0: [scav, ten]}, draw_top=[bad])
    g.apply(0, D)
    g.apply(0, U)
    assert bad in g.reserves[0]


def test_shield_and_spikes_change_the_damage():
    shield = with_op("shield")[0]
    spikes = with_op("spikes")[0]
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, reserves={0: [spikes]}, draw_top=[fail])
    g.apply(1, D)
    assert g.round_damage == 1 + CS.amount[spikes]
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, reserves={1: [shield]}, draw_top=[fail])
    before = len(g.life[1])
    g.apply(1, D)
    skip_prompts(g)
    assert len(g.life[1]) == before  # 1 damage, 1 shield


def test_the_log_names_the_cards_that_add_or_stop_damage():
    """DD-31: the extra damage and the damage stopped are told with the always-on cards behind them."""
    shield, spikes = with_op("shield")[0], with_op("spikes")[0]
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, reserves={0: [spikes], 1: [shield]},
            draw_top=[fail])
    g.apply(1, D)
    skip_prompts(g)
    log = observe(g, -1)["log"]
    damage = 1 + CS.amount[spikes]
    assert any(line.endswith(f"deals {damage} damage to each opponent ({CS.amount[spikes]} extra from "
                             f"{CS.label(spikes)}).") for line in log), log
    assert any(line.endswith(f"takes {damage - 1} damage (1 stopped by {CS.label(shield)}).") for line in log), log


def test_a_card_kept_from_damage_is_named_once_as_chosen_and_once_where_it_goes():
    """DD-31: "chooses X to keep." then "X goes to …'s Reserves.", not kept twice."""
    w = vanilla(5, damage=2)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail])
    g.apply(1, D)
    assert g.prompt() and g.prompt()[0] == P_KEEP, "two cards drawn from the Life Deck: a choice of one to keep"
    kept = g.hand[0]
    g.apply(1, keep(kept))
    told = [line for line in observe(g, 1)["log"] if CS.label(kept) in line]
    assert told[-2].endswith(f"chooses {CS.label(kept)} to keep.") and told[-1].startswith(f"{CS.label(kept)} goes to ")
    assert not any("in Reserve." in line for line in told)


def test_steadfast_lets_an_equal_card_succeed():
    steadfast = with_op("steadfast")[0]
    five_a, five_b = [c for c in CS.numbers if STRENGTH[c] == 5 and not CS.op[c]][:2]
    g = rig(new_game(3), rows={0: [five_a]}, reserves={0: [steadfast]}, draw_top=[five_b])
    g.apply(0, D)
    assert g.rows[0] == [five_a, five_b]
    g = rig(new_game(3), rows={0: [five_a]}, draw_top=[five_b])
    g.apply(0, D)
    assert not g.in_round[0]


def test_lookout_shows_its_owner_the_top_card():
    lookout = with_op("lookout")[0]
    x = vanilla(4)
    g = rig(new_game(3), reserves={1: [lookout]}, draw_top=[x])
    assert PlayerView(g, 1).known_draw_top() == x
    assert PlayerView(g, 0).known_draw_top() == 0
    assert observe(g, 1)["known_draw"][0]["number"] == x
    assert observe(g, 2)["known_draw"] == []


def test_every_effect_in_the_set_has_a_scenario_above():
    tested = {"peek_draw", "scry", "arrange_draw", "peek_life", "drain", "recruit", "gain_life", "salvage",
              "scavenge", "shield", "spikes", "steadfast", "lookout", "sift_draw", "sift_life", "sift_any_life",
              "cull_life"}
    used = {OPS[cs.op[c]] for cs in (CS, OLD_CS, DD11_CS, DD12_CS) for c in cs.numbers if cs.op[c]}
    assert used <= tested and set(OPS[1:]) == tested


def _trigger(card: int):
    """Put `card` where its ability fires and return the game with that ability prompted (or in effect)."""
    keyword = KEYWORDS[CS.keyword[card]]
    if keyword == "summon":
        return summon_it(card, players=3)
    if keyword == "reserve":
        w = [vanilla(4, damage=1), vanilla(7, damage=2)]
        loser_row, fail = vanillas(9, 3)
        g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, draw_top=[fail],
                life={1: [*vanillas(1, 2, 6), card]})
        g.apply(1, D)
        g.apply(1, keep(card))
        return g
    if keyword == "aftermath":
        bad = next(c for c in CS.numbers if STRENGTH[c] <= STRENGTH[card] and not CS.op[c])
        g = rig(new_game(3), rows={0: [card]}, draw_top=[bad])
        g.apply(0, D)
        return g
    return rig(new_game(3), reserves={0: [card]})


@pytest.mark.parametrize("card", [c for c in CS.numbers if CS.op[c]], ids=lambda c: CS.name(c))
def test_every_ability_card_executes(card):
    g = _trigger(card)
    if KEYWORDS[CS.keyword[card]] == "always":
        assert g.has_op(0, CS.op[card]) == CS.amount[card]
        return
    assert g.prompt()[0] == P_ABILITY and g.prompt()[2] == card
    seat = g.to_move()
    before = (len(g.life[seat]), len(g.reserves[seat]), len(g.discard), sorted(g.draw))
    choice = next(d for d in g.legal() if d != S)
    g.apply(seat, choice)
    skip_prompts(g)
    after = (len(g.life[seat]), len(g.reserves[seat]), len(g.discard), sorted(g.draw))
    op = OPS[CS.op[card]]
    if op in ("gain_life", "recruit", "salvage", "scavenge", "drain", "cull_life"):
        assert after != before, f"{CS.name(card)} changed nothing"
    check_conservation(g)


def test_sift_draw_keeps_the_named_cards_on_top_and_puts_the_rest_at_the_bottom():
    """DD-25, DD-31: O<cards> keeps those on top in that order; the others go to the bottom, the first seen deepest;
    the sifter's log says so once, with the cards."""
    sifter = next(c for c in with_op("sift_draw", "summon") if CS.amount[c] == 2)
    x, y, z = vanillas(2, 5, 8)
    g = summon_it(sifter, players=3, draw_after=[x, y, z])
    g.known_draw[1].update({x, y})  # seat 1 had seen them (an earlier look)
    g.apply(0, U)
    assert g.prompt()[0] == P_SIFT_DRAW and g.prompt()[3] == (x, y)
    assert set(g.legal()) == {order((x, y)), order((y, x)), order((x,)), order((y,)), B}
    g.apply(0, order((y,)))
    assert g.draw[-1] == y and g.draw[-2] == z and g.draw[0] == x
    assert g.known_draw[1] == set()  # seat 1 saw them move, not where
    assert [c for _, c in PlayerView(g, 0).known_draw()] == [y, x]
    check_conservation(g)
    # Said once to each: to the sifter with the cards, to the others as counts.
    mine, theirs = ([line for line in observe(g, seat)["log"] if "bottom" in line] for seat in (0, 1))
    assert len(mine) == len(theirs) == 1
    assert "keeps" in mine[0] and CS.name(y) in mine[0]
    assert "puts 1 of the looked-at cards at the bottom" in theirs[0] and CS.name(y) not in theirs[0]


def test_sift_draw_b_puts_every_looked_at_card_at_the_bottom_in_the_order_seen():
    """DD-25: B sends them all down; the first seen ends up deepest."""
    sifter = next(c for c in with_op("sift_draw", "summon") if CS.amount[c] == 2)
    x, y, z = vanillas(2, 5, 8)
    g = summon_it(sifter, draw_after=[x, y, z])
    g.apply(0, U)
    g.apply(0, B)
    assert g.draw[-1] == z and g.draw[:2] == [x, y]


def test_sift_refuses_a_card_it_did_not_look_at_or_twice_the_same_card():
    """DD-25: the answer names only looked-at cards, each once; a refusal changes nothing."""
    sifter = next(c for c in with_op("sift_draw", "summon") if CS.amount[c] == 2)
    x, y, z = vanillas(2, 5, 8)
    g = summon_it(sifter, draw_after=[x, y, z])
    g.apply(0, U)
    before = game_to_dict(g)
    for bad in (order((x, z)), order((x, x)), order(()), keep(x)):
        with pytest.raises(IllegalDecision) as err:
            g.apply(0, bad)
        assert err.value.rule == "DD-25"
    assert game_to_dict(g) == before


@pytest.mark.parametrize("cs", [DD11_CS, DD12_CS], ids=["sift_life dd-1.1", "sift_any_life on oneself"])
def test_sift_life_reorders_the_top_of_the_own_life_deck_and_the_player_knows_it(cs):
    """DD-25: a Life Deck sift: the kept card is drawn first by the next damage; the rest lie at the bottom. Under
    dd-1.2 (DD-28) the sifter names the Life Deck, and naming their own plays exactly as dd-1.1's sift_life."""
    op = "sift_life" if cs is DD11_CS else "sift_any_life"
    sifter = next(c for c in with_op(op, "summon", cs))
    low1, low3 = vanillas(1, 3, cs=cs)
    a, b = vanilla(9, cs=cs), vanilla(2, exclude=(vanilla(2, cs=cs),), cs=cs)
    g = rig(new_game(cs=cs), draw_top=[sifter], life={0: [low1, low3, b, a]}, life_sizes={0: 4})
    assert g.life[0][-1] == a
    g.apply(0, D)
    assert (U in g.legal()) == (cs is DD11_CS) and (use(0) in g.legal()) == (cs is DD12_CS)
    g.apply(0, U if cs is DD11_CS else use(0))
    n = cs.amount[sifter]
    seen = tuple(g.life[0][::-1][:n])
    assert g.prompt() == (P_SIFT_LIFE, 0, sifter, seen)
    g.apply(0, order((b,)))
    assert g.life[0][-1] == b
    assert a in g.life[0][:n]
    assert set(seen) <= g.known_life[0]
    assert observe(g, 1)["known_life"] == []
    check_conservation(g)


def test_sift_any_life_on_an_opponent_sends_their_good_life_cards_down_and_they_see_only_how_many():
    """DD-28: the sifter names another player, sees the top of that player's Life Deck, keeps the poor cards on top
    and sends the good ones to the bottom; the owner and the others see how many went down, not which, and the
    owner no longer knows where the looked-at cards are (card set dd-1.2)."""
    cs = DD12_CS
    sifter = next(c for c in with_op("sift_any_life", "summon", cs) if cs.amount[c] == 2)
    low1, low3 = vanillas(1, 3, cs=cs)
    good, poor = vanilla(9, cs=cs), vanilla(2, cs=cs)
    g = rig(new_game(3, cs=cs), draw_top=[sifter], life={1: [low1, low3, poor, good]}, life_sizes={1: 4})
    g.known_life[1].update({good, poor})  # seat 1 had looked at them (Peek)
    g.apply(0, D)
    assert g.legal() == [use(0), use(1), use(2), S]
    life0 = list(g.life[0])
    g.apply(0, use(1))
    assert g.prompt() == (P_SIFT_LIFE, 0, sifter, (good, poor), 1)
    assert observe(g, 0)["prompt"]["owner"] == 1
    assert [c["number"] for c in observe(g, 0)["prompt"]["cards"]] == [good, poor]
    assert "cards" not in observe(g, 1)["prompt"]
    g.apply(0, order((poor,)))
    assert g.life[1] == [good, low1, low3, poor]  # the good card lies at the bottom, the poor one on top
    assert g.life[0] == life0 and not g.known_life[0] & {good, poor}
    assert not g.known_life[1] & {good, poor}
    check_conservation(g)
    for seat in (1, 2, -1):
        log = "\n".join(observe(g, seat)["log"])
        assert "1 goes to the bottom and 1 back on top" in log and CS.name(good) not in log
    mine = [line for line in observe(g, 0)["log"] if "bottom" in line]
    # The sifter reads the sift once, with its cards, not also as the others' counts.
    assert len(mine) == 1 and CS.name(good) in mine[0] and "go to the bottom" in mine[0]


def test_sift_any_life_needs_a_player_still_in_the_game_and_only_the_sift_cards_take_oneself():
    """DD-28: a defeated player or no target is refused; a Drain still cannot name its user (DD-7.1) (card set
    dd-1.2)."""
    sifter = next(c for c in with_op("sift_any_life", "summon", DD12_CS))
    g = rig(new_game(3, cs=DD12_CS), draw_top=[sifter])
    g.alive[2] = False
    g.alive_count = 2
    g.apply(0, D)
    before = game_to_dict(g)
    for bad in (U, use(2), use(5)):
        with pytest.raises(IllegalDecision) as err:
            g.apply(0, bad)
        assert err.value.rule == "DD-28"
    assert game_to_dict(g) == before
    drainer = with_op("drain")[0]
    g = summon_it(drainer)
    with pytest.raises(IllegalDecision):
        g.apply(0, use(0))


def test_cull_life_discards_the_chosen_card_of_another_players_life_deck_and_they_see_only_which():
    """DD-29: the user names another player, sees the top of that player's Life Deck, discards one of those cards
    (not damage) and puts the others back on top in the order named; everyone sees the discarded card, only the
    user the order, and the owner no longer knows where the cards put back are."""
    culler = next(c for c in with_op("cull_life", "summon") if CS.amount[c] == 2)
    low1, low3 = vanillas(1, 3)
    good, poor = vanilla(9), vanilla(2)
    g = rig(new_game(3), draw_top=[culler], life={1: [low1, low3, poor, good]}, life_sizes={1: 4})
    g.known_life[1].update({good, poor})  # seat 1 had looked at them (Peek)
    g.apply(0, D)
    assert g.legal() == [use(1), use(2), S]
    life0, discarded = list(g.life[0]), len(g.discard)
    g.apply(0, use(1))
    assert g.prompt() == (P_CULL, 0, culler, (good, poor), 1)
    assert g.legal() == [order((good,)), order((poor,))]
    assert observe(g, 0)["prompt"]["owner"] == 1 and observe(g, 0)["prompt"]["kind"] == "cull"
    assert [c["number"] for c in observe(g, 0)["prompt"]["cards"]] == [good, poor]
    assert "cards" not in observe(g, 1)["prompt"]
    g.apply(0, order((poor,)))
    assert g.life[1] == [low1, low3, poor] and g.discard[-1] == good and len(g.discard) == discarded + 1
    assert g.alive[1] and g.life[0] == life0 and not g.known_life[0] & {good, poor}
    assert not g.known_life[1] & {good, poor}
    check_conservation(g)
    for seat in (1, 2, -1):
        log = "\n".join(observe(g, seat)["log"])
        assert f"{CS.name(good)} (9) is discarded" in log and CS.name(poor) not in log
    assert f"puts {CS.label(poor)} back on top" in "\n".join(observe(g, 0)["log"])


def test_cull_life_puts_the_others_back_in_the_order_named_and_takes_the_last_card_without_asking():
    """DD-29: of three cards looked at, the one not named is discarded and the other two go back top first; with a
    single Life card left there is nothing to choose: it is discarded; an empty Life Deck loses nothing and no one
    is defeated."""
    culler = next(c for c in with_op("cull_life", "summon") if CS.amount[c] == 3)
    low1, a, b, x = vanillas(1, 3, 5, 9)
    g = summon_it(culler, life={1: [low1, a, b, x]}, life_sizes={1: 4})
    g.apply(0, use(1))
    assert g.prompt()[3] == (x, b, a)
    g.apply(0, order((a, b)))
    assert g.life[1] == [low1, b, a] and g.discard[-1] == x
    check_conservation(g)
    g = summon_it(culler, life={1: [x]}, life_sizes={1: 1})
    g.apply(0, use(1))
    assert not g.prompt() and g.life[1] == [] and g.discard[-1] == x
    check_conservation(g)
    g = summon_it(culler, life_sizes={1: 0})
    g.apply(0, use(1))
    assert not g.prompt() and g.alive[1] and "culls Seat 2's Life Deck: their Life Deck is empty" in "\n".join(
        observe(g, 1)["log"])
    check_conservation(g)


def test_cull_life_needs_another_player_still_in_the_game_and_discards_exactly_one_card():
    """DD-29: the user, a defeated player or no target is refused; an answer that discards none, two, a card not
    looked at, or the same card twice is refused; the state is unchanged."""
    culler = next(c for c in with_op("cull_life", "summon") if CS.amount[c] == 3)
    a, b, x, other = vanillas(3, 5, 9, 2)
    g = rig(new_game(3), draw_top=[culler], life={1: [a, b, x]}, life_sizes={1: 3})
    g.alive[2] = False
    g.alive_count = 2
    g.apply(0, D)
    assert g.legal() == [use(1), S]
    before = game_to_dict(g)
    for bad in (U, use(0), use(2), use(5)):
        with pytest.raises(IllegalDecision) as err:
            g.apply(0, bad)
        assert err.value.rule == "DD-29"
    assert game_to_dict(g) == before
    g.apply(0, use(1))
    before = game_to_dict(g)
    for bad in (order((x, b, a)), order((x,)), order((x, other)), order((x, x)), B):
        with pytest.raises(IllegalDecision) as err:
            g.apply(0, bad)
        assert err.value.rule == "DD-29"
    assert game_to_dict(g) == before


def test_the_probability_bot_sifts_a_card_it_cannot_beat_to_the_bottom():
    """The bot uses what it sees: the next summon is its own and the top card would fail, so it goes down."""
    from dreaddraw.engine.bots import ProbabilityBot

    sifter = next(c for c in with_op("sift_draw", "summon") if CS.amount[c] == 2)
    weak, good = vanillas(1, 6)
    g = rig(new_game(3), draw_top=[sifter, weak, good])
    g.in_round = [True, False, False]
    g.apply(0, D)
    g.apply(0, U)
    assert ProbabilityBot().choose(PlayerView(g, 0)) == order((good,))


def test_the_log_says_one_reserve_card_goes_and_several_go():
    """DD-31: the log's counts agree with their nouns, and none is "none"."""
    g = new_game(2)
    words = [describe(g, (E_RESERVES_DISCARDED, 0, n, 0, -1), ["Ann", "Bo"]) for n in (1, 3)]
    assert words == ["Ann's 1 Reserve card goes to the Discard Pile.", "Ann's 3 Reserve cards go to the Discard Pile."]
    sifted = describe(g, (E_SIFTED, 0, 2, 0, -1), ["Ann", "Bo"])
    assert sifted == "Ann puts none of the looked-at cards at the bottom of the Draw Deck and 2 back on top."


def test_the_log_gives_a_card_whose_name_ends_in_s_its_ability_as_english_does():
    """DD-31: "Weaver of Threads' ability", not "Threads's"."""
    g = new_game(2)
    ending_in_s = next(c for c in CS.numbers if CS.name(c).endswith("s"))
    other = next(c for c in CS.numbers if not CS.name(c).endswith("s"))
    said = describe(g, (E_ABILITY, 0, ending_in_s, -1, -1), ["Ann", "Bo"])
    assert said == f"Ann uses {CS.name(ending_in_s)}' ability."
    assert describe(g, (E_ABILITY, 0, other, 1, -1), ["Ann", "Bo"]) == f"Ann uses {CS.name(other)}'s ability on Bo."
