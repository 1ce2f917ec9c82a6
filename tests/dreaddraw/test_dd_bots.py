"""Bots: legal decisions only, whole games finish, and the stronger bot wins more (small sample)."""

from __future__ import annotations

import pytest

from core.stats import wilson_interval as wilson
from dreaddraw.engine.bots import HeuristicBot, ProbabilityBot, RandomBot, make_bot, play_game
from dreaddraw.engine.decisions import reserve
from dreaddraw.engine.observation import PlayerView
from dreaddraw.engine.tournament import merge, play_chunk, seat_lineup
from tests.dreaddraw.factories import CS


class CheckingBot:
    """Wraps a bot and asserts every decision it makes is legal."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, view: PlayerView):
        d = self.bot.choose(view)
        assert d in view.legal(), (d, view.legal())
        return d


@pytest.mark.parametrize("kind", ["random", "heuristic", "probability"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_bots_only_make_legal_decisions_and_finish_games(kind, players):
    for seed in range(15):
        g = play_game([CheckingBot(make_bot(kind, seed=seed + p)) for p in range(players)], seed, CS)
        assert g.over and g.alive[g.winner] and g.alive_count == 1


def test_a_view_offers_no_decisions_to_a_seat_that_is_not_moving():
    g = play_game([RandomBot(1), RandomBot(2)], 3, CS)
    assert PlayerView(g, 0).legal() == []


def test_heuristic_beats_random_on_a_small_sample():
    # The 10,000-game figures are in bench/dreaddraw_bots.py; this only guards against a broken bot.
    params = {"lineup": ["heuristic", "random"]}
    result = merge([play_chunk(params, 1, 0, 300)], params)
    assert next(b for b in result["bots"] if b["bot"] == "heuristic")["ci95"][0] > 0.5


def test_the_probability_bot_prefers_a_sure_reserve_when_the_draw_is_hopeless():
    from tests.dreaddraw.factories import new_game, rig, vanillas

    nine, ten = vanillas(9, 10)
    g = rig(new_game(), rows={0: [nine]}, reserves={0: [ten]})
    # Only tens can beat a nine from the Draw Deck; the bot must take the sure Reserve instead.
    assert ProbabilityBot().choose(PlayerView(g, 0)) == reserve(ten)
    assert HeuristicBot().choose(PlayerView(g, 0)) == reserve(ten)


def test_seats_rotate_and_chunks_merge_to_the_same_result():
    assert seat_lineup(["a", "b", "c"], 1) == ["b", "c", "a"]
    params = {"lineup": ["heuristic", "random", "random"]}
    whole = merge([play_chunk(params, 5, 0, 40)], params)
    parts = merge([play_chunk(params, 5, 0, 15), play_chunk(params, 5, 15, 25)], params)
    assert whole == parts
    assert sum(b["wins"] for b in whole["bots"]) == 40


def test_wilson_interval_contains_the_rate_and_narrows_with_more_games():
    low, high = wilson(55, 100)
    assert low < 0.55 < high
    low2, high2 = wilson(5500, 10000)
    assert high2 - low2 < high - low
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_view_hands_out_copies_so_a_bot_cannot_change_the_game():
    from dreaddraw.engine.serialize import game_to_dict
    from tests.dreaddraw.factories import new_game, rig, vanillas

    two, six, nine = vanillas(2, 6, 9)
    g = rig(new_game(), rows={0: [six]}, reserves={0: [nine], 1: [two]}, discard=[*vanillas(1)])
    g.known_life[0].add(g.life[0][-1])
    view = PlayerView(g, 0)
    before = game_to_dict(g)
    for zone in (view.row(0), view.reserves(0), view.reserves(1), view.discard(), view.hand(), view.legal()):
        try:
            zone.append(5)  # a list would be the engine's own, or a copy
        except AttributeError:
            pass  # a tuple cannot be changed at all
    for known in (view.known_life(),):
        with pytest.raises(AttributeError):
            known.add(5)
    assert game_to_dict(g) == before
    assert isinstance(view.reserves(0), tuple) and isinstance(view.row(0), tuple)
    assert isinstance(view.discard(), tuple) and isinstance(view.hand(), tuple)


def test_the_probability_bot_sifts_its_life_deck_so_damage_does_not_throw_away_a_second_good_card():
    """DD-5.1: damage draws several Life cards and keeps one, so a second card worth keeping goes under the cards
    not worth it (they are discarded with the best); with nothing to put between them it goes to the bottom."""
    from dreaddraw.engine.decisions import B, order
    from tests.dreaddraw.factories import new_game, vanilla

    view = PlayerView(new_game(2), 0)
    bot = ProbabilityBot()
    nine, two, eight, one = vanilla(9), vanilla(2), vanilla(8), vanilla(1)
    assert bot.choose_sift_life(view, (eight, two, nine, one)) == order((nine, one, two, eight))
    assert bot.choose_sift_life(view, (eight, nine)) == order((nine,))
    assert bot.choose_sift_life(view, (two, one)) == B


def test_the_probability_bot_sifts_the_leading_opponents_life_deck_and_sends_their_good_cards_down():
    """DD-28: the bot names the opponent with the most Life cards and Reserves (not itself: its own best drawn card
    is kept anyway), keeps their poor cards on top, worst first, and sends the cards worth keeping to the bottom."""
    from dreaddraw.engine.decisions import B, D, order, use
    from tests.dreaddraw.factories import DD12_CS, new_game, rig, vanilla, with_op

    sifter = next(c for c in with_op("sift_any_life", "summon", DD12_CS))  # card set dd-1.2
    g = rig(new_game(3, cs=DD12_CS), draw_top=[sifter], reserves={2: [vanilla(5, cs=DD12_CS)]})
    g.apply(0, D)
    assert ProbabilityBot().choose(PlayerView(g, 0)) == use(2)
    g.life[2].clear()
    assert ProbabilityBot().choose(PlayerView(g, 0)) == use(1)
    bot = ProbabilityBot()
    view = PlayerView(new_game(2), 0)
    nine, two, eight, one = vanilla(9), vanilla(2), vanilla(8), vanilla(1)
    assert bot.choose_sift_foe_life(view, (eight, two, nine, one)) == order((one, two))
    assert bot.choose_sift_foe_life(view, (eight, nine)) == B


def test_the_probability_bot_culls_the_weakest_opponent_and_discards_their_best_life_card():
    """DD-29: the bot names the opponent closest to defeat (fewest Life cards and Reserves), discards the card of
    theirs worth most in Reserve and puts the others back worst first, so that their next damage draws the poor
    ones; the heuristic bot discards the top card."""
    from dreaddraw.engine.decisions import D, order, use
    from tests.dreaddraw.factories import new_game, rig, vanilla, with_op

    culler = next(c for c in with_op("cull_life", "summon"))
    g = rig(new_game(3), draw_top=[culler], reserves={1: [vanilla(5)]}, life_sizes={1: 3, 2: 5})
    g.apply(0, D)
    assert ProbabilityBot().choose(PlayerView(g, 0)) == use(1)
    g.life[1].clear()
    assert ProbabilityBot().choose(PlayerView(g, 0)) == use(2)
    view = PlayerView(new_game(2), 0)
    nine, two, eight = vanilla(9), vanilla(2), vanilla(8)
    assert ProbabilityBot().choose_cull(view, (eight, two, nine)) == order((two, eight))
    assert ProbabilityBot().choose_cull(view, (two, nine)) == order((two,))
    g.apply(0, use(2))
    assert HeuristicBot().choose(PlayerView(g, 0)) == order(g.prompt()[3][1:])
