"""How fast the playtest AI plays, timed on a worker: the estimates before any run like the one planned."""

from django.db import models


class PolicySpeed(models.Model):
    """Games per second of one worker process playing the starter decks against each other with `policies` in
    `format` (playtest.simulation.run_speed). Timed on a worker, never in a web request: a strong policy's single
    game takes seconds."""

    format = models.CharField(max_length=20)
    policies = models.CharField(max_length=100, help_text="The seats' policies, joined by ':'.")
    games_per_second = models.FloatField(null=True, blank=True, help_text="Null until a worker has timed them.")
    timed_at = models.DateTimeField(null=True, blank=True)
    asked_at = models.DateTimeField(help_text="When a worker was last asked to time them: asked again only once a "
                                              "while, however many requests want the speed meanwhile.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["format", "policies"], name="policy_speed_once")]

    def __str__(self) -> str:
        speed = "not timed yet" if self.games_per_second is None else f"{self.games_per_second:.1f} games/s"
        return f"{self.policies} ({self.format}): {speed}"
