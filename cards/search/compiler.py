"""Compiler of the search language: syntax tree in, a condition, ordering and warnings out.

The compiler gives each term its meaning (and its errors and warnings) once; a backend builds the
condition: `SqlBackend` here a Django Q object (the reference, and the fallback), `index.IndexBackend`
a bit set over the in-process index of the catalog. Both receive the same calls, so the two can only
differ in how a primitive (a substring, a stat comparison) is computed, which the tests compare.

A compiled node is a condition, or None for a term that is ignored (with its warning). An ignored
term drops out of the boolean tree whatever stands around it: `t:unit -foo:x` is `t:unit`,
`a or foo:x` is `a`, and a query of ignored terms only matches every card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from django.db.models import F, Q, Value
from django.db.models.functions import Replace

from core.names import APOSTROPHES

from ..crafts import CRAFTS
from ..models import DIRECTION_BITS, Card, CardType, Keyword, Subtype
from .errors import SearchError, SearchWarning
from .lookups import NameOrder
from .lookups import register as register_lookups
from .parser import And, Node, Not, Or, Term
from .regex import Pattern, TimeBudget, compile_pattern, matching
from .suggestions import Vocabulary, did_you_mean, field_suggestions, value_suggestions

register_lookups()

STATS = {
    "vit": "vitality", "vitality": "vitality",
    "atk": "attack", "attack": "attack",
    "def": "defense", "defense": "defense",
    "rng": "range", "range": "range",
    "man": "maneuver", "maneuver": "maneuver",
    "cost": "cost", "influence": "influence",
}
FIELDS = {
    "name": "name", "c": "craft", "craft": "craft", "colour": "craft", "color": "craft",
    "t": "type", "type": "type", "sub": "sub", "subtype": "sub",
    "adir": "adir", "mdir": "mdir", "kw": "kw", "keyword": "kw", "is": "is", "o": "text", "text": "text",
    "cn": "cn", "order": "order", "direction": "direction", **{k: "stat" for k in STATS},
}
ORDERS = {
    "name": "name", "vit": "vitality", "atk": "attack", "def": "defense", "rng": "range", "man": "maneuver",
    "cost": "cost", "influence": "influence", "cn": "collector_number", "craft": "craft",
}
# Every name of a sortable field works in order: (and in the order parameter).
ORDER_ALIASES = {"vitality": "vit", "attack": "atk", "defense": "def", "range": "rng", "maneuver": "man",
                 "c": "craft", "colour": "craft", "color": "craft"}
DIRECTIONS = ("asc", "desc")
TYPE_ALIASES = {"inventory": CardType.ITEM.value, "hero": CardType.LEGEND.value}
IS_VALUES = ("unique", "flying", "instant", "consumable")
MAX_STAT = 32767
_NUMBER = re.compile(r"[0-9]+")  # ASCII digits only: int() would also read "٣" and "1_0"
_RANGE = re.compile(r"([0-9]+)-([0-9]+)")
# A bare word shaped like a collector number (U-10011, L-CHA-01, X-GATE) also finds that card.
_COLLECTOR_NUMBER = re.compile(r"[A-Za-z]-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?")
OWN_NAME = "~"  # in an o: value, the card's own name (each card's, as on Scryfall)
_NUMERIC_LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _craft_values() -> dict[str, str]:
    values: dict[str, str] = {}
    for key, info in CRAFTS.items():
        values[key] = key
        values[info.colour] = key
    return values


CRAFT_VALUES = _craft_values()
# Values of t: and sub:, computed once (enum label lookups are slow on the hot path).
TYPE_VALUES = {t.value: t.value for t in CardType} | {t.label.lower(): t.value for t in CardType} | TYPE_ALIASES
SUBTYPE_VALUES = {s.value: s.value for s in Subtype}
CARD_TYPES = {t.value: t.value for t in CardType}
DIRECTION_VALUES = {d: d for d in DIRECTION_BITS}
ORDER_VALUES = {k: k for k in ORDERS} | ORDER_ALIASES
# Each field of fixed values, for suggestions (suggestions.py): keywords are the backend's, added when needed.
VOCABULARIES = {
    "craft": Vocabulary("c", CRAFT_VALUES), "type": Vocabulary("t", TYPE_VALUES | SUBTYPE_VALUES),
    "sub": Vocabulary("sub", SUBTYPE_VALUES), "is": Vocabulary("is", IS_VALUES),
    "order": Vocabulary("order", ORDER_VALUES), "direction": Vocabulary("direction", DIRECTIONS),
    "adir": Vocabulary("adir", DIRECTION_VALUES), "mdir": Vocabulary("mdir", DIRECTION_VALUES),
}


class Backend(Protocol):
    """What a condition is built from. `column` is a Card field name; `lookup` one of exact, lt, lte,
    gt, gte. Conditions are opaque to the compiler: it only combines them with and_, or_ and not_."""

    def and_(self, a: Any, b: Any) -> Any: ...
    def or_(self, a: Any, b: Any) -> Any: ...
    def not_(self, a: Any) -> Any: ...
    def substring(self, column: str, value: str, *, prefilter: bool) -> Any: ...
    def text_naming_itself(self, value: str) -> Any: ...  # the text holds `value`, each "~" read as the card's name
    def regex(self, column: str, pattern: Pattern) -> Any: ...
    def name_exact(self, value: str) -> Any: ...
    def equals(self, column: str, value: object) -> Any: ...
    def stat(self, column: str, lookup: str, number: int) -> Any: ...
    def stat_versus(self, column: str, lookup: str, other: str) -> Any: ...
    def stat_range(self, column: str, low: int, high: int) -> Any: ...
    def stat_present(self, column: str) -> Any: ...
    def has_bit(self, column: str, bit: int) -> Any: ...
    def keyword(self, slug: str | None) -> Any: ...  # None: any keyword
    def keyword_names(self) -> list[tuple[str, str]]: ...  # (slug, name) of every keyword
    def cn_exact(self, value: str) -> Any: ...
    def cn_prefix(self, value: str) -> Any: ...


@dataclass(slots=True)
class Compiled:
    q: Any  # the backend's condition (a Q for SqlBackend), None for every card
    order: str | None = None
    direction: str | None = None
    warnings: list[SearchWarning] = field(default_factory=list)
    terms: dict[str, Term] = field(default_factory=dict)  # the order: and direction: terms that applied


class _Compiler:
    def __init__(self, backend: Backend) -> None:
        self.b = backend
        self.order: str | None = None
        self.direction: str | None = None
        self.terms: dict[str, Term] = {}
        self.warnings: list[SearchWarning] = []
        self.negated = False  # inside an odd number of NOTs
        self.budget = TimeBudget()  # the one time bound of all the search's patterns

    def warn(self, message: str, term: Term, suggestions: list[str] | None = None) -> None:
        self.warnings.append(SearchWarning(message, term.start, tuple(suggestions or ())))

    # -- structure --

    def node(self, node: Node, top: bool) -> Any:
        if isinstance(node, Term):
            return self.term(node, top)
        if isinstance(node, Not):
            if node.written != "-":
                self.warnings.append(SearchWarning(
                    f"'{node.written}' is read as negation; the operator is '-' (quote \"{node.written}\" to search "
                    "names for it).", node.start))
            self.negated = not self.negated
            inner = self.node(node.child, top=False)
            self.negated = not self.negated
            return None if inner is None else self.b.not_(inner)
        if isinstance(node, And):
            parts = [q for q in (self.node(c, top) for c in node.children) if q is not None]
            if not parts:
                return None
            result = parts[0]
            for q in parts[1:]:
                result = self.b.and_(result, q)
            return result
        assert isinstance(node, Or)
        parts = [q for q in (self.node(c, top=False) for c in node.children) if q is not None]
        if not parts:
            return None
        result = parts[0]
        for q in parts[1:]:
            result = self.b.or_(result, q)
        return result

    def term(self, term: Term, top: bool) -> Any:
        if term.quoted and not term.regex and not term.value.strip():
            # Empty quotes would match every card (a name contains "") or none (no name is ""): neither is a search.
            raise SearchError("These quotes are empty: put the words to look for between them.",
                              position=term.value_start)
        if term.field is None:
            q = self.substring("name", term)
            if not term.quoted and _COLLECTOR_NUMBER.fullmatch(term.value):
                q = self.b.or_(q, self.b.cn_exact(term.value))
            return q
        kind = FIELDS.get(term.field)
        if kind is None:
            suggestions = field_suggestions(term.field, term.op, term.value, FIELDS)
            self.warn(f"Unknown field '{term.field}' ignored.{did_you_mean(suggestions)} The help page lists the "
                      "fields.", term, suggestions)
            return None
        return getattr(self, f"field_{kind}")(term, top)

    # -- helpers --

    def only(self, term: Term, ops: tuple[str, ...]) -> None:
        if term.op not in ops:
            raise SearchError(
                f"'{term.field}' takes {' or '.join(repr(o) for o in ops)}, not '{term.op}'.",
                position=term.start + len(term.field or ""), expected=list(ops),
            )

    def choice(self, term: Term, kind: str, what: str) -> str:
        """The value of a field of fixed values (VOCABULARIES[kind]), or an error that lists them and suggests."""
        choices = VOCABULARIES[kind].values
        value = term.value.strip().lower()
        if value in choices:
            return choices[value] if isinstance(choices, dict) else value  # type: ignore[return-value]
        self.unknown(term, kind, what, sorted(set(choices)))

    def unknown(self, term: Term, kind: str, what: str, expected: list[str]) -> NoReturn:
        """Refuse a value the field does not know, listing the allowed ones and suggesting what was meant."""
        vocabularies = {**VOCABULARIES, "kw": Vocabulary("kw", self.keywords())}
        suggestions = value_suggestions(term.field or "", term.op, kind, term.value, vocabularies)
        raise SearchError(f"Unknown {what} '{term.value}'.{did_you_mean(suggestions)}", position=term.value_start,
                          expected=expected, suggestions=suggestions)

    def keywords(self) -> dict[str, str]:
        """Every keyword's slug and name, lower case -> its slug."""
        known: dict[str, str] = {}
        for slug, name in self.b.keyword_names():
            known[slug.lower()] = slug
            known.setdefault(name.lower(), slug)
        return known

    def substring(self, column: str, term: Term):
        """Cards whose `column` contains the value, ignoring case; a pattern (`/…/`) instead for a
        term written so. Not negated, the value may go with a pre-filter (Backend.substring)."""
        if term.regex:
            return self.b.regex(column, compile_pattern(term.value, term.value_start, self.budget))
        # A typographic apostrophe (a phone's keyboard types Hunter’s) is the catalog's ASCII one (core.names).
        return self.b.substring(column, term.value.translate(APOSTROPHES),
                                prefilter=not (self.negated or term.op == "!="))

    def negatable(self, term: Term, q, present=None):
        """`q`, or for `!=` the one rule of every field: the cards that have the field (`present`; every
        card when None) and whose value is not the term's. `-field:value` is every card `q` misses."""
        if term.op != "!=":
            return q
        return self.b.not_(q) if present is None else self.b.and_(present, self.b.not_(q))

    # -- fields --

    def field_name(self, term: Term, top: bool):
        self.only(term, (":", "!=") if term.regex else (":", "=", "!="))
        if term.bang:
            meant = f"-{term.value}"
            self.warn(f"'!{term.value}' is the card named exactly '{term.value}' (as on Scryfall), not a negation; "
                      f"write '{meant}' to leave out the names that contain it.", term, [meant])
        q = (self.b.name_exact(term.value.translate(APOSTROPHES)) if term.op != ":" and not term.regex
             else self.substring("name", term))
        return self.negatable(term, q)

    def field_text(self, term: Term, top: bool):
        self.only(term, (":", "!="))
        if OWN_NAME in term.value and not term.regex:  # o:"~ deals": Scryfall's ~, the card's own name
            q = self.b.text_naming_itself(term.value)
        else:
            q = self.substring("text", term)
        return self.negatable(term, q, self.b.not_(self.b.equals("text", "")))

    def field_craft(self, term: Term, top: bool):
        self.only(term, (":", "=", "!="))
        return self.negatable(term, self.b.equals("craft", self.choice(term, "craft", "craft or colour")))

    def field_type(self, term: Term, top: bool):
        self.only(term, (":", "=", "!="))
        value = term.value.strip().lower()
        if value in TYPE_VALUES:
            q = self.b.equals("type", TYPE_VALUES[value])
        elif value in SUBTYPE_VALUES:  # t:weapon reads naturally; sub: is the exact field
            q = self.b.equals("subtype", SUBTYPE_VALUES[value])
        else:
            self.unknown(term, "type", "card type", sorted(CARD_TYPES))
        return self.negatable(term, q)

    def field_sub(self, term: Term, top: bool):
        self.only(term, (":", "=", "!="))
        return self.negatable(term, self.b.equals("subtype", self.choice(term, "sub", "subtype")),
                              self.b.not_(self.b.equals("subtype", "")))

    def field_stat(self, term: Term, top: bool):
        self.only(term, OPERATORS_ALL)
        column = STATS[term.field]
        raw = term.value.strip().lower()
        span = _RANGE.fullmatch(raw)
        if span:  # vit:3-5, both ends included
            if term.op not in (":", "=", "!="):
                suggestions = [f"{term.field}:{raw}", f"{term.field}{term.op}{span.group(1)}"]
                raise SearchError(f"A range ('{raw}') takes ':', '=' or '!=', not '{term.op}'; '{term.op}' compares "
                                  f"with one number.{did_you_mean(suggestions)}",
                                  position=term.start + len(term.field or ""), expected=[":", "=", "!="],
                                  suggestions=suggestions)
            low, high = (self.number(term, text) for text in span.groups())
            if low > high:
                raise SearchError(f"The range '{term.value}' runs backwards; write the lower number first.",
                                  position=term.value_start, expected=[f"{high}-{low}"])
            return self.negatable(term, self.b.stat_range(column, low, high), self.b.stat_present(column))
        if raw in STATS:  # atk>def: two stats of a card
            other = STATS[raw]
            if term.op == "!=":
                present = self.b.and_(self.b.stat_present(column), self.b.stat_present(other))
                return self.negatable(term, self.b.stat_versus(column, "exact", other), present)
            return self.b.stat_versus(column, _NUMERIC_LOOKUPS[term.op], other)
        number = self.number(term, raw)
        if term.op == "!=":
            return self.negatable(term, self.b.stat(column, "exact", number), self.b.stat_present(column))
        return self.b.stat(column, _NUMERIC_LOOKUPS[term.op], number)

    @staticmethod
    def number(term: Term, text: str) -> int:
        if not _NUMBER.fullmatch(text):
            raise SearchError(f"'{term.field}' compares with a whole number (digits 0-9), a range such as 3-5 or "
                              f"a stat name, not '{term.value}'.", position=term.value_start,
                              expected=["a whole number", "a range", "a stat name"])
        value = int(text)
        if value > MAX_STAT:
            raise SearchError(f"'{term.value}' is out of range for '{term.field}'.", position=term.value_start,
                              expected=[f"a number from 0 to {MAX_STAT}"])
        return value

    def _direction(self, term: Term, column: str, kind: str):
        self.only(term, (":", "=", "!="))
        name = self.choice(term, kind, "direction")
        return self.negatable(term, self.b.has_bit(column, DIRECTION_BITS[name]),
                              self.b.not_(self.b.equals(column, 0)))

    def field_adir(self, term: Term, top: bool):
        return self._direction(term, "attack_directions", "adir")

    def field_mdir(self, term: Term, top: bool):
        return self._direction(term, "maneuver_directions", "mdir")

    def field_kw(self, term: Term, top: bool):
        self.only(term, (":", "=", "!="))
        known = self.keywords()
        slug = known.get(term.value.strip().lower())
        if slug is None:
            self.unknown(term, "kw", "keyword", sorted(set(known.values())))
        return self.negatable(term, self.b.keyword(slug), self.b.keyword(None))

    def field_is(self, term: Term, top: bool):
        self.only(term, (":", "=", "!="))
        value = self.choice(term, "is", "property for 'is:'")
        if value == "flying":
            q = self.b.or_(self.b.stat_present("flying_maneuver"), self.b.keyword("aviation"))
        else:
            q = self.b.equals(f"is_{value}", True)
        return self.negatable(term, q)

    def field_cn(self, term: Term, top: bool):
        self.only(term, (":", "=", "!="))
        value = term.value.strip()
        if "*" in value[:-1]:  # no collector number holds one: it would find nothing, unsaid
            raise SearchError("'*' stands only at the end of a collector number, for the numbers it begins "
                              "(cn:U-10*).", position=term.value_start + term.value.index("*"),
                              expected=["'*' at the end"])
        q = self.b.cn_prefix(value[:-1]) if value.endswith("*") else self.b.cn_exact(value)
        return self.negatable(term, q)

    def field_order(self, term: Term, top: bool) -> None:
        self.only(term, (":", "="))
        value = self.choice(term, "order", "sort order")
        self._setting(term, top, "order", value)
        return None

    def field_direction(self, term: Term, top: bool) -> None:
        self.only(term, (":", "="))
        value = self.choice(term, "direction", "direction for sorting")
        self._setting(term, top, "direction", value)
        return None

    def _setting(self, term: Term, top: bool, name: str, value: str) -> None:
        if not top:
            self.warn(f"'{term.field}:' only applies at the top level of the query; ignored here.", term)
        elif getattr(self, name) is not None:
            self.warn(f"A second '{term.field}:' is ignored; the first one applies.", term)
        else:
            setattr(self, name, value)
            self.terms[name] = term


OPERATORS_ALL = (":", "=", "!=", "<", "<=", ">", ">=")


# ASCII whitespace, and words that PostgreSQL's text search parser always reads as the start of a
# token when whitespace precedes them. A digit followed by letters may not be: "1e5ab" gives "1e5"
# and "ab". Other characters have case and token rules of their own; such words are left out.
_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*|[0-9]+")


def implied_tsquery(value: str) -> str | None:
    """A tsquery that every text containing `value` matches, or None if nothing is certain.

    A word of `value` that follows whitespace begins a word of any text containing `value`: a
    prefix for the last word, which the text may continue ("tur" in "return"), the whole word
    for the others, which whitespace ends. The first word may be the end of a longer one
    ("end" in "defend"), so it gives nothing. tests/cards/test_search_text_identity.py checks
    this against the catalog and texts the parser reads unusually; docs/search.md tells more.
    """
    chunks = _SPACE.split(value)
    last = len(chunks) - 1
    words = [w.lower() + ("" if i < last else ":*") for i, w in enumerate(chunks) if i and _PLAIN_WORD.fullmatch(w)]
    return " & ".join(dict.fromkeys(words)) or None


class SqlBackend:
    """Conditions as Django Q objects: what the database runs (SQLite or PostgreSQL)."""

    and_ = staticmethod(lambda a, b: a & b)
    or_ = staticmethod(lambda a, b: a | b)
    not_ = staticmethod(lambda a: ~a)

    def substring(self, column: str, value: str, *, prefilter: bool) -> Q:
        """`column` contains the value, ignoring case, on every database (trigram indexes serve it on
        PostgreSQL). With `prefilter` (the term is not negated), the full-text pre-filter of
        `implied_tsquery` goes with it; under a NOT no index serves it, so it would only cost."""
        q = Q(**{f"{column}__icontains": value})
        words = implied_tsquery(value) if prefilter else None
        return q if words is None else q & Q(**{f"{column}__fts": words})

    def text_naming_itself(self, value: str) -> Q:
        """The text contains `value` with each "~" replaced by the card's name, ignoring case: the
        pattern is built per row in SQL (Django escapes LIKE's wildcards in it). No index serves it."""
        return Q(text__icontains=Replace(Value(value), Value(OWN_NAME), F("name")))

    def regex(self, column: str, pattern: Pattern) -> Q:
        """The pattern, evaluated in Python over the column's texts read from the database: the one
        evaluator of cards/search/regex.py, never the database's own regular expressions."""
        rows = list(Card.objects.values_list("pk", column))
        pks, texts = [pk for pk, _ in rows], [text for _, text in rows]
        found = {pks[i] for i in matching(pattern, texts)}
        if len(found) * 2 > len(pks):  # the shorter list of ids
            return ~Q(pk__in=[pk for pk in pks if pk not in found])
        return Q(pk__in=sorted(found))

    def name_exact(self, value: str) -> Q:
        return Q(name__iexact=value)

    def equals(self, column: str, value: object) -> Q:
        return Q(**{column: value})

    def stat(self, column: str, lookup: str, number: int) -> Q:
        return Q(**{f"{column}__{lookup}": number})

    def stat_versus(self, column: str, lookup: str, other: str) -> Q:
        return Q(**{f"{column}__{lookup}": F(other)})

    def stat_range(self, column: str, low: int, high: int) -> Q:
        return Q(**{f"{column}__gte": low, f"{column}__lte": high})

    def stat_present(self, column: str) -> Q:
        return Q(**{f"{column}__isnull": False})

    def has_bit(self, column: str, bit: int) -> Q:
        return Q(**{f"{column}__hasbit": bit})

    def keyword(self, slug: str | None) -> Q:
        """Cards having the keyword (any keyword for None): an uncorrelated IN subquery, which the
        database runs once (a correlated EXISTS is run per card when ORed with another condition)."""
        links = Card.keywords.through.objects
        links = links.filter(keyword__slug=slug) if slug is not None else links.all()
        return Q(pk__in=links.values("card_id"))

    def keyword_names(self) -> list[tuple[str, str]]:
        return list(Keyword.objects.values_list("slug", "name"))

    def cn_exact(self, value: str) -> Q:
        return Q(collector_number__iexact=value)

    def cn_prefix(self, value: str) -> Q:
        return Q(collector_number__istartswith=value)


def compile_query(node: Node | None, backend: Backend | None = None) -> Compiled:
    if node is None:
        return Compiled(None)
    compiler = _Compiler(backend or SqlBackend())
    q = compiler.node(node, top=True)
    return Compiled(q, compiler.order, compiler.direction, compiler.warnings, compiler.terms)


def ordering(order: str, direction: str) -> list:
    """The order of a search: the column (nulls last both ways), then the name, then the collector number;
    names case-insensitively (lookups.NameOrder). By name, the direction applies to both keys."""
    column = ORDERS[order]
    name = NameOrder("name")
    if column == "name":
        return [name.desc(), F("collector_number").desc()] if direction == "desc" else \
            [name.asc(), F("collector_number").asc()]
    key = F(column).desc(nulls_last=True) if direction == "desc" else F(column).asc(nulls_last=True)
    return [key, name.asc(), F("collector_number").asc()]
