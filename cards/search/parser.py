"""Tokenizer and parser of the card search language: text in, syntax tree with positions out.

Grammar (AND binds tighter than OR; juxtaposition is AND):

    query   := or_expr EOF
    or_expr := and_expr ("or" and_expr)*
    and_expr:= unary (["and"] unary)*
    unary   := NEG* atom         NEG is "-", or "not" / "!" (read as "-", with a warning)
    atom    := "(" or_expr ")" | term
    term    := WORD | QUOTED | "!" WORD | "!" QUOTED | FIELD OP (WORD | QUOTED) | PFIELD OP PATTERN

QUOTED is text between double quotes or between single quotes (a single quote inside a word, as in
o'brien, is a letter). `!fire` and `!"Iron Spear"` are exact names, as `name=fire` and `name="Iron Spear"`
(Scryfall's reading); `!` before anything else (a field term, a group, a space) is read as "-". PATTERN is a
regular expression between slashes (`\\/` is a slash inside it), after the fields of PATTERN_FIELDS
only; cards/search/regex.py says which patterns are accepted.

Positions are 0-based character offsets into the query text. This module knows nothing of
fields' meanings or of Django: the compiler gives the terms their meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import SearchError

MAX_QUERY_LENGTH = 1000
MAX_DEPTH = 32  # nesting of parentheses and negations; deeper input is refused rather than recursed into

OPERATORS = (":", "=", "!=", "<", "<=", ">", ">=")
_FIELD_TERM = re.compile(r"([A-Za-z]+)(!=|<=|>=|:|=|<|>)")
_WORD_END = frozenset(' \t\r\n\f\v()"')
PATTERN_FIELDS = frozenset({"name", "o", "text"})  # name:/…/ and o:/…/ take a regular expression


# --- Syntax tree ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """`field op value`, or a bare word/phrase (field None) that searches names."""

    field: str | None
    op: str
    value: str
    quoted: bool
    start: int
    end: int
    value_start: int
    regex: bool = False  # the value is a pattern written between slashes
    bang: bool = False  # an exact name written `!word` (the compiler warns: it once read as a negation)


@dataclass(frozen=True, slots=True)
class Not:
    child: Node
    start: int
    written: str = "-"  # "not" or "!" when the player wrote that for "-" (the compiler warns)


@dataclass(frozen=True, slots=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    children: tuple[Node, ...]


Node = Term | Not | And | Or


# --- Tokenizer -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "(", ")", "-", "or", "and", "term", "eof"
    start: int
    end: int
    term: Term | None = None
    text: str = ""  # a "-" token as written: "-", "not" or "!"


QUOTES = ('"', "'")


def _read_quoted(text: str, start: int) -> tuple[str, int]:
    """The string between the quote at `start` and the next quote of the same kind, and the offset after it."""
    quote = text[start]
    close = text.find(quote, start + 1)
    if close < 0:
        raise SearchError("This quote is never closed.", position=start, expected=[f"a closing {quote}"])
    return text[start + 1 : close], close + 1


def _read_pattern(text: str, start: int) -> tuple[str, int]:
    """The pattern between the slash at `start` and the next unescaped slash, and the offset after it."""
    j, n = start + 1, len(text)
    while j < n and text[j] != "/":
        j += 2 if text[j] == "\\" else 1
    if j >= n:
        raise SearchError("This '/' starts a pattern that is never closed.", position=start,
                          expected=["a closing /"])
    if j + 1 < n and text[j + 1] not in _WORD_END:
        raise SearchError("A pattern ends at its closing '/'; put a space after it.", position=j + 1,
                          expected=["a space", "')'"])
    return text[start + 1 : j], j + 1


def _bang_word(text: str, start: int) -> int | None:
    """The end of the word after the "!" at `start` when that word is a name (not a field term, a connective or
    another operator), else None."""
    j = start + 1
    if j >= len(text) or text[j] in _WORD_END or text[j] in "!-='":
        return None
    while j < len(text) and text[j] not in _WORD_END:
        j += 1
    word = text[start + 1 : j]
    if _FIELD_TERM.match(word) or word.lower() in ("or", "and", "not"):
        return None
    return j


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            tokens.append(Token(ch, i, i + 1))
            i += 1
        elif ch == "-":
            if i + 1 >= n or text[i + 1].isspace() or text[i + 1] == ")":
                raise SearchError("'-' must be followed by the term it negates.", position=i, expected=["a term"])
            tokens.append(Token("-", i, i + 1, text="-"))
            i += 1
        elif ch == "!" and i + 1 < n and text[i + 1] in QUOTES:  # !"Iron Spear": the exact name
            value, end = _read_quoted(text, i + 1)
            tokens.append(Token("term", i, end, Term("name", "=", value, True, i, end, i + 2)))
            i = end
        elif ch == "!" and (bare := _bang_word(text, i)) is not None:  # !fire: the exact name "fire"
            tokens.append(Token("term", i, bare, Term("name", "=", text[i + 1 : bare], False, i, bare, i + 1,
                                                       bang=True)))
            i = bare
        elif ch == "!" and (i + 1 >= n or text[i + 1] != "="):
            tokens.append(Token("-", i, i + 1, text="!"))  # "!" before a term, or standing alone
            i += 1
        elif ch in QUOTES:
            value, end = _read_quoted(text, i)
            tokens.append(Token("term", i, end, Term(None, ":", value, True, i, end, i + 1)))
            i = end
        else:
            j = i
            while j < n and text[j] not in _WORD_END:
                j += 1
            word = text[i:j]
            match = _FIELD_TERM.match(word)
            if match:
                field, op = match.group(1).lower(), match.group(2)
                value_start = i + match.end()
                value, quoted = word[match.end() :], False
                if value.startswith("/") and field in PATTERN_FIELDS:
                    value, j = _read_pattern(text, value_start)
                    tokens.append(Token("term", i, j, Term(field, op, value, False, i, j, value_start + 1, True)))
                    i = j
                    continue
                if not value and j < n and text[j] == '"':
                    value, j = _read_quoted(text, j)
                    quoted, value_start = True, value_start + 1
                elif value.startswith("'"):
                    value, j = _read_quoted(text, value_start)
                    quoted, value_start = True, value_start + 1
                elif not value:
                    raise SearchError(
                        f"'{word}' needs a value after '{op}'.", position=value_start, expected=["a value"]
                    )
                tokens.append(Token("term", i, j, Term(field, op, value, quoted, i, j, value_start)))
            elif word.lower() in ("or", "and"):
                tokens.append(Token(word.lower(), i, j))
            elif word.lower() == "not":
                tokens.append(Token("-", i, j, text=word))
            else:
                tokens.append(Token("term", i, j, Term(None, ":", word, False, i, j, i)))
            i = j
    tokens.append(Token("eof", n, n))
    return tokens


# --- Parser --------------------------------------------------------------------------------


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def or_expr(self, depth: int) -> Node:
        children = [self.and_expr(depth)]
        while self.peek().kind == "or":
            self.take()
            children.append(self.and_expr(depth, after="'or'"))
        return children[0] if len(children) == 1 else Or(tuple(children))

    def and_expr(self, depth: int, after: str | None = None) -> Node:
        children: list[Node] = []
        while True:
            token = self.peek()
            if token.kind == "and":
                self.take()
                if not children:
                    raise SearchError("'and' needs a term before it.", position=token.start, expected=["a term"])
                if after:
                    raise SearchError(f"Expected a search term after {after}, found 'and'.", position=token.start,
                                      expected=["a term", "'('", "'-'"])
                after = "'and'"
                continue
            if token.kind in ("eof", ")", "or"):
                break
            children.append(self.unary(depth))
            after = None
        if not children or after:
            token = self.peek()
            what = f"after {after}" if after else "here"
            found = "the end of the query" if token.kind == "eof" else f"'{token.kind}'"
            raise SearchError(f"Expected a search term {what}, found {found}.", position=token.start,
                              expected=["a term", "'('", "'-'"])
        return children[0] if len(children) == 1 else And(tuple(children))

    def unary(self, depth: int) -> Node:
        negations: list[Token] = []
        while self.peek().kind == "-":
            negations.append(self.take())
        if negations and self.peek().kind not in ("term", "("):
            last = negations[-1]
            # "!" is also the exact name's mark (!fire): alone, it may have meant either.
            what = ("a name to match exactly (!fire, !\"Iron Spear\") or a term to leave out (!t:unit)"
                    if last.text == "!" else "the term it negates")
            raise SearchError(f"'{last.text}' must be followed by {what}.", position=last.start, expected=["a term"])
        if depth + len(negations) > MAX_DEPTH:  # each negation is a level of the tree, as a parenthesis is
            raise SearchError(f"Negations and parentheses are nested more than {MAX_DEPTH} deep.",
                              position=negations[MAX_DEPTH - depth].start, expected=["fewer negations"])
        node = self.atom(depth + len(negations))
        for token in reversed(negations):
            node = Not(node, token.start, token.text)
        return node

    def atom(self, depth: int) -> Node:
        token = self.take()
        if token.kind == "term":
            assert token.term is not None
            return token.term
        if token.kind == "(":
            if depth >= MAX_DEPTH:
                raise SearchError(f"Parentheses are nested more than {MAX_DEPTH} deep.", position=token.start,
                                  expected=["fewer parentheses"])
            node = self.or_expr(depth + 1)
            close = self.peek()
            if close.kind != ")":
                raise SearchError(f"The '(' at column {token.start + 1} is never closed.", position=close.start,
                                  expected=["')'"])
            self.take()
            return node
        found = "the end of the query" if token.kind == "eof" else f"'{token.kind}'"
        raise SearchError(f"Expected a search term, found {found}.", position=token.start, expected=["a term"])


def parse(text: str) -> Node | None:
    """The syntax tree of `text`, or None for a blank query (which matches every card)."""
    if len(text) > MAX_QUERY_LENGTH:
        raise SearchError(f"The query is longer than {MAX_QUERY_LENGTH} characters.", position=MAX_QUERY_LENGTH,
                          expected=["a shorter query"])
    if "\x00" in text:  # no database stores it; refuse it here rather than fail there
        raise SearchError("The query contains a NUL character.", position=text.index("\x00"),
                          expected=["printable text"])
    tokens = tokenize(text)
    if tokens[0].kind == "eof":
        return None
    parser = _Parser(tokens)
    node = parser.or_expr(0)
    rest = parser.peek()
    if rest.kind == ")":
        raise SearchError("This ')' has no '(' to close.", position=rest.start, expected=["a term", "the end"])
    assert rest.kind == "eof", rest
    return node
