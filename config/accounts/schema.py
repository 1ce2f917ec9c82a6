"""The API schema's security schemes: personal access tokens, and the browser's session (drf-spectacular's own)."""

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "config.accounts.tokens.BearerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "A personal access token from your account page: `Authorization: Bearer <token>`."}


class BrowserSessionScheme(SessionScheme):
    target_class = "config.accounts.tokens.BrowserSessionAuthentication"
