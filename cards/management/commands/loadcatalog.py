from django.core.management.base import BaseCommand

from cards.catalog.loader import load_catalog


class Command(BaseCommand):
    help = "Load (or update in place) the whole card catalog. Idempotent: a second run changes nothing."

    def handle(self, *args, **options):
        report = load_catalog()
        self.stdout.write(str(report))
