"""The API's default page numbers, with their bounds declared (and so enforced: config/api_contract.py)."""

from rest_framework.pagination import PageNumberPagination

from cards.api_params import page_parameters


class Pagination(PageNumberPagination):
    def get_schema_operation_parameters(self, view):
        return page_parameters(self)
