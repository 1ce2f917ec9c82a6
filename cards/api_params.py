"""The API's bounded whole-number parameters, each bound defined once.

A bound is declared in the OpenAPI schema and so enforced before the view by the schema's contract
(config/api_contract.py): a value outside it is a 400 `invalid_parameter` naming the parameter and
the allowed range ("page_size must be a whole number from 1 to 200, not '500'."); nothing is
clamped or read another way. Views read a declared parameter only after that check.
"""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import OpenApiParameter

MAX_PAGE = 1_000_000
PAGE_DESCRIPTION = f"A page number, from 1 to {MAX_PAGE}; past the last page is a 404."


def integer_schema(low: int, high: int) -> dict:
    return {"type": "integer", "minimum": low, "maximum": high}


def bounded(name: str, low: int, high: int, description: str, *, required: bool = False) -> OpenApiParameter:
    """A whole-number query parameter from `low` to `high`, as an operation declares it."""
    return OpenApiParameter(name, integer_schema(low, high), required=required, description=description)


def page_parameter() -> OpenApiParameter:
    return bounded("page", 1, MAX_PAGE, PAGE_DESCRIPTION)


def page_parameters(paginator) -> list[dict]:
    """The page (and page size) parameters of a page-number paginator with their bounds, for the schema."""
    parameters = [{"name": paginator.page_query_param, "required": False, "in": "query",
                   "description": PAGE_DESCRIPTION, "schema": integer_schema(1, MAX_PAGE)}]
    if paginator.page_size_query_param:
        top = paginator.max_page_size or paginator.page_size
        parameters.append({"name": paginator.page_size_query_param, "required": False, "in": "query",
                           "description": f"Results per page, from 1 to {top} (default {paginator.page_size}).",
                           "schema": integer_schema(1, top)})
    return parameters


def whole_number(params: Mapping[str, str], name: str, default: int) -> int:
    """A declared whole-number parameter, already checked against its bounds; `default` when absent."""
    raw = params.get(name)
    return default if raw is None else int(raw)
