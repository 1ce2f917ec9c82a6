"""A table keeps the seat its game waits on (so the list of a player's tables says whose turn it is without
replaying each game), and the finished table whose "Play again" started it (so that table's players find it).
A table in play before this migration takes its seat from its last stored frame, what a watcher was shown.
"""

import django.db.models.deletion
from django.db import migrations, models


def seat_to_move_of_tables_in_play(apps, schema_editor):
    Table = apps.get_model("dreaddraw", "DreadDrawTable")
    from core.frames import FramesError, unpack

    for table in Table.objects.filter(status="playing").exclude(frames=b"").only("pk", "frames").iterator():
        try:
            mover = unpack(bytes(table.frames))[-1]["-1"]["to_move"]
        except (FramesError, IndexError, KeyError, TypeError):
            continue  # without readable frames the list says only that it is being played
        if isinstance(mover, int) and mover >= 0:
            Table.objects.filter(pk=table.pk).update(to_move=mover)


class Migration(migrations.Migration):

    dependencies = [
        ('dreaddraw', '0005_table_snapshot'),
    ]

    operations = [
        migrations.AddField(
            model_name='dreaddrawtable',
            name='rematch_of',
            field=models.ForeignKey(blank=True, help_text='The finished table whose "Play again" started this one: its players are shown the way here.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rematches', to='dreaddraw.dreaddrawtable'),
        ),
        migrations.AddField(
            model_name='dreaddrawtable',
            name='to_move',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The seat the game waits on, kept with each decision so that a list of tables says whose turn it is without replaying their games.', null=True),
        ),
        migrations.RunPython(seat_to_move_of_tables_in_play, migrations.RunPython.noop),
    ]
