from __future__ import annotations

from django.conf import settings
from django.db import models


class AccessToken(models.Model):
    """A personal access token for the API. Only its SHA-256 digest is stored: the token itself
    (32 random bytes) is shown once, when it is created."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12, help_text="The token's first characters, to recognise it.")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class LoginCounter(models.Model):
    """The failed log-in counters while the shared cache (Redis) does not answer: the table of the database cache that
    stands in for it (the "logins_in_database" cache of config/settings.py), in Django's cache table layout."""

    cache_key = models.CharField(max_length=255, primary_key=True)
    value = models.TextField()
    expires = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "accounts_login_counters"

    def __str__(self) -> str:
        return self.cache_key
