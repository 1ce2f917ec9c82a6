"""An in-memory lookup of the catalog by collector number and by name, for reading deck lists.

Pure data: built once from the database (decks.selectors.card_index) and reused, so reading
a list costs a few dictionary look-ups per line instead of a query.
"""

from __future__ import annotations

from collections.abc import Iterable

from cards.closeness import close_matches
from core.names import name_key as fold  # the key a written card name or number is matched on

from .cardinfo import GATEWAY, CardInfo


class CardIndex:
    __slots__ = ("by_id", "by_number", "by_name", "_folded_names", "gateway")

    def __init__(self, cards: Iterable[CardInfo]) -> None:
        self.by_id: dict[int, CardInfo] = {}
        self.by_number: dict[str, CardInfo] = {}
        self.by_name: dict[str, CardInfo] = {}
        gateways = []
        for card in cards:
            self.by_id[card.id] = card
            self.by_number[fold(card.collector_number)] = card
            self.by_name[fold(card.name)] = card
            if card.type == GATEWAY:
                gateways.append(card)
        self._folded_names: list[str] | None = None
        # The gateway card every new deck gets (DC-7): the catalog has one; take the first by number.
        self.gateway: CardInfo | None = min(gateways, key=lambda c: c.collector_number) if gateways else None

    def __len__(self) -> int:
        return len(self.by_id)

    def resolve(self, text: str) -> CardInfo | None:
        """A card by collector number, else by name (case and spacing ignored)."""
        key = fold(text)
        return self.by_number.get(key) or self.by_name.get(key)

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """The closest card names to an unknown one, best first."""
        if self._folded_names is None:
            self._folded_names = list(self.by_name)
        key = fold(text)
        close = close_matches(key, self._folded_names, limit=n, cutoff=0.6)
        if len(close) < n:  # a name written in part ("goblin") is found by its words
            close += [k for k in self._folded_names if key and key in k and k not in close][: n - len(close)]
        return [self.by_name[k].name for k in close]
