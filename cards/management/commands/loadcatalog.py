from django.core.management.base import BaseCommand

from cards.catalog.dreaddraw import load_dreaddraw_set
from cards.catalog.loader import load_catalog
from decks.starters import load_starter_decks

# Each card set's loader: (label, function returning a report dict). All run in this order;
# each is idempotent, so running the command again changes nothing.
LOADERS = [
    ("dreadgate", load_catalog),
    ("dreaddraw", load_dreaddraw_set),
    ("starter decks", load_starter_decks),  # after the cards they use
]


class Command(BaseCommand):
    help = "Load (or update in place) the whole card catalog. Idempotent: a second run changes nothing."

    def handle(self, *args, **options):
        for label, loader in LOADERS:
            report = loader()
            summary = ", ".join(f"{key} {value}" for key, value in report.items())
            self.stdout.write(f"{label}: {summary}")
