"""The deck editor's page and its saves: thin views over decks.services.

Every save answers with the deck panel as saved. Its status is honest (400 for a refused change, 409 for a stale
one) for the editor's script, which sends one save at a time in order (static/decks/editor.js); an htmx request
(the page without its script's queue) gets a 200 so that htmx swaps the panel, which says what went wrong.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from cards.search import SearchError
from cards.selectors import cards_matching
from core.intbounds import shortened

from . import considering, editor_saves, selectors, services
from .cardinfo import GATEWAY
from .decklist import DeckListError, format_deck_list
from .errors import InvalidDeck, StaleVersion
from .models import DECK_LIMITS, MAX_TAG_LENGTH, Deck, DeckFormat, Visibility
from .piles import GROUPINGS, SORTS, grouping_of, piles, sort_of
from .presenters import OPENING_HAND
from .quickadd import deltas_to, parse_quick_add, parse_whole_list
from .selectors import deck_tags
from .views import _deck_context, _owned, _tags_and_considering, _version

SEARCH_LIMIT = 30
STALE_NOTICE = "This deck was changed in another window; your last change was not applied. The list is the saved deck."
# The editor's forms always send the version they show: a change without one is a malformed request, not a race.
NO_VERSION_NOTICE = ("Nothing was saved: this change did not say which version of the deck it was made on. "
                     "Reload the page.")
NOTHING_NOTICE = "Nothing was saved: the change named no card and no detail of the deck."
DETAILS = ("name", "format", "visibility", "description")


@require_safe
def edit(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _owned(request, pk)
    # htmx switching between the list and the card images asks for the panel alone.
    return render(request, "decks/editor.html#panel" if request.htmx else "decks/editor.html",
                  {**_editor_context(request, deck), "body_limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})


@require_safe
def edit_search(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _owned(request, pk)
    query = request.GET.get("q", "").strip()  # whole: the search refuses one past its length, saying so
    context: dict = {"deck": deck, "query": query, "results": [], "error": None, "warnings": [], "more": False,
                     "limit": SEARCH_LIMIT, "oob": True}
    if query:
        try:
            # One more than is shown, to say whether more cards match.
            rows, context["warnings"] = cards_matching(query=query, limit=SEARCH_LIMIT + 1, exclude_type=GATEWAY,
                                                       names_first=True)
        except SearchError as exc:
            context["error"] = exc
        else:
            context["results"], context["more"] = rows[:SEARCH_LIMIT], len(rows) > SEARCH_LIMIT
    counts = dict(deck.entries.values_list("card__collector_number", "count")) if context["results"] else {}
    detail = reverse("cards:detail", args=["CN"])  # once, not per row: a keystroke's answer stays cheap
    for card in context["results"]:
        card["in_deck"] = counts.get(card["collector_number"], 0)
        card["url"] = detail.replace("CN", card["collector_number"])
    return render(request, "decks/editor.html#results", context)


edit_search.throttle_scope = "search"  # a search, as the API's: counted with it (config.middleware)


@require_POST
def edit_change(request: HttpRequest, pk: int) -> HttpResponse:
    """One edit, saved at once: add or remove copies of a card (`delta`), set its count (`count`, against the
    version the page saw), add the first card a query finds (`first_of`, Enter in the search box), or change the
    deck's name, format, visibility or description (against the version the page saw)."""
    deck = shown = _owned(request, pk)
    changes: list[services.CardChange] = []
    try:
        with editor_saves.once(deck, _save_key(request)) as save:
            card = _card_of(request)
            tags = {}
            if card is not None:
                count, delta = _count_and_delta(request)
                tags = deck_tags(deck) if (delta or 0) < 0 or count == 0 else {}
                deck, before, after = services.deck_change_card(
                    deck=deck, actor=request.user, card=card, delta=delta, count=count,
                    expected_version=_version(request), within_limits=True, just_read=True)
                changes.append(services.CardChange(card, before, after))
            # A field left as the deck has it (a name typed back after a refusal) is no change: no version for it.
            fields = {name: value for name in DETAILS
                      if (value := request.POST.get(name)) is not None
                      and services.saved_detail(name, value) != getattr(deck, name)}
            details = []
            if fields:
                was = {name: getattr(deck, name) for name in fields}
                deck = services.deck_update(deck=deck, actor=request.user, expected_version=_version(request),
                                            message=services.detail_words(deck, fields), **fields)
                back = {name: value for name, value in was.items() if getattr(deck, name) != value}
                # Against the version the page then has: undone over another window's save, it is refused.
                details = [{"url": "change", "fields": back, "versioned": True}] if back else []
            if card is None and not fields and not any(name in request.POST for name in DETAILS):
                raise InvalidDeck(NOTHING_NOTICE)
            save.undo = _undo_counts(changes, tags) + details
    except editor_saves.Repeated as repeated:
        return _saved_before(request, shown, repeated)
    except services.VersionRequired:
        return _panel(request, shown, notice=NO_VERSION_NOTICE, status=400)
    except StaleVersion:
        return _panel(request, shown, notice=STALE_NOTICE, status=409)
    except InvalidDeck as exc:
        return _panel(request, shown, notice=exc.message, status=exc.status_code)
    return _panel(request, deck, notice=_saved(deck), undo=save.undo, saved=True)


@require_POST
def edit_quick(request: HttpRequest, pk: int) -> HttpResponse:
    """The quick-add box: lines such as "4 Name", "Name x4" or "-1 Name", saved as one version once every line
    reads; otherwise nothing is saved and each line's problem is said on its line."""
    deck = _owned(request, pk)
    text = request.POST.get("lines", "")
    try:
        read = parse_quick_add(text, selectors.card_index(), gateway=_gateway_number(deck))
    except DeckListError as exc:
        return _panel(request, deck, notice=str(exc), status=400)
    if read.problems:
        return _unread(request, deck, read.problems, problems_for="quick")
    if not read.changes and read.gateway is not None:  # its line is read past (a pasted export): alone, say why
        return _panel(request, deck, notice=f"{read.gateway.name} is this deck's gateway card: it comes with the "
                                            "deck, not in its main deck (DC-7).", status=400)
    if not read.changes and not read.considering:
        return _panel(request, deck, notice="Type a card, e.g. “4 Aberration of the Moonwell”.", status=400)
    return _save_card_changes(request, deck, lambda _read: read.net(), unchanged="Nothing to change.",
                              unchanged_status=400, considering=read.net_considering())


def _gateway_number(deck) -> str:
    """The deck's gateway card, whose line in a pasted list (the deck's own text export) is read past."""
    return deck.gateway.collector_number if deck.gateway_id else ""


@require_safe
def edit_text(request: HttpRequest, pk: int) -> HttpResponse:
    """The main deck as text, for "Edit as text", with the version it is of."""
    deck = _owned(request, pk)
    return JsonResponse({"text": format_deck_list(selectors.deck_entries(deck)), "version": deck.version})


@require_POST
def edit_whole(request: HttpRequest, pk: int) -> HttpResponse:
    """The main deck edited as text: the counts its lines give are saved as one version, against the version the
    text was of (a deck changed since is a conflict, not overwritten); while a line does not read, nothing is saved
    and each line's problem is said on its line."""
    deck = _owned(request, pk)
    try:
        held = {e.card.collector_number: e.count for e in selectors.deck_entries(deck)}
        read = parse_whole_list(request.POST.get("lines", ""), selectors.card_index(), held=held,
                                deck_format=deck.format, gateway=_gateway_number(deck))
    except DeckListError as exc:
        return _panel(request, deck, notice=str(exc), status=400)
    if read.problems:  # said in the text's dialog (static/decks/text_edit.js), not beside the quick-add box
        return _unread(request, deck, read.problems, problems_for="text")
    return _save_card_changes(request, deck, lambda now: deltas_to(selectors.deck_entries(now), read.net()),
                              unchanged="Nothing to change: the deck already reads so.", unchanged_status=200,
                              against_version=True)


def _unread(request: HttpRequest, deck: Deck, problems, *, problems_for: str) -> HttpResponse:
    """Lines that do not read: nothing saved, each line's problem said (beside the box `problems_for` names)."""
    return _panel(request, deck, status=400, notice=f"Nothing was saved: {len(problems)} line"
                  f"{'' if len(problems) == 1 else 's'} cannot be read.", problems=problems,
                  problems_for=problems_for)


def _save_card_changes(request: HttpRequest, deck: Deck, deltas_of, *, unchanged: str, unchanged_status: int,
                       against_version: bool = False, considering=()) -> HttpResponse:
    """Lines of cards saved as one version (quick add, Edit as text), each copy limit saying what it stopped, once
    per save key. `deltas_of(deck)`: the changes, decided on the deck as read for the save. `against_version`: the
    save is refused as stale (409) unless the deck is still at the version the page sent. `considering`: the
    considering list's changes (quick add's sideboard lines), saved in the same version."""
    shown, changes = deck, []
    try:
        with editor_saves.once(deck, _save_key(request)) as save:
            if against_version and _version(request) != deck.version:
                raise StaleVersion()
            deltas = deltas_of(deck)
            tags = deck_tags(deck) if any(delta < 0 for _, delta in deltas) else {}
            if deltas or considering:
                deck, changes = services.deck_change_cards(deck=deck, actor=request.user, deltas=deltas,
                                                           within_limits=True, just_read=True,
                                                           considering=considering)
            if any(c.after != c.before for c in changes):
                save.undo = _undo_counts(changes, tags)
    except editor_saves.Repeated as repeated:
        return _saved_before(request, shown, repeated)
    except StaleVersion:
        return _panel(request, shown, notice=STALE_NOTICE, status=409)
    except InvalidDeck as exc:  # 400, or 409 for a tag another window changed (StaleTag)
        return _panel(request, shown, notice=exc.message, status=exc.status_code)
    refusals = [c.refused for c in changes if c.refused]
    if save.undo is None:
        # Copies taken out of a card the deck does not hold: named, rather than a bare "Nothing to change."
        absent = [c.card.name for c in changes if c.before == c.after == 0 and not c.considering]
        if absent and not refusals:
            unchanged = (f"{unchanged.rstrip('.')}: {', '.join(absent)} {'is' if len(absent) == 1 else 'are'} not in "
                         "the deck.")
        return _panel(request, deck, notice=" ".join(refusals) or unchanged, status=unchanged_status)
    saved = _saved(deck)
    return _panel(request, deck, notice=" ".join([saved, *refusals]), undo=save.undo, saved=True)


@require_POST
def edit_tag(request: HttpRequest, pk: int) -> HttpResponse:
    """Give a card of the main deck a tag ("" untags it): the tag piles, by drag or key. Or several cards chosen
    together, in one version: `tags`, a JSON list of {"card", "tag", "was"}."""
    if "tags" in request.POST:
        return _apply_to(request, pk, lambda deck: _tagged(request, deck, _tagging(request.POST["tags"])))
    return _apply(request, pk, lambda deck, card: _tagged(
        request, deck, [(card, request.POST.get("tag", ""), request.POST.get("was"))]))


def _tagged(request: HttpRequest, deck: Deck, tagging: list) -> tuple[Deck, list[dict]]:
    deck, changes = considering.deck_tag_cards(deck=deck, actor=request.user, tagging=tagging, just_read=True)
    # Undone only over the tags it set: one another window set since is not taken off.
    back = [{"card": c.card.collector_number, "tag": c.before, "was": c.after} for c in changes if c.before != c.after]
    if len(tagging) == 1:
        return deck, [{"url": "tag", "fields": fields} for fields in back]
    return deck, [{"url": "tag", "fields": {"tags": json.dumps(back)}}] if back else []


MAX_TAGGED_TOGETHER = 200  # cards tagged in one save: more different cards than any deck holds


def _tagging(raw: str) -> list[tuple]:
    """The cards of a save of several tags, each (card, tag, was); a body that does not read is refused, saying
    where."""
    try:
        asked = json.loads(raw)
    except ValueError:
        raise InvalidDeck("tags: not a JSON list of cards to tag.") from None
    if not isinstance(asked, list) or not 0 < len(asked) <= MAX_TAGGED_TOGETHER:
        raise InvalidDeck(f"tags: a list of 1 to {MAX_TAGGED_TOGETHER} cards to tag.")
    tagging = []
    for n, item in enumerate(asked, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("card"), str) or not isinstance(
                item.get("tag", ""), str) or not isinstance(item.get("was", ""), str | None):
            raise InvalidDeck(f"tags, item {n}: a card's number, with its tag and the tag it had as text.")
        card = selectors.card_index().resolve(item["card"])
        if card is None:
            raise InvalidDeck(f"tags, item {n}: no card “{shortened(item['card'], 20)}”.")
        tagging.append((card, item.get("tag", ""), item.get("was")))
    return tagging


@require_POST
def edit_consider(request: HttpRequest, pk: int) -> HttpResponse:
    """Add or remove copies of a card on the considering list."""
    def consider(deck, card):
        delta = _count_and_delta(request)[1]
        deck, change = considering.deck_consider(deck=deck, actor=request.user, card=card, delta=delta or 0,
                                                 just_read=True)
        if change.refused and change.after == change.before:
            raise InvalidDeck(change.refused)
        if delta is not None and delta < 0 and change.before == 0:  # a "−" past the last copy: said, not "Saved"
            raise InvalidDeck(f"{card.name}: none on the considering list, so none taken out.",
                              details={"card": card.collector_number})
        back = str(change.before - change.after)
        undo = {"url": "consider", "fields": {"card": card.collector_number, "delta": back}}
        return deck, [undo] if change.before != change.after else []
    return _apply(request, pk, consider)


@require_POST
def edit_move(request: HttpRequest, pk: int) -> HttpResponse:
    """Move copies of a card between the considering list and the main deck."""
    def move(deck, card):
        to = considering.TO_CONSIDERING if request.POST.get("to") == "considering" else considering.TO_DECK
        count = _count_and_delta(request)[0] or 1
        tag = request.POST["tag"] if "tag" in request.POST else None  # undoing a move puts the tag back
        deck, moved = considering.deck_move_card(deck=deck, actor=request.user, card=card, count=count, to=to,
                                                 tag=tag, just_read=True)
        back = "considering" if to == considering.TO_DECK else "main"
        undo = {"url": "move", "fields": {"card": card.collector_number, "count": str(moved.moved), "to": back,
                                          "tag": moved.tag_before}}
        return deck, [undo] if moved.moved else []
    return _apply(request, pk, move)


def _apply(request: HttpRequest, pk: int, edit) -> HttpResponse:
    """A save of one card: edit(deck, card), the card the request names."""
    def on_its_card(deck):
        card = _card_of(request)
        if card is None:
            raise InvalidDeck("Name a card.")
        return edit(deck, card)
    return _apply_to(request, pk, on_its_card)


def _apply_to(request: HttpRequest, pk: int, edit) -> HttpResponse:
    """A save: edit(deck) gives the deck saved and what takes the save back."""
    deck = shown = _owned(request, pk)
    try:
        with editor_saves.once(deck, _save_key(request)) as save:
            deck, save.undo = edit(deck)
    except editor_saves.Repeated as repeated:
        return _saved_before(request, shown, repeated)
    except StaleVersion:
        return _panel(request, shown, notice=STALE_NOTICE, status=409)
    except InvalidDeck as exc:  # 400, or 409 for a tag another window changed (StaleTag)
        return _panel(request, shown, notice=exc.message, status=exc.status_code)
    return _panel(request, deck, notice=_saved(deck), undo=save.undo, saved=True)


def _saved(deck: Deck) -> str:
    """A save's notice: its version and, when this request made it, what it did (the version's message in the
    history), so that an undo or a change made off screen says what it was."""
    done = getattr(deck, "saved_message", "")
    return f"Saved (version {deck.version}): {done.rstrip('.')}." if done else f"Saved (version {deck.version})."


def _save_key(request: HttpRequest) -> str:
    return request.POST.get("save", "")


def _saved_before(request: HttpRequest, deck: Deck, repeated: editor_saves.Repeated) -> HttpResponse:
    """A save sent again after its answer was lost: answered as the first time, with the deck as it is now."""
    deck.refresh_from_db()
    return _panel(request, deck, notice=_saved(deck), undo=repeated.undo, saved=True)


def _card_of(request: HttpRequest):
    number, query = request.POST.get("card", ""), request.POST.get("first_of", "").strip()
    if number:
        card = selectors.card_index().resolve(number)
        if card is None:
            raise InvalidDeck(f"No card “{shortened(number, 20)}”.")
        return card
    if query:
        try:
            found, _ = cards_matching(query=query, limit=1, exclude_type=GATEWAY, names_first=True)
        except SearchError as exc:
            at = f" at column {exc.position + 1}" if exc.position is not None else ""  # as the results say it
            raise InvalidDeck(f"Search problem{at}: {exc.message}") from None
        if not found:  # said in the status bar, which a long query would fill: the results show it whole
            raise InvalidDeck(f"No cards match “{shortened(query)}”.")
        return selectors.card_index().resolve(found[0]["collector_number"])
    return None


def _count_and_delta(request: HttpRequest) -> tuple[int | None, int | None]:
    raw_count, raw_delta = request.POST.get("count", "").strip(), request.POST.get("delta", "").strip()
    if "count" in request.POST and not raw_count.isdigit():  # an emptied box is not "add one", nor -3 "remove"
        raise InvalidDeck(f"A count is a whole number from 0 up, not “{shortened(raw_count, 20)}”.")
    try:
        count = int(raw_count) if raw_count else None
        return count, (int(raw_delta or "1") if count is None else None)
    except ValueError:
        raise InvalidDeck("A count is a whole number.") from None


def _editor_context(request: HttpRequest, deck: Deck) -> dict:
    context = _deck_context(request, deck)
    params = request.GET if request.method == "GET" else request.POST
    grouping, sort = grouping_of(params.get("group")), sort_of(params.get("sort"))
    beside = _tags_and_considering(deck)
    tags = beside["tags"]
    return {**context, **beside, "formats": DeckFormat.choices, "visibilities": Visibility.choices,
            "opening_hand": OPENING_HAND, "grouping": grouping, "groupings": GROUPINGS.items(), "sort": sort,
            "sorts": SORTS.items(),
            "max_tag_length": MAX_TAG_LENGTH, "limits": DECK_LIMITS,
            "tag_names": json.dumps(sorted({tag for tag in tags.values() if tag}, key=str.casefold)),
            "piles": piles(context["entries"], grouping, tags, sort)}


def _panel(request: HttpRequest, deck: Deck, *, notice: str, status: int = 200, problems=(),
           problems_for: str = "quick", undo: list[dict] = (), saved: bool = False) -> HttpResponse:
    """The deck panel as saved. `undo`: what takes this save back, as requests the editor's script sends in order
    (its undo and redo, static/decks/editor.js): {"url": the editor URL's name, "fields": ...}. `saved`: `deck` is
    what this request's save made of it (decks.services), else it is read again (a refused or conflicting save)."""
    if not saved:
        deck.refresh_from_db()
    context = _editor_context(request, deck)
    context.update(notice=notice, failed=status != 200, problems=problems, problems_for=problems_for,
                   changes_json=json.dumps(list(undo)))
    response = render(request, "decks/editor.html#panel", context)
    if not request.htmx:
        response.status_code = status
    return response


def _undo_counts(changes, tags: dict[str, str]) -> list[dict]:
    """Count changes taken back as one quick-add request ("-2 <number>" lines), then the tag of each card whose
    last copy went (`tags`: the deck's tags before the change), which left with it. The views read those through
    the deck object before changing it, and the change reads the same rows through it at that version (kept by
    decks.selectors), so they cost no query of their own."""
    main = [c for c in changes if not c.considering]
    lines = [f"{c.before - c.after} {c.card.collector_number}" for c in main if c.after != c.before]
    retag = [{"url": "tag", "fields": {"card": c.card.collector_number, "tag": tags[c.card.collector_number]}}
             for c in main if c.after == 0 and c.before and tags.get(c.card.collector_number)]
    # the considering list's, a card at a time (quick add's lines are the main deck's, or a section's)
    reconsider = [{"url": "consider", "fields": {"card": c.card.collector_number, "delta": str(c.before - c.after)}}
                  for c in changes if c.considering and c.after != c.before]
    return ([{"url": "quick", "fields": {"lines": "\n".join(lines)}}] if lines else []) + retag + reconsider
