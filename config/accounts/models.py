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
