from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "config.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from . import checks, schema  # noqa: F401  (register the deploy checks, and the Bearer scheme with the API schema)
        from .backends import forget_user

        def forget(sender, instance, **kwargs):
            forget_user(instance.pk)

        user_model = get_user_model()
        post_save.connect(forget, sender=user_model, weak=False, dispatch_uid="accounts-forget-saved-user")
        post_delete.connect(forget, sender=user_model, weak=False, dispatch_uid="accounts-forget-deleted-user")
