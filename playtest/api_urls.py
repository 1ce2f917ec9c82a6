from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("runs", api.RunViewSet, basename="run")

urlpatterns = router.urls
