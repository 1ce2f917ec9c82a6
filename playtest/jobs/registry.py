from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

PlayChunk = Callable[[dict, int, int, int], dict]
Merge = Callable[[list[dict], dict], dict]
NextStage = Callable[[dict, list[dict]], "dict | None"]
Conclude = Callable[[dict, list[dict]], dict]
Shortfall = Callable[[dict, list[dict], int], str]


@dataclass(frozen=True, slots=True)
class JobKind:
    name: str
    play_chunk: PlayChunk
    merge: Merge
    engine_version: str
    chunk_size: int = 250
    # The chunk size for the validated parameters and chunk_size, when they decide it (a policy whose games take
    # seconds plays fewer a chunk).
    chunk_size_of: Callable[[dict, int], int] | None = None
    label: str = ""
    # The parameters' declared types: a serializer class (DRF) that checks every field's type and bounds
    # before validate_params sees them, so a list where a number belongs is a 400, never a crash.
    params_serializer: type | None = None
    # Checks and normalises the run's parameters for `owner`; raises DomainError naming the field.
    validate_params: Callable[[dict, object], dict] | None = None
    # Template that renders a finished run's result (context: run, result).
    report_template: str = "playtest/reports/generic.html"
    # Turns a finished run's result into the report's figures (context `report`).
    present: Callable[[dict, dict], dict] | None = None
    # What the API shows of the parameters, when they hold more than a reader needs.
    summarize_params: Callable[[dict], dict] | None = None
    # The number of games the validated parameters fix (a metagame table: pairs x games a pair), for a kind whose
    # submissions need not say it; a number given anyway must agree.
    games_of: Callable[[dict], int] | None = None
    # The title of a run submitted without one, from its validated parameters.
    default_title: Callable[[dict], str] | None = None

    # A staged kind (both or neither): see the module's docstring.
    next_stage: NextStage | None = None
    conclude: Conclude | None = None
    # A staged kind's first stage, done by a worker before the first stage of games is planned: the parameters
    # completed (a tuning run's shortlist), so that submitting stays cheap. A DomainError fails the run with its words.
    prepare: Callable[[dict], dict] | None = None
    # Why a staged run that is done played fewer games than its budget, in words: (params, the stages' plans in
    # order, the games left unplayed) -> "the race stopped 1 game short of its budget: ...".
    shortfall: Shortfall | None = None

    @property
    def staged(self) -> bool:
        return self.next_stage is not None

    def public_params(self, params: dict) -> dict:
        return self.summarize_params(params) if self.summarize_params else params


# The plan of a staged run's preparation stage (JobKind.prepare): one chunk of no games, done by a worker.
PREPARE_PLAN = {"games": 0, "prepare": True}


def is_preparation(plan: dict | None) -> bool:
    return bool(plan and plan.get("prepare"))


_KINDS: dict[str, JobKind] = {}


def register(kind: JobKind) -> JobKind:
    _KINDS[kind.name] = kind
    return kind


def get_kind(name: str) -> JobKind:
    _load_kind_modules()
    try:
        return _KINDS[name]
    except KeyError:
        raise LookupError(f"Unknown job kind {name!r}; known: {', '.join(sorted(_KINDS))}") from None


def kinds() -> dict[str, JobKind]:
    _load_kind_modules()
    return dict(_KINDS)


def _load_kind_modules() -> None:
    # Kinds live beside their engines; importing the modules registers them.
    for module in settings.PLAYTEST_JOB_KIND_MODULES:
        importlib.import_module(module)
