"""The estimates' calibration: asked of a worker, never played in the request, timed again once a day old."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from playtest.models import PolicySpeed
from playtest.simulation import run_speed
from playtest.simulation.run_speed import CALIBRATION_KEPT_SECONDS, calibrated_speed, speed_calibrate

pytestmark = pytest.mark.django_db


def test_the_worker_s_timing_is_kept_and_served(django_capture_on_commit_callbacks):
    speed = speed_calibrate(policies=("classic-goldfish", "passive"), fmt="quick")
    row = PolicySpeed.objects.get(format="quick", policies="classic-goldfish:passive")
    assert speed > 0 and row.games_per_second == speed
    with django_capture_on_commit_callbacks() as asked:
        assert calibrated_speed(("classic-goldfish", "passive"), "quick") == speed
    assert asked == [], "a fresh timing is not asked again"
    assert calibrated_speed(("classic-goldfish", "passive"), "standard") is None, "one format's speed is not another's"


def test_a_day_old_timing_serves_while_a_worker_times_it_again(django_capture_on_commit_callbacks):
    old = timezone.now() - timedelta(seconds=CALIBRATION_KEPT_SECONDS + 60)
    PolicySpeed.objects.create(format="standard", policies="matchup:matchup", games_per_second=12.5, timed_at=old,
                               asked_at=old)
    with django_capture_on_commit_callbacks() as asked:
        assert calibrated_speed(("matchup", "matchup"), "standard") == 12.5
    assert len(asked) == 1
    with django_capture_on_commit_callbacks() as asked_again:
        assert calibrated_speed(("matchup", "matchup"), "standard") == 12.5
    assert asked_again == [], "asked once a minute at most, however many requests want the speed"
    speed_calibrate(policies=("matchup", "matchup"), fmt="standard")
    row = PolicySpeed.objects.get(format="standard", policies="matchup:matchup")
    assert row.timed_at > old and row.games_per_second != 12.5 and PolicySpeed.objects.count() == 1


def test_the_timing_counts_the_time_a_game_takes_not_only_its_cpu(monkeypatch):
    """On a machine busy with other runs a game takes longer than the CPU it uses: the calibration is read as the
    time a run will take, so it is timed by the clock (a game here waits 0.1 s and uses next to no CPU)."""
    monkeypatch.setattr(run_speed.simulated, "play_game", lambda *args: time.sleep(0.1))
    speed = speed_calibrate(policies=("classic-goldfish", "passive"), fmt="quick")
    assert 5 < speed <= 10
