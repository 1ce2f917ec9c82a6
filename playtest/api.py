from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from .jobs import services
from .selectors import run_list_for
from .serializers import RunSerializer, RunSubmitSerializer


class RunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Background runs (playtests, tournaments) of the signed-in user."""

    serializer_class = RunSerializer
    permission_classes = [IsAuthenticated]
    throttle_scope = "runs"

    def get_queryset(self):
        return run_list_for(user=self.request.user)

    def get_throttles(self):
        return [ScopedRateThrottle()] if self.action == "create" else []

    @extend_schema(
        request=RunSubmitSerializer,
        responses={202: RunSerializer, 400: OpenApiResponse(description="Bad parameters, or more games than the maximum"),
                   429: OpenApiResponse(description="Too many submissions or too many running runs")},
    )
    def create(self, request):
        form = RunSubmitSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        with transaction.atomic():
            run = services.run_submit(owner=request.user, **form.validated_data)
        return Response(RunSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={200: RunSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        run = self.get_object()
        services.run_cancel(run=run)
        run.refresh_from_db()
        return Response(RunSerializer(run).data)
