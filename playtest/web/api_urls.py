from rest_framework.routers import SimpleRouter

from playtest.web import api

router = SimpleRouter()
router.register("runs", api.RunViewSet, basename="run")
router.register("metagames", api.MetagameViewSet, basename="metagame")
router.register("tunings", api.TuningViewSet, basename="tuning")
router.register("goldfish-tables", api.GoldfishTableViewSet, basename="goldfish-table")

urlpatterns = router.urls
