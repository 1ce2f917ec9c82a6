from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string


class Command(BaseCommand):
    help = "Load (or update in place) the whole card catalog. Idempotent: a second run changes nothing."

    def handle(self, *args, **options):
        # Each app names its loader in settings.CATALOG_LOADERS (label, dotted path to a function returning a
        # report dict), in loading order; this app does not import the apps above it.
        for label, path in settings.CATALOG_LOADERS:
            report = import_string(path)()
            summary = ", ".join(f"{key} {value}" for key, value in report.items())
            self.stdout.write(f"{label}: {summary}")
