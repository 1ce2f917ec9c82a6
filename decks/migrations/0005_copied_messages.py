import re

from django.db import migrations

COPIED = re.compile(r"^Copied from deck \d+, version (\d+)$")


def source_unnamed(apps, schema_editor):
    """Copies' first versions written before their message named the source by its version alone (it named the
    source deck's id, an unlisted or private one's too, to whoever may see the copy's history)."""
    from decks.services import copied_message

    DeckRevision = apps.get_model("decks", "DeckRevision")
    for revision in DeckRevision.objects.filter(message__startswith="Copied from deck ").only("pk", "message"):
        if found := COPIED.match(revision.message):
            DeckRevision.objects.filter(pk=revision.pk).update(message=copied_message(int(found[1])))


class Migration(migrations.Migration):

    dependencies = [
        ("decks", "0004_public_order_index"),
    ]

    operations = [
        migrations.RunPython(source_unnamed, migrations.RunPython.noop),
    ]
