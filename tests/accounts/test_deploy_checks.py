"""`check --deploy` warns where the site is behind a proxy but counts none (dreadgate.W001, docs/operations.md)."""

import pytest
from django.core import checks

pytestmark = pytest.mark.config_independent


def warning_ids() -> set[str]:
    return {message.id for message in checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])}


@pytest.mark.parametrize("ssl_header, proxies, warned", [
    (("HTTP_X_FORWARDED_PROTO", "https"), 0, True),  # behind a proxy, every client at its address
    (("HTTP_X_FORWARDED_PROTO", "https"), 1, False),
    (None, 0, False),  # no proxy: REMOTE_ADDR is the client
])
def test_a_proxy_without_a_trusted_proxy_count_is_warned_of(settings, ssl_header, proxies, warned):
    settings.SECURE_PROXY_SSL_HEADER = ssl_header
    settings.TRUSTED_PROXY_COUNT = proxies
    assert ("dreadgate.W001" in warning_ids()) is warned


def test_the_check_runs_only_with_deploy(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXY_COUNT = 0
    assert "dreadgate.W001" not in {message.id for message in checks.run_checks(tags=[checks.Tags.security])}
