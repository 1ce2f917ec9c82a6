from django.db import migrations, models
from django.db.models import F


def list_changed_at_the_current_version(apps, schema_editor):
    """Every deck's list counts as changed at its current version: its page's list is rendered once again."""
    apps.get_model("decks", "Deck").objects.update(list_version=F("version"))


class Migration(migrations.Migration):
    dependencies = [("decks", "0005_copied_messages")]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="list_version",
            field=models.PositiveIntegerField(
                default=1, help_text="The version at which the deck's cards, tags, considering list, format or "
                                     "gateway last changed."),
        ),
        migrations.RunPython(list_changed_at_the_current_version, migrations.RunPython.noop),
    ]
