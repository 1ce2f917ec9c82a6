from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class DecksConfig(AppConfig):
    name = "decks"

    def ready(self) -> None:
        from cards.models import Card

        from .selectors import clear_card_index

        # The in-memory card index follows single-card edits (bulk loads change the catalog version).
        post_save.connect(clear_card_index, sender=Card, dispatch_uid="decks-card-index-save")
        post_delete.connect(clear_card_index, sender=Card, dispatch_uid="decks-card-index-delete")
