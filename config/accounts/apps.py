from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "config.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from . import schema  # noqa: F401  (registers the Bearer scheme with the API schema)
