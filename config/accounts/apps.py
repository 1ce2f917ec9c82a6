from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "config.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from . import checks, schema  # noqa: F401  (register the deploy checks, and the Bearer scheme with the API schema)
