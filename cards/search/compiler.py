"""Compiler of the search language: syntax tree in, Django Q object, ordering and warnings out.

A compiled node is a Q, or None for a term that is ignored (with its warning). An ignored term drops
out of the boolean tree whatever stands around it: `t:unit -foo:x` is `t:unit`, `a or foo:x` is `a`,
and a query of ignored terms only matches every card.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from django.db.models import F, Q

from ..crafts import CRAFTS
from ..models import DIRECTION_BITS, Card, CardType, Keyword, Subtype
from .errors import SearchError, SearchWarning
from .lookups import register as register_lookups
from .parser import And, Node, Not, Or, Term

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


@dataclass(slots=True)
class Compiled:
    q: Q | None
    order: str | None = None
    direction: str | None = None
    warnings: list[SearchWarning] = field(default_factory=list)
    terms: dict[str, Term] = field(default_factory=dict)  # the order: and direction: terms that applied


class _Compiler:
    def __init__(self) -> None:
        self.order: str | None = None
        self.direction: str | None = None
        self.terms: dict[str, Term] = {}
        self.warnings: list[SearchWarning] = []
        self.negated = False  # inside an odd number of NOTs

    def warn(self, message: str, term: Term) -> None:
        self.warnings.append(SearchWarning(message, term.start))

    # -- structure --

    def node(self, node: Node, top: bool) -> Q | None:
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
            return None if inner is None else ~inner
        if isinstance(node, And):
            parts = [q for q in (self.node(c, top) for c in node.children) if q is not None]
            if not parts:
                return None
            result = parts[0]
            for q in parts[1:]:
                result &= q
            return result
        assert isinstance(node, Or)
        parts = [q for q in (self.node(c, top=False) for c in node.children) if q is not None]
        if not parts:
            return None
        result = parts[0]
        for q in parts[1:]:
            result |= q
        return result

    def term(self, term: Term, top: bool) -> Q | None:
        if term.field is None:
            q = self.substring("name", term)
            if not term.quoted and _COLLECTOR_NUMBER.fullmatch(term.value):
                q |= Q(collector_number__iexact=term.value)
            return q
        kind = FIELDS.get(term.field)
        if kind is None:
            self.warn(f"Unknown field '{term.field}' ignored; see the help page for the fields.", term)
            return None
        return getattr(self, f"field_{kind}")(term, top)

    # -- helpers --

    def only(self, term: Term, ops: tuple[str, ...]) -> None:
        if term.op not in ops:
            raise SearchError(
                f"'{term.field}' takes {' or '.join(repr(o) for o in ops)}, not '{term.op}'.",
                position=term.start + len(term.field or ""), expected=list(ops),
            )

    def choice(self, term: Term, choices: dict[str, str] | tuple[str, ...], what: str) -> str:
        value = term.value.strip().lower()
        if value in choices:
            return choices[value] if isinstance(choices, dict) else value
        listed = sorted(set(choices))
        raise SearchError(f"Unknown {what} '{term.value}'.", position=term.value_start, expected=listed)

    def substring(self, column: str, term: Term) -> Q:
        """Cards whose `column` contains the value, ignoring case, on every backend (trigram indexes
        serve it on PostgreSQL). Where the term is not negated, the full-text pre-filter of
        `implied_tsquery` goes with it; under a NOT no index serves it, so it would only cost."""
        q = Q(**{f"{column}__icontains": term.value})
        words = None if self.negated or term.op == "!=" else implied_tsquery(term.value)
        return q if words is None else q & Q(**{f"{column}__fts": words})

    @staticmethod
    def negatable(term: Term, q: Q, present: Q | None = None) -> Q:
        """`q`, or for `!=` the one rule of every field: the cards that have the field (`present`; every
        card when None) and whose value is not the term's. `-field:value` is every card `q` misses."""
        if term.op != "!=":
            return q
        return ~q if present is None else present & ~q

    # -- fields --

    def field_name(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        q = Q(name__iexact=term.value) if term.op != ":" else self.substring("name", term)
        return self.negatable(term, q)

    def field_text(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "!="))
        return self.negatable(term, self.substring("text", term), ~Q(text=""))

    def field_craft(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        return self.negatable(term, Q(craft=self.choice(term, CRAFT_VALUES, "craft or colour")))

    def field_type(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        value = term.value.strip().lower()
        if value in TYPE_VALUES:
            q = Q(type=TYPE_VALUES[value])
        elif value in SUBTYPE_VALUES:  # t:weapon reads naturally; sub: is the exact field
            q = Q(subtype=SUBTYPE_VALUES[value])
        else:
            q = Q(type=self.choice(term, CARD_TYPES, "card type"))
        return self.negatable(term, q)

    def field_sub(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        return self.negatable(term, Q(subtype=self.choice(term, SUBTYPE_VALUES, "subtype")), ~Q(subtype=""))

    def field_stat(self, term: Term, top: bool) -> Q:
        self.only(term, OPERATORS_ALL)
        column = STATS[term.field]
        raw = term.value.strip().lower()
        span = _RANGE.fullmatch(raw)
        if span:  # vit:3-5, both ends included
            self.only(term, (":", "=", "!="))
            low, high = (self.number(term, text) for text in span.groups())
            if low > high:
                raise SearchError(f"The range '{term.value}' runs backwards; write the lower number first.",
                                  position=term.value_start, expected=[f"{high}-{low}"])
            inside = Q(**{f"{column}__gte": low, f"{column}__lte": high})
            return self.negatable(term, inside, Q(**{f"{column}__isnull": False}))
        rhs: object = F(STATS[raw]) if raw in STATS else self.number(term, raw)  # atk>def: two stats of a card
        if term.op == "!=":
            present = Q(**{f"{column}__isnull": False})
            if isinstance(rhs, F):
                present &= Q(**{f"{rhs.name}__isnull": False})
            return self.negatable(term, Q(**{column: rhs}), present)
        return Q(**{f"{column}__{_NUMERIC_LOOKUPS[term.op]}": rhs})

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

    def _direction(self, term: Term, column: str) -> Q:
        self.only(term, (":", "=", "!="))
        name = self.choice(term, DIRECTION_VALUES, "direction")
        return self.negatable(term, Q(**{f"{column}__hasbit": DIRECTION_BITS[name]}), ~Q(**{column: 0}))

    def field_adir(self, term: Term, top: bool) -> Q:
        return self._direction(term, "attack_directions")

    def field_mdir(self, term: Term, top: bool) -> Q:
        return self._direction(term, "maneuver_directions")

    def field_kw(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        value = term.value.strip().lower()
        known: dict[str, str] = {}  # slug or name, lower case -> slug
        for slug, name in Keyword.objects.values_list("slug", "name"):
            known[slug.lower()] = slug
            known.setdefault(name.lower(), slug)
        slug = known.get(value)
        if slug is None:
            suggestions = [f"is:{value}"] if value in IS_VALUES else []
            suggestions += [f"{term.field}:{known[m]}" for m in difflib.get_close_matches(value, list(known), n=3)]
            suggestions = list(dict.fromkeys(suggestions))
            hint = f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
            raise SearchError(f"Unknown keyword '{term.value}'.{hint}", position=term.value_start,
                              expected=sorted(set(known.values())), suggestions=suggestions)
        return self.negatable(term, _with_keyword(Q(keyword__slug=slug)), _with_keyword(Q()))

    def field_is(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        value = self.choice(term, IS_VALUES, "property for 'is:'")
        if value == "flying":
            q = Q(flying_maneuver__isnull=False) | _with_keyword(Q(keyword__slug="aviation"))
        else:
            q = Q(**{f"is_{value}": True})
        return self.negatable(term, q)

    def field_cn(self, term: Term, top: bool) -> Q:
        self.only(term, (":", "=", "!="))
        value = term.value.strip()
        q = Q(collector_number__istartswith=value[:-1]) if value.endswith("*") else Q(collector_number__iexact=value)
        return self.negatable(term, q)

    def field_order(self, term: Term, top: bool) -> None:
        self.only(term, (":", "="))
        value = self.choice(term, ORDER_VALUES, "sort order")
        self._setting(term, top, "order", value)
        return None

    def field_direction(self, term: Term, top: bool) -> None:
        self.only(term, (":", "="))
        value = self.choice(term, DIRECTIONS, "direction for sorting")
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


def _with_keyword(keyword: Q) -> Q:
    """Cards having a keyword that matches: an uncorrelated IN subquery, which the database runs
    once (a correlated EXISTS is run per card when ORed with another condition)."""
    return Q(pk__in=Card.keywords.through.objects.filter(keyword).values("card_id"))


def compile_query(node: Node | None) -> Compiled:
    if node is None:
        return Compiled(None)
    compiler = _Compiler()
    q = compiler.node(node, top=True)
    return Compiled(q, compiler.order, compiler.direction, compiler.warnings, compiler.terms)


def ordering(order: str, direction: str) -> list:
    column = ORDERS[order]
    key = F(column).desc(nulls_last=True) if direction == "desc" else F(column).asc(nulls_last=True)
    return [key] if column == "name" else [key, "name"]
