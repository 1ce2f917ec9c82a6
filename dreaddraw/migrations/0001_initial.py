"""Dread Draw's models move in from the cards and playtest apps: state only, the tables keep their names.

The content types follow (and with them every permission granted on these models).
"""

import django.db.models.deletion
import uuid
from django.conf import settings
from django.db import migrations, models


MOVED = {"dreaddrawcard": "cards", "dreaddrawtable": "playtest", "dreaddrawseat": "playtest"}


def _relabel(apps, *, to_new: bool) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    for model, old_app in MOVED.items():
        source, target = ("dreaddraw", old_app) if not to_new else (old_app, "dreaddraw")
        # A fresh database may already hold the target row (created after an earlier migrate): keep the
        # row that permissions point at, the source's.
        if content_type.objects.filter(app_label=source, model=model).exists():
            content_type.objects.filter(app_label=target, model=model).delete()
            content_type.objects.filter(app_label=source, model=model).update(app_label=target)


def move_content_types(apps, schema_editor) -> None:
    _relabel(apps, to_new=True)


def move_content_types_back(apps, schema_editor) -> None:
    _relabel(apps, to_new=False)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("cards", "0005_full_text_columns"),
        ("playtest", "0003_dreaddraw_tables"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(database_operations=[], state_operations=[
            migrations.CreateModel(
                name='DreadDrawCard',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('number', models.PositiveSmallIntegerField(unique=True)),
                    ('name', models.CharField(max_length=60, unique=True)),
                    ('strength', models.PositiveSmallIntegerField()),
                    ('damage', models.PositiveSmallIntegerField(help_text='Red damage dots.')),
                    ('keyword', models.CharField(blank=True, choices=[('', 'No ability'), ('summon', 'Summon'), ('reserve', 'Reserve'), ('aftermath', 'Aftermath'), ('always', 'Always on')], max_length=10)),
                    ('effect', models.JSONField(blank=True, default=dict)),
                    ('text', models.TextField(blank=True)),
                    ('fortune_present', models.CharField(max_length=200)),
                    ('fortune_near', models.CharField(help_text='Meaning as the immediate future.', max_length=200)),
                    ('fortune_far', models.CharField(help_text='Meaning as the distant future.', max_length=200)),
                    ('catalog_version', models.CharField(max_length=32)),
                ],
                options={
                    'db_table': 'cards_dreaddrawcard',
                    'ordering': ['number'],
                },
            ),
            migrations.CreateModel(
                name='DreadDrawTable',
                fields=[
                    ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                    ('players', models.PositiveSmallIntegerField()),
                    ('seed', models.BigIntegerField()),
                    ('set_version', models.CharField(max_length=32)),
                    ('decisions', models.JSONField(blank=True, default=list, help_text='Every decision so far, in notation.')),
                    ('status', models.CharField(choices=[('waiting', 'Waiting for players'), ('playing', 'Playing'), ('over', 'Game over')], db_index=True, default='waiting', max_length=8)),
                    ('winner_seat', models.PositiveSmallIntegerField(blank=True, null=True)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('updated_at', models.DateTimeField(auto_now=True)),
                    ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='dreaddraw_tables', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'playtest_dreaddrawtable',
                    'ordering': ['-updated_at'],
                },
            ),
            migrations.CreateModel(
                name='DreadDrawSeat',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('index', models.PositiveSmallIntegerField()),
                    ('kind', models.CharField(choices=[('bot', 'Bot'), ('local', "Person at the creator's screen"), ('invite', 'Person joining by link')], max_length=6)),
                    ('bot', models.CharField(blank=True, choices=[('random', 'Random'), ('heuristic', 'Heuristic'), ('probability', 'Probability-aware')], max_length=12)),
                    ('name', models.CharField(max_length=40)),
                    ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='dreaddraw_seats', to=settings.AUTH_USER_MODEL)),
                    ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='dreaddraw.dreaddrawtable')),
                ],
                options={
                    'db_table': 'playtest_dreaddrawseat',
                    'ordering': ['table', 'index'],
                    'constraints': [models.UniqueConstraint(fields=('table', 'index'), name='dreaddraw_seat_unique')],
                },
            ),
        ]),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
