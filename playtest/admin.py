from django.contrib import admin, messages

from playtest.jobs import services
from playtest.models import Run, RunChunk


class RunChunkInline(admin.TabularInline):
    model = RunChunk
    extra = 0
    can_delete = False
    fields = ["index", "first_game", "games", "status", "attempts", "last_error", "finished_at"]
    readonly_fields = fields


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "owner", "status", "games_done", "games", "created_at", "finished_at"]
    list_filter = ["status", "kind"]
    search_fields = ["id", "owner__username", "title"]
    readonly_fields = [f.name for f in Run._meta.fields]
    inlines = [RunChunkInline]
    actions = ["cancel_runs", "requeue_runs"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Cancel the selected runs")
    def cancel_runs(self, request, queryset):
        cancelled = sum(services.run_cancel(run=run) for run in queryset)
        self.message_user(request, f"Cancelled {cancelled} run(s).")

    @admin.action(description="Requeue the selected failed or cancelled runs")
    def requeue_runs(self, request, queryset):
        for run in queryset:
            try:
                services.run_requeue(run=run)
            except Exception as exc:
                self.message_user(request, f"{run.pk}: {exc}", level=messages.WARNING)
