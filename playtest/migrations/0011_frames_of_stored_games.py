"""Every stored Dreadgate game gets its frames (docs/rules.md, RV-2): what each step showed, computed by the rules it
was played under while this app still has them, so that its replay needs no engine from then on.

The goldfish tables get each seat's view and the full one, and the person's seat; the sample games of runs, the
full one. A game of the current rules is framed by the live engine; a game of 1.0.0 by the frozen copy of those
rules, imported here, in the function, only when such a game exists: once that copy is gone (RV-2: it goes after
this migration), a database that still holds 1.0.0 games without frames leaves them as they are (RV-6), and a new
or already migrated database never imports it. The loop that makes a frame is written out here, as
playtest/dreadgate/record.replay_frames has it, because it must run on either engine's State.
"""

import importlib

from django.db import migrations

OLDER_RULES = {"1.0.0": "playtest.older_rules.dreadgate_1_0_0"}  # version -> its frozen engine, while it exists
SAMPLED_KINDS = ("dreadgate_playtest", "dreadgate_metagame")


def _engine(version):
    """The engine package that played `version`, or None where this app no longer has those rules."""
    from playtest import dreadgate

    if version == dreadgate.ENGINE_VERSION:
        return dreadgate
    path = OLDER_RULES.get(version or "")
    if path is None:
        return None
    try:
        return importlib.import_module(path)
    except ImportError:
        return None


def _seen(state, viewer):
    if viewer == "all":
        obs = state.observation(-1)
        for seat in (0, 1):
            obs["players"][seat]["hand"] = [state.inst[i].code for i in state.hand[seat]]
    else:
        obs = state.observation(int(viewer))
    obs.pop("engine", None)
    return obs


def _frames(engine, decks, seed, fmt, actions, viewers):
    """The game's frames, and the seat of its first deck (a table's person, DG-4.3)."""
    state = engine.new_game(decks, seed, fmt)
    frames = [{v: {"seen": _seen(state, v), "said": None} for v in viewers}]
    for raw in actions:
        action = tuple(raw)
        said = {v: engine.describe_action(state, action, -1 if v == "all" else int(v)) for v in viewers}
        state.apply(action)
        frames.append({v: {"seen": _seen(state, v), "said": said[v]} for v in viewers})
    return frames, state.deck_of_seat.index(0)


def frame_stored_games(apps, schema_editor):
    Table = apps.get_model("playtest", "GoldfishTable")
    Run = apps.get_model("playtest", "Run")
    tables = Table.objects.filter(frames=b"")
    runs = Run.objects.filter(kind__in=SAMPLED_KINDS, result__isnull=False)
    if not tables.exists() and not runs.exists():
        return  # a new database, or one whose games all have their frames: nothing is imported
    from core.frames import pack, to_text
    from playtest.dreadgate import CardDef, fairness

    def cards_of(snapshot):
        return {code: CardDef.from_dict(card) for code, card in snapshot["cards"].items()}

    for table in tables.iterator():
        engine = _engine(table.engine_version)
        if engine is None:
            continue
        decks = [[cards_of(d)[code] for code in d["list"]] for d in table.params["decks"]]
        seed = fairness.game_seed(table.seed, table.nonce)
        try:
            frames, seat = _frames(engine, decks, seed, table.params["format"], table.actions, ("0", "1", "all"))
        except Exception:  # a game its own rules can't replay stays as it was, shown as such (RV-6)
            continue
        Table.objects.filter(pk=table.pk).update(frames=pack(frames), seat=seat)
    for run in runs.iterator():
        samples = run.result.get("samples") if isinstance(run.result, dict) else None
        if not samples:
            continue
        cards = {}
        for snapshot in run.params.get("decks", []):
            cards.update(cards_of(snapshot))
        changed = False
        for sample in samples:
            record = sample.get("record")
            engine = _engine((record or {}).get("engine"))
            if engine is None or "frames" in sample:
                continue
            try:
                decks = [[cards[code] for code in deck] for deck in record["decks"]]
                frames, _ = _frames(engine, decks, record["seed"], record["format"], record["actions"], ("all",))
            except Exception:  # as above
                continue
            sample["frames"] = to_text(pack(frames))
            changed = True
        if changed:
            Run.objects.filter(pk=run.pk).update(result=run.result)


class Migration(migrations.Migration):

    dependencies = [
        ("playtest", "0010_stored_frames"),
    ]

    operations = [
        migrations.RunPython(frame_stored_games, migrations.RunPython.noop),
    ]
