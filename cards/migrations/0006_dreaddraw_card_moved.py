"""DreadDrawCard moved to the dreaddraw app (state only: its table keeps its name)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0005_full_text_columns'),
        ('dreaddraw', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(database_operations=[], state_operations=[
            migrations.DeleteModel(
                name='DreadDrawCard',
            ),
        ]),
    ]
