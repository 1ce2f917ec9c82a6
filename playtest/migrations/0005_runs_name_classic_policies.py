"""Runs played before the whole-deck policies name the policies they were played with.

`goldfish` and `matchup` now name the lookahead policies; the units-only plans that earlier runs used are
`classic-goldfish` and `classic-matchup`. A run still queued or running keeps playing the plan it started
with, because its parameters now name it.
"""

from django.db import migrations

RENAMED = {"goldfish": "classic-goldfish", "matchup": "classic-matchup"}


def _rename(apps, mapping) -> None:
    run_model = apps.get_model("playtest", "Run")
    for run in run_model.objects.filter(kind="dreadgate_playtest").only("id", "params").iterator():
        policies = (run.params or {}).get("policies")
        if isinstance(policies, list) and any(p in mapping for p in policies):
            run.params = {**run.params, "policies": [mapping.get(p, p) for p in policies]}
            run.save(update_fields=["params"])


def name_classic(apps, schema_editor) -> None:
    _rename(apps, RENAMED)


def unname_classic(apps, schema_editor) -> None:
    _rename(apps, {new: old for old, new in RENAMED.items()})


class Migration(migrations.Migration):

    dependencies = [
        ("playtest", "0004_dreaddraw_tables_moved"),
    ]

    operations = [migrations.RunPython(name_classic, unname_classic)]
