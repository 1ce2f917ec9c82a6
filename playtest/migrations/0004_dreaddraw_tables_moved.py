"""Dread Draw's tables moved to the dreaddraw app (state only: their tables keep their names)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('playtest', '0003_dreaddraw_tables'),
        ('dreaddraw', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(database_operations=[], state_operations=[
            migrations.RemoveField(
                model_name='dreaddrawtable',
                name='owner',
            ),
            migrations.DeleteModel(
                name='DreadDrawSeat',
            ),
            migrations.DeleteModel(
                name='DreadDrawTable',
            ),
        ]),
    ]
