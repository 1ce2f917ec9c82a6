"""The API's default page numbers, with their bounds declared (and so enforced: config/api_contract.py)."""

from rest_framework.pagination import PageNumberPagination

MAX_PAGE = 1_000_000


def page_parameters(paginator) -> list[dict]:
    """The page (and page size) parameters with their bounds, for any page-number paginator."""
    parameters = [{
        "name": paginator.page_query_param, "required": False, "in": "query",
        "description": f"A page number, from 1 to {MAX_PAGE}; past the last page is a 404.",
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
    }]
    if paginator.page_size_query_param:
        top = paginator.max_page_size or paginator.page_size
        parameters.append({
            "name": paginator.page_size_query_param, "required": False, "in": "query",
            "description": f"Results per page, from 1 to {top}.",
            "schema": {"type": "integer", "minimum": 1, "maximum": top},
        })
    return parameters


class Pagination(PageNumberPagination):
    def get_schema_operation_parameters(self, view):
        return page_parameters(self)
