import json
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from playtest.jobs import services
from playtest.jobs.registry import kinds


class Command(BaseCommand):
    help = "Submit a run to the workers (as the given user) and, with --wait, wait for it and print its result."

    def add_arguments(self, parser):
        parser.add_argument("kind", help="job kind, e.g. " + ", ".join(sorted(kinds())))
        parser.add_argument("--games", type=int, default=None,
                            help="games to play (default 100; a metagame table fixes its own)")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--params", default="{}", help="job parameters as JSON")
        parser.add_argument("--user", default="jobrunner", help="owner of the run (created if missing)")
        parser.add_argument("--wait", type=float, default=0, help="seconds to wait for the run to finish")

    def handle(self, *args, kind, games, seed, params, user, wait, **options):
        owner, _ = get_user_model().objects.get_or_create(username=user)
        if games is None and kind in kinds() and kinds()[kind].games_of is None:
            games = 100
        try:
            run = services.run_submit(owner=owner, kind=kind, params=json.loads(params), games=games, seed=seed)
        except json.JSONDecodeError as exc:
            raise CommandError(f"--params is not JSON: {exc}") from exc
        except (DomainError, LookupError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"run {run.pk} queued ({run.games} games in {run.chunks.count()} chunks)")
        if not wait:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.is_finished:
                break
            time.sleep(0.5)
        else:
            raise CommandError(f"run {run.pk} not finished after {wait} s: {run.status}, {run.games_done}/{run.games}")
        if run.status != "done":
            raise CommandError(f"run {run.pk} {run.status}: {run.error}")
        self.stdout.write(f"run {run.pk} done: {run.games_done} games in {run.duration_seconds:.2f} s")
