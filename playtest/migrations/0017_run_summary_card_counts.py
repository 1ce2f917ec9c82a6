from django.db import migrations


def summarise_again(apps, schema_editor):
    """Runs summarised before a deck's summary counted its main deck alone (the snapshot's list also holds the
    gateway card, which their summaries counted one over): each summarised again as a new one is
    (playtest.jobs.services.run_summary), written only where that changes it."""
    from playtest.jobs.services import run_summary

    Run = apps.get_model("playtest", "Run")
    for run in Run.objects.filter(summary__decks__isnull=False).only("pk", "kind", "params", "summary").iterator(
            chunk_size=200):
        summary = run_summary(run.kind, run.params)
        if summary != run.summary:
            Run.objects.filter(pk=run.pk).update(summary=summary)


class Migration(migrations.Migration):

    dependencies = [
        ("playtest", "0016_run_summary"),
    ]

    operations = [
        migrations.RunPython(summarise_again, migrations.RunPython.noop),
    ]
