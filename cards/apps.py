from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "Card catalog"

    def ready(self) -> None:
        # A card or keyword saved in this process (the admin, the tests) drops this process's search
        # index at once; other processes see a new catalog load by its stamp (cards/search/index.py).
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from .models import Card, Keyword
        from .search.index import forget

        for model in (Card, Keyword):
            post_save.connect(forget, sender=model, dispatch_uid=f"search-index-{model.__name__}-save")
            post_delete.connect(forget, sender=model, dispatch_uid=f"search-index-{model.__name__}-delete")
        m2m_changed.connect(forget, sender=Card.keywords.through, dispatch_uid="search-index-keywords")
