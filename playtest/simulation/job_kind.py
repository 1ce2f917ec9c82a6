"""The Dreadgate playtest job kind: goldfish and matchup runs of users' decks.

Submission snapshots the decks (every card's definition and the list) into the run's
parameters, so a run always says exactly what it played, even after the deck or the catalog
changes, and the workers never read the decks table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import serializers

from cards.models import Card
from cards.selectors import catalog_seen
from core.cardtypes import GATEWAY
from core.errors import DomainError, ErrorCode
from core.formats import FORMAT_SLUGS as FORMATS
from core.formats import FORMATS as FORMAT_RULES
from core.formats import deck_formats_for
from core.intbounds import MAX_BIG_INTEGER
from decks.charts import bar_chart
from decks.models import Deck, DeckEntry
from decks.selectors import deck_for_viewer
from playtest.dreadgate import ENGINE_VERSION, GameSetupError, new_game
from playtest.jobs.registry import JobKind, register
from playtest.policies import POLICIES, chunk_games
from playtest.simulation import games as dreadgate_sim
from playtest.simulation.charts import line_chart
from playtest.simulation.report import report

MODES = {"goldfish": ("goldfish", "passive"), "matchup": ("matchup", "matchup")}
CARD_FIELDS = (
    "collector_number", "name", "craft", "type", "subtype", "vitality", "attack", "defense", "range", "maneuver",
    "flying_maneuver", "attack_directions", "maneuver_directions", "is_unique", "is_instant", "is_consumable",
    "cost", "influence", "abilities",
)  # fmt: skip


def card_definitions(card_ids: set[int]) -> dict[str, dict]:
    """The engine's definitions of some cards, by collector number (a deck's, or a tuning run's cards that may come
    in). Each card's is read once per catalog in this process, as the search index is (cards.selectors): a new load
    is seen by its stamp, a card saved here at once (the index's generation moves)."""
    global _definitions
    key = catalog_seen()
    if _definitions[0] != key:
        _definitions = (key, {})
    known = _definitions[1]
    missing = card_ids - known.keys()
    if missing:
        known.update(_read_definitions(missing))
    return {known[card_id]["collector_number"]: known[card_id] for card_id in card_ids if card_id in known}


_definitions: tuple[tuple[str, int] | None, dict[int, dict]] = (None, {})  # (catalog stamp, generation), by card id


def _read_definitions(card_ids: set[int]) -> dict[int, dict]:
    rows = Card.objects.filter(pk__in=card_ids).values_list("pk", *CARD_FIELDS)
    keywords: dict[int, list[str]] = {}
    for card_id, slug in Card.keywords.through.objects.filter(card_id__in=card_ids).values_list("card_id",
                                                                                                 "keyword__slug"):
        keywords.setdefault(card_id, []).append(slug)
    definitions = {}
    for card_id, *values in rows:
        definition = dict(zip(CARD_FIELDS, values, strict=True))
        definition["keywords"] = sorted(keywords.get(card_id, []))
        definitions[card_id] = definition
    return definitions


class _PerCatalog:
    """Answers remembered in this process per version of the catalog (its stamp and the card index's generation),
    at most `kept` of them: a long-lived process sees version after version of the decks, and begins again."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self.catalog: tuple[str, int] | None = None
        self.known: dict[tuple, Any] = {}

    def get(self, key: tuple, make: Callable[[], Any]) -> Any:
        catalog = catalog_seen()
        if catalog != self.catalog:
            self.catalog, self.known = catalog, {}
        if key not in self.known:
            if len(self.known) >= self.kept:
                self.known.clear()
            self.known[key] = make()
        return self.known[key]


def deck_snapshot(deck: Deck) -> dict[str, Any]:
    """The deck's list (by card name, the gateway last) and every card's definition (a submission's main cost).
    Remembered per version of the deck and of the catalog in this process, as _setup_refusal's answers are: every
    save moves a deck's version, and a player submits run after run of one version."""
    snapshot = _snapshots.get((deck.pk, deck.version, deck.updated_at), lambda: _read_snapshot(deck))
    return {**snapshot, "cards": dict(snapshot["cards"]), "list": list(snapshot["list"])}  # the caller's own


_snapshots = _PerCatalog(kept=256)


def _read_snapshot(deck: Deck) -> dict[str, Any]:
    rows = list(DeckEntry.objects.filter(deck=deck).order_by("card__name")
                .values_list("card_id", "card__collector_number", "count"))
    if deck.gateway_id:
        rows.append((deck.gateway_id, deck.gateway.collector_number, 1))  # read with the deck (deck_for_viewer)
    definitions = card_definitions({row[0] for row in rows})
    cards = {code: definitions[code] for _, code, _ in rows}
    listing = [code for _, code, count in rows for _ in range(count)]
    return {"id": deck.pk, "name": deck.name, "version": deck.version, "legal": deck.is_legal,
            "cards": cards, "list": listing}


def check_deck_format(deck: Deck, fmt: str, field: str) -> None:
    """Refuse, naming `field`, a deck built for a format whose games do not take it (DC-8)."""
    taken = deck_formats_for(fmt)
    if deck.format not in taken:
        kinds = " and ".join(FORMAT_RULES[slug].label for slug in taken)
        raise DomainError(f"{field}: “{deck.name}” is a {deck.get_format_display()} deck, and a "
                          f"{FORMAT_RULES[fmt].label} game takes {kinds} decks only (rule DC-8)",
                          code=ErrorCode.DECK_FORMAT, details={"field": field, "rule": "DC-8"})


def _field_error(field: str, message: str) -> DomainError:
    return DomainError(f"{field}: {message}", code=ErrorCode.INVALID, details={"field": field})


class PlaytestParams(serializers.Serializer):
    """The declared types of a playtest's parameters (checked before validate_params)."""

    mode = serializers.ChoiceField(choices=list(MODES), default="goldfish")
    deck = serializers.IntegerField(min_value=1, max_value=MAX_BIG_INTEGER)
    opponent = serializers.IntegerField(min_value=1, max_value=MAX_BIG_INTEGER, required=False, allow_null=True)
    format = serializers.ChoiceField(choices=list(FORMATS), required=False, allow_blank=True, allow_null=True)
    key = serializers.CharField(max_length=64, required=False, allow_blank=True, allow_null=True)
    opponent_key = serializers.CharField(max_length=64, required=False, allow_blank=True, allow_null=True)
    policies = serializers.ListField(child=serializers.ChoiceField(choices=list(POLICIES)), min_length=2,
                                     max_length=2, required=False)


def validate_params(params: dict, owner) -> dict:
    """{"mode", "deck", "opponent" (matchups), "format", "key"/"opponent_key" (unlisted decks),
    "policies"} (types checked by PlaytestParams) -> the parameters the workers play from."""
    mode = params.get("mode", "goldfish")
    if mode not in MODES:
        raise _field_error("mode", f"must be one of {', '.join(MODES)}")
    deck = deck_for_viewer(deck_id=params.get("deck"), user=owner, key=params.get("key"))
    if mode == "matchup":
        if params.get("opponent") in (None, ""):
            raise _field_error("opponent", "a matchup needs an opponent deck")
        opponent = deck_for_viewer(deck_id=params["opponent"], user=owner, key=params.get("opponent_key"))
    else:
        opponent = deck  # the goldfish opponent holds the same deck and never plays it
    fmt = params.get("format") or deck.format
    if fmt not in FORMATS:
        raise _field_error("format", f"must be one of {', '.join(FORMATS)}")
    check_deck_format(deck, fmt, "deck")
    if opponent is not deck:
        check_deck_format(opponent, fmt, "opponent")
    policies = params.get("policies") or list(MODES[mode])
    if not isinstance(policies, list) or len(policies) != 2 or any(p not in POLICIES for p in policies):
        raise _field_error("policies", f"two of {', '.join(POLICIES)}")
    mine = deck_snapshot(deck)
    decks = [mine, mine if opponent is deck else deck_snapshot(opponent)]
    refusal = _setup_refusal(decks, fmt)
    if refusal:
        raise DomainError(f"The deck can't be played: {refusal}", code=ErrorCode.DECK_UNPLAYABLE,
                          details={"field": "deck"})
    return {"mode": mode, "format": fmt, "policies": policies, "decks": decks}


def _setup_refusal(decks: list[dict], fmt: str) -> str:
    """Why a game of these deck snapshots can't be set up (GameSetupError's words), or "". Remembered per lists of
    the decks and version of the catalog in this process (which the answer depends on alone: the snapshots' cards are
    the catalog's definitions of their lists' cards): a player submits run after run of one list, renamed or
    described anew between them or not, and setting a game up (every card's definition compiled) was a sixth of a
    submission's CPU."""

    def refusal() -> str:
        try:
            new_game([dreadgate_sim.deck_cards(d) for d in decks], 0, fmt)
        except GameSetupError as exc:
            return str(exc)
        return ""

    return _setups.get((fmt, *(tuple(d["list"]) for d in decks)), refusal)


_setups = _PerCatalog(kept=4096)




def summarize_params(params: dict) -> dict:
    """The parameters without the snapshots' card definitions (they are the workers' input)."""
    decks = [deck_summary(deck) for deck in params.get("decks", [])]
    return {**params, "decks": decks}


def deck_summary(snapshot: dict) -> dict:
    """A deck snapshot as pages and the API show it: its id, name, version, legality and card count (the main
    deck's, as the deck's own page gives it; the snapshot's list also holds the gateway card, which the engine
    plays)."""
    cards = snapshot.get("cards", {})
    count = sum(1 for code in snapshot.get("list", []) if cards.get(code, {}).get("type") != GATEWAY)
    return {key: snapshot.get(key) for key in ("id", "name", "version", "legal")} | {"cards": count}


def present(result: dict, params: dict) -> dict:
    """The report with its charts, for the run page."""
    figures = report(result, params)
    for deck in figures["decks"]:
        deck["histogram_chart"] = bar_chart(f"{deck['name']}: games won per turn",
                                            [(str(turn), n) for turn, n in deck["histogram"]])
        deck["won_by_turn_chart"] = line_chart(f"{deck['name']}: share of games won by turn", deck["won_by_turn"])
    figures["game_length_chart"] = bar_chart("Games by length in turns",
                                             [(str(turns), n) for turns, n in figures["game_length_histogram"]])
    return figures


def default_title(params: dict[str, Any]) -> str:
    """A run's title when its submission gives none: the deck, and the opponent of a matchup."""
    names = [deck.get("name", "?") for deck in params.get("decks", [])]
    if params.get("mode") == "matchup" and len(names) == 2:
        return f"{names[0]} vs {names[1]}"
    return f"{names[0] if names else '?'}: {params.get('mode', 'goldfish')}"


DREADGATE_PLAYTEST = register(JobKind(
    name="dreadgate_playtest",
    label="Dreadgate playtest",
    play_chunk=dreadgate_sim.play_chunk,
    merge=dreadgate_sim.merge,
    engine_version=ENGINE_VERSION,
    chunk_size=100,
    chunk_size_of=lambda params, usual: chunk_games(params["policies"], usual),
    params_serializer=PlaytestParams,
    validate_params=validate_params,
    report_template="playtest/reports/dreadgate.html",
    present=present,
    summarize_params=summarize_params,
    default_title=default_title,
))
