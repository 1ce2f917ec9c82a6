import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# What is loaded by now (Django, the apps, their modules and settings) lives as long as the process: moved out of the
# collector's reach, a full collection no longer walks it. A signed-in API read cost an eighth fewer instructions
# (docs/operations.md); Python's documentation advises the same for a server that forks its workers.
gc.freeze()
