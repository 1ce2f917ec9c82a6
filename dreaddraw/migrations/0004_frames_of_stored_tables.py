"""Every stored Dread Draw table gets its frames (docs/rules.md, RV-2): what each step showed each seat and a watcher,
computed by the rules it was played under, so that it stays viewable after a change of rules. Every table stored
before this migration was played under dreaddraw-1 (0003 says so); the live engine frames the tables of the rules
it has, imported in the function, and only where a table lacks its frames (a new database imports nothing). Its
rules are dreaddraw-1's: dreaddraw-2 changed only the log's words (docs/rules.md), so a dreaddraw-1 table is framed
in them, keeping its version, and plays on (RV-5).
"""

from django.db import migrations

# The versions whose rules the live engine still has: they differ from it in the log's words alone.
SAME_RULES_AS_LIVE = {"dreaddraw-1"}


def frame_stored_tables(apps, schema_editor):
    Table = apps.get_model("dreaddraw", "DreadDrawTable")
    Seat = apps.get_model("dreaddraw", "DreadDrawSeat")
    tables = Table.objects.filter(frames=b"")
    if not tables.exists():
        return
    from core.frames import pack
    from dreaddraw.engine import ENGINE_VERSION, load_cardset, replay_frames
    from dreaddraw.engine.fairness import game_seed

    for table in tables.filter(engine_version__in=SAME_RULES_AS_LIVE | {ENGINE_VERSION}).iterator():
        names = list(Seat.objects.filter(table_id=table.pk).order_by("index").values_list("name", flat=True))
        try:
            frames, refused = replay_frames(table.players, game_seed(table.seed, table.nonce), table.decisions,
                                            load_cardset(version=table.set_version), names)
        except Exception:  # a table its own rules can't replay stays as it was (RV-6)
            continue
        if refused is None:
            Table.objects.filter(pk=table.pk).update(frames=pack(frames))


class Migration(migrations.Migration):

    dependencies = [
        ("dreaddraw", "0003_table_rules_version_and_frames"),
    ]

    operations = [
        migrations.RunPython(frame_stored_tables, migrations.RunPython.noop),
    ]
