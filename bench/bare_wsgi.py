"""The web bench's bare server (bench/load_web.py): Django's WSGI application as Django serves it by default, without
the product's start of a serving process (config/serving.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bare_settings")
application = get_wsgi_application()
