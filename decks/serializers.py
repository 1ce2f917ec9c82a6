"""API shapes of decks. Serializers only check and translate; the rules live in services and validation."""

from __future__ import annotations

import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from core.intbounds import MAX_INTEGER

from .cardinfo import Entry
from .deckcode import MAX_ENTRIES
from .errors import InvalidDeck
from .models import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_TAG_LENGTH, DeckFormat, Visibility
from .selectors import can_edit, deck_considering, deck_export_code, deck_report, deck_tags

TAG_HELP = (f"The owner's label for the card (the editor's piles), at most {MAX_TAG_LENGTH} characters and no "
            "control characters; \"\" is untagged.")


class _NoSurrogates(ProhibitSurrogateCharactersValidator):
    """DRF's refusal of a lone surrogate, looked for by the regular expression engine rather than a character at a
    time in Python (a deck list may hold 100,000 characters)."""

    def __call__(self, value):
        if found := _SURROGATE.search(str(value)):
            raise ValidationError(self.message.format(code_point=ord(found.group())), code=self.code)


_SURROGATE = re.compile("[\ud800-\udfff]")


class LongTextField(serializers.CharField):
    """A text of up to tens of thousands of characters (a deck list, a description), checked as CharField checks
    it."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.validators = [_NoSurrogates() if isinstance(v, ProhibitSurrogateCharactersValidator) else v
                           for v in self.validators]


class CardCountSerializer(serializers.Serializer):
    card = serializers.CharField(max_length=80, help_text="Collector number (or exact card name).")
    count = serializers.IntegerField(min_value=1, max_value=60)


class DeckCardWriteSerializer(CardCountSerializer):
    tag = serializers.CharField(max_length=MAX_TAG_LENGTH, allow_blank=True, required=False,
                                help_text=TAG_HELP + " Left out, the card keeps the tag it has.")


class DeckEntryOutSerializer(serializers.Serializer):  # the schema's shape of what entry_out writes
    """A card of the main deck."""

    card = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    craft = serializers.CharField()
    is_unique = serializers.BooleanField()
    count = serializers.IntegerField()
    tag = serializers.CharField(read_only=True, help_text=TAG_HELP)


class ConsideringOutSerializer(serializers.Serializer):  # the schema's shape of what considering_out writes
    """A card of the considering list: kept for later beside the deck, neither counted nor validated."""

    card = serializers.CharField()
    name = serializers.CharField()
    count = serializers.IntegerField()


# A deck's cards are written as plain dictionaries, not through a serializer per card: a deck answer holds some
# fifty of them, and DRF's per-field work was most of its cost. The schema's shape is the serializers' above (the
# API fuzz checks every answer against it).
def entry_out(entry: Entry, tags: dict[str, str]) -> dict:
    card = entry.card
    return {"card": card.collector_number, "name": card.name, "type": card.type, "craft": card.craft,
            "is_unique": card.is_unique, "count": entry.count, "tag": tags.get(card.collector_number, "")}


def considering_out(entry: Entry) -> dict:
    return {"card": entry.card.collector_number, "name": entry.card.name, "count": entry.count}


# A report is also read back, unread, as part of a deck's API form sent to the import (JsonDeckSerializer): hence
# its texts may be blank and its numbers are bounded, as a request's must be.
class IssueSerializer(serializers.Serializer):
    code = serializers.CharField(allow_blank=True,
                                 help_text="Stable code, e.g. copies_over_limit (docs/rules.md, DC rules).")
    rule = serializers.CharField(allow_blank=True,
                                 help_text="The DC rule broken; empty for list-reading errors and warnings.")
    message = serializers.CharField(allow_blank=True, help_text="Names the card at fault where there is one.")
    card = serializers.CharField(required=False, allow_blank=True, help_text="Collector number of the card at fault.")
    line = serializers.IntegerField(required=False, min_value=0, max_value=MAX_INTEGER,
                                    help_text="Line of the submitted list (1-based).")
    suggestions = serializers.ListField(child=serializers.CharField(), required=False,
                                        help_text="Closest card names, for an unknown card.")


class ValidationReportSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    count = serializers.IntegerField(min_value=0, max_value=MAX_INTEGER,
                                     help_text="Main-deck cards, without the gateway pair.")
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)


class ValidateRequestSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=DeckFormat.choices)
    list = LongTextField(allow_blank=True, trim_whitespace=False, max_length=100_000,
                         help_text='A plain-text list: one "N Card Name" or "N collector-number" per line.')


GATEWAY_COPIES = 2  # the gateway pair beside the main deck (DC-7)


class GatewayOutSerializer(serializers.Serializer):
    card = serializers.CharField(source="collector_number")
    name = serializers.CharField()
    count = serializers.SerializerMethodField()

    def get_count(self, obj) -> int:
        return GATEWAY_COPIES


def gateway_out(card) -> dict | None:
    return None if card is None else {"card": card.collector_number, "name": card.name, "count": GATEWAY_COPIES}


_MOMENT = serializers.DateTimeField()  # writes a time as every other date-time field of the API does


class DeckSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    format = serializers.CharField()
    visibility = serializers.CharField()
    version = serializers.IntegerField()
    card_count = serializers.IntegerField()
    is_legal = serializers.BooleanField()
    is_starter = serializers.BooleanField()
    crafts = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField()

    def get_crafts(self, obj) -> list[str]:
        return obj.crafts.split()

    def to_representation(self, deck) -> dict:
        """The fields read straight from the deck, as the declared fields would write them: DRF copies a serializer's
        declared fields at each use and walks them per item, which was about a fifth of a deck edit's answer. The
        schema still reads the declared fields; a test holds the two to the same answer."""
        return {
            "id": deck.id, "name": deck.name, "owner": deck.owner.username if deck.owner_id is not None else None,
            "format": deck.format, "visibility": deck.visibility, "version": deck.version,
            "card_count": deck.card_count, "is_legal": deck.is_legal, "is_starter": deck.is_starter,
            "crafts": self.get_crafts(deck), "updated_at": _MOMENT.to_representation(deck.updated_at),
        }


class DeckOutSerializer(DeckSummarySerializer):
    """A deck with its cards, legality and code. Pass what its list shows in context["listed"] (deck_list_out), or
    else the deck's entries in context["entries"] (one query), and its tags and considering list in context["tags"]
    and context["considering"] (else they are read here)."""

    description = serializers.CharField()
    catalog_version = serializers.CharField()
    copied_from = serializers.SerializerMethodField(
        help_text="The deck this one was copied from, when the reader may see it (public, or the reader's own); "
                  "else null.")
    gateway = GatewayOutSerializer(allow_null=True)
    cards = serializers.SerializerMethodField()
    considering = serializers.SerializerMethodField(
        help_text="The considering list: cards kept for later beside the deck, neither counted nor validated "
                  "(legality and card_count leave them out).")
    legality = serializers.SerializerMethodField()
    code = serializers.SerializerMethodField(help_text="The deck code (import it with POST /api/decks/import/).")
    share_url = serializers.SerializerMethodField(help_text="Unlisted decks, to their owner: the secret link.")
    created_at = serializers.DateTimeField()

    def to_representation(self, deck) -> dict:
        return {
            **super().to_representation(deck), "description": deck.description,
            "catalog_version": deck.catalog_version,
            "copied_from": self.get_copied_from(deck),
            **self._listed(deck), "share_url": self.get_share_url(deck),
            "created_at": _MOMENT.to_representation(deck.created_at),
        }

    def _listed(self, deck) -> dict:
        if "listed" not in self.context:
            self.context["listed"] = deck_list_out(
                deck, self.context["entries"],
                self.context["tags"] if "tags" in self.context else deck_tags(deck),
                self.context["considering"] if "considering" in self.context else deck_considering(deck))
        return self.context["listed"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_copied_from(self, deck) -> int | None:
        return deck.copied_from_id if self.context.get("source_shown") else None

    @extend_schema_field(DeckEntryOutSerializer(many=True))
    def get_cards(self, deck) -> list:
        return self._listed(deck)["cards"]

    @extend_schema_field(ConsideringOutSerializer(many=True))
    def get_considering(self, deck) -> list:
        return self._listed(deck)["considering"]

    @extend_schema_field(ValidationReportSerializer)
    def get_legality(self, deck) -> dict:
        return self._listed(deck)["legality"]

    def get_code(self, deck) -> str:
        return self._listed(deck)["code"]

    def get_share_url(self, deck) -> str | None:
        user = self.context.get("user")
        if deck.visibility == Visibility.UNLISTED and can_edit(deck, user):
            return deck.get_absolute_url()
        return None


def _by_type_and_name(entry: Entry) -> tuple[str, str]:
    return entry.card.type, entry.card.name


def deck_list_out(deck, entries, tags: dict[str, str], considering) -> dict:
    """What a deck's answer shows of its list (its gateway, cards, considering list, legality and code): fixed by the
    deck's list version and the catalog's, so kept per those (decks.api.deck_payload)."""
    return {
        "gateway": gateway_out(deck.gateway),
        "cards": [entry_out(entry, tags) for entry in sorted(entries, key=_by_type_and_name)],
        "considering": [considering_out(entry) for entry in sorted(considering, key=_by_type_and_name)],
        "legality": deck_report(deck, entries).as_dict(),
        "code": deck_export_code(deck, entries),
    }


class DeckWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME_LENGTH)
    description = LongTextField(allow_blank=True, required=False, max_length=MAX_DESCRIPTION_LENGTH)
    format = serializers.ChoiceField(choices=DeckFormat.choices, required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    cards = DeckCardWriteSerializer(many=True, required=False,
                                    help_text="The main deck, replaced as a whole; each card may carry its tag.")
    considering = CardCountSerializer(many=True, required=False,
                                      help_text="The considering list, replaced as a whole: cards kept for later "
                                                "beside the deck, neither counted nor validated.")
    gateway = serializers.CharField(allow_null=True, required=False, help_text="Collector number of the gateway card.")



class DeckReplaceSerializer(DeckWriteSerializer):
    """PUT: the deck as a whole. Every field is required (a field left out is a 400 naming it, never kept as it
    was): `cards` and `considering` may be [] and `gateway` null."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = True

class RevertSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=MAX_INTEGER, help_text="The revision to go back to.")


class CopySerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME_LENGTH, required=False)


# The JSON deck's serializers state its shape in the schema, which the contract check holds a request to (a
# closed shape: a key the deck does not have is refused by name); decks.services reads the deck itself, naming the
# item of any card it refuses. The fields a deck's API form adds are accepted, so that form imports too, and not read.
class JsonDeckCardSerializer(serializers.Serializer):
    """A card of a JSON deck's "cards" or "considering" list, or its gateway."""
    card = serializers.CharField(max_length=80, required=False, help_text="Collector number (or card name).")
    name = serializers.CharField(max_length=80, required=False, help_text="The card's name, read when "
                                 "\"card\" is left out.")
    count = serializers.IntegerField(min_value=1, max_value=60)
    tag = serializers.CharField(max_length=MAX_TAG_LENGTH, allow_blank=True, allow_null=True, required=False,
                                help_text=TAG_HELP + " Read for \"cards\" only.")
    type = serializers.CharField(max_length=32, required=False, help_text="Not read.")
    craft = serializers.CharField(max_length=32, allow_blank=True, required=False, help_text="Not read.")
    is_unique = serializers.BooleanField(required=False, help_text="Not read.")


class JsonDeckSerializer(serializers.Serializer):
    """A deck as GET /api/decks/{id}/export/?as=json (or GET /api/decks/{id}/) writes it. The import reads its
    name, description, format, gateway, cards (with their tags) and considering list; it accepts the other fields
    of those forms and does not read them."""
    name = serializers.CharField(max_length=MAX_NAME_LENGTH, allow_blank=True, required=False)
    description = LongTextField(allow_blank=True, required=False, max_length=MAX_DESCRIPTION_LENGTH)
    format = serializers.ChoiceField(choices=DeckFormat.choices, required=False)
    gateway = JsonDeckCardSerializer(allow_null=True, required=False)
    cards = JsonDeckCardSerializer(many=True, max_length=MAX_ENTRIES)
    considering = JsonDeckCardSerializer(many=True, max_length=MAX_ENTRIES, required=False)
    # Not read: what the export and the API form add for their readers.
    version = serializers.IntegerField(min_value=1, max_value=MAX_INTEGER, required=False)
    catalog_version = serializers.CharField(max_length=32, allow_blank=True, required=False)
    code = serializers.CharField(max_length=4096, allow_blank=True, required=False)
    id = serializers.IntegerField(min_value=1, max_value=MAX_INTEGER, required=False)
    owner = serializers.CharField(max_length=150, allow_null=True, required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    card_count = serializers.IntegerField(min_value=0, max_value=MAX_INTEGER, required=False)
    is_legal = serializers.BooleanField(required=False)
    is_starter = serializers.BooleanField(required=False)
    crafts = serializers.ListField(child=serializers.CharField(max_length=32), max_length=16, required=False)
    copied_from = serializers.IntegerField(min_value=1, max_value=MAX_INTEGER, allow_null=True, required=False)
    legality = ValidationReportSerializer(required=False)
    share_url = serializers.CharField(max_length=2000, allow_null=True, required=False)
    created_at = serializers.CharField(max_length=40, allow_blank=True, required=False)  # a date, not read
    updated_at = serializers.CharField(max_length=40, allow_blank=True, required=False)


@extend_schema_field(JsonDeckSerializer(allow_null=True))
class JsonDeckField(serializers.JSONField):
    """A JSON deck, passed on as sent."""


class ImportRequestSerializer(serializers.Serializer):
    list = LongTextField(required=False, allow_blank=True, trim_whitespace=False, max_length=100_000)
    code = serializers.CharField(required=False, allow_blank=True, max_length=4096)
    deck = JsonDeckField(required=False, allow_null=True,
                         help_text="A deck as GET /api/decks/{id}/export/?as=json writes it.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NAME_LENGTH)
    format = serializers.ChoiceField(choices=DeckFormat.choices, required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)

    def validate(self, attrs):
        if not attrs.get("list") and not attrs.get("code") and attrs.get("deck") is None:
            raise InvalidDeck("Send a deck list in 'list', a deck code in 'code' or a JSON deck in 'deck'.",
                              details={"field": "list"})
        return attrs


class RevisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    author = serializers.CharField(source="author.username", allow_null=True, default=None)
    message = serializers.CharField()
    name = serializers.CharField()
    format = serializers.CharField()
    cards = serializers.ListField(child=serializers.ListField(), help_text="[[collector number, count], ...]")
    tags = serializers.DictField(child=serializers.CharField(),
                                 help_text="{collector number: tag} of the tagged main-deck cards.")
    considering = serializers.ListField(child=serializers.ListField(),
                                        help_text="The considering list, [[collector number, count], ...].")
