"""Settings for every environment, read from the environment.

With nothing set, the app runs on the embedded default: SQLite in var/ and
Celery on kombu's filesystem transport (no Redis). DATABASE_URL and REDIS_URL
switch to PostgreSQL and Redis. See the README for every setting.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from core.intbounds import MAX_BIG_INTEGER

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("DREADGATE_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)  # the embedded database and broker live here

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # the site's page, saying what to do, not Django's bare one

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the API docs' assets, served from here (CSP: self only)
    "django_htmx",
    "template_partials",
    "csp",
    "config.accounts",
    "cards",
    "decks",
    "playtest",
    "dreaddraw",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.PrivateCacheMiddleware",  # outside sessions and CSRF: it sees the Vary: Cookie they add
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.LazyMessageMiddleware",  # Django's, its storage made on first use
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",  # django-csp's, its header built once
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.PageThrottleMiddleware",
    "config.middleware.MethodNotAllowedPageMiddleware",
    "config.middleware.BadRequestPageMiddleware",
    "config.middleware.RequestBodyLimitMiddleware",  # innermost: its refusals get every header above
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "config.jobs_paused.context",
                "config.site_links.context",
            ],
            "libraries": {"icons": "config.icons"},  # {% load icons %} in any app's templates
            "builtins": ["config.kept_urls"],  # {% url %}, its answers kept (config/kept_urls.py)
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets the web process read while the worker writes.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = ["config.accounts.backends.ThrottledModelBackend"]
# Failed log-in limits (config/accounts/throttle.py): a guesser locks out itself, never the owner's known browsers;
# a new browser of the owner's gets in by an e-mailed link (config/accounts/browser_links.py, docs/operations.md OPS-1).
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)  # per username and address (or device)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)  # per address: its failed usernames
LOGIN_ACCOUNT_FAILURE_LIMIT = env.int("LOGIN_ACCOUNT_FAILURE_LIMIT", default=20)  # per username: then it slows down
LOGIN_ACCOUNT_SLOWDOWN_SECONDS = env.int("LOGIN_ACCOUNT_SLOWDOWN_SECONDS", default=10)  # between new-device checks
LOGIN_FAILURE_WINDOW_SECONDS = env.int("LOGIN_FAILURE_WINDOW_SECONDS", default=900)
# An e-mailed browser link works this long; at most one link per account is sent in each interval.
LOGIN_LINK_VALID_SECONDS = env.int("LOGIN_LINK_VALID_SECONDS", default=1800)
LOGIN_LINK_INTERVAL_SECONDS = env.int("LOGIN_LINK_INTERVAL_SECONDS", default=300)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG


def cache_aliases(cache_url: str) -> dict[str, dict]:
    """The caches: "default" for answers and sessions, "rates" for the API's rate limits, "logins" for the failed
    log-ins. Unset, one in-process cache serves all three. On Redis each names the cache that stands in for it while
    Redis does not answer (config/cache.py): for answers and sessions none, a miss (sessions are then read from the
    database); for the rate limits a count per process; for the failed log-ins the database, so that no password may
    be guessed without limit meanwhile."""
    # "local": the process's own copy of answers whose key names every version they depend on (cards.selectors,
    # answer_get), in front of a shared cache; where the cache is already the process's own, none.
    no_local = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    if not cache_url:
        return {**{alias: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "dreadgate"}
                   for alias in ("default", "rates", "logins")}, "local": no_local}
    shared = environ.Env.cache_url_config(cache_url)
    if shared["BACKEND"] != "django.core.cache.backends.redis.RedisCache":
        return {**{alias: dict(shared) for alias in ("default", "rates", "logins")}, "local": no_local}
    shared["BACKEND"] = "config.cache.RedisCache"
    return {
        "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "answers",
                  "OPTIONS": {"MAX_ENTRIES": 300}},
        "default": shared,
        "rates": {**shared, "FALLBACK": "rates_in_process"},
        "logins": {**shared, "FALLBACK": "logins_in_database"},
        "rates_in_process": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rates",
                             "OPTIONS": {"MAX_ENTRIES": 10_000}},
        # The table of config.accounts.models.LoginCounter; never culled below a flood of usernames.
        "logins_in_database": {"BACKEND": "config.cache.DatabaseCache", "LOCATION": "accounts_login_counters",
                               "OPTIONS": {"MAX_ENTRIES": 1_000_000}},
    }


CACHE_URL = env.str("CACHE_URL", default="")
CACHES = cache_aliases(CACHE_URL)

# Sessions are read on every request: with a shared cache, from the cache first (the database
# stays the record, and answers alone while Redis is down). A per-process cache would let a session
# ended in one process live on in another; on Redis, each process keeps its copies only while Redis
# tells it of every change (config/accounts/sessions.py).
if CACHE_URL:
    SESSION_ENGINE = "config.accounts.sessions"

# --- Security headers (also on in development, so that tests see them) ---
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

# --- Request bounds ---
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1024 * 1024)  # bodies; larger: 413

# --- API ---
# Proxies in front of the web server that append to X-Forwarded-For; decides the client address of
# every throttle and of the log-in limits (config/client_address.py). 0: REMOTE_ADDR, the header ignored.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Tokens first: an unauthenticated request is a 401 with WWW-Authenticate: Bearer. Sessions (with
    # CSRF) are for the browser. HTTP Basic is not accepted (a password hash on every request).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.accounts.tokens.BearerTokenAuthentication",
        "config.accounts.tokens.BrowserSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # The API reads JSON only: every body bounded in depth, without NUL (config/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.BoundedJSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.NamedFormat",  # an unknown ?format= is a 400, named
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.Pagination",
    "PAGE_SIZE": 60,
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # First, the schema's contract (config/api_contract.py: after authentication and permissions), then the rates.
    "DEFAULT_THROTTLE_CLASSES": ["config.api_contract.ApiContract", "config.throttles.AnonBurstThrottle",
                                 "config.throttles.UserWriteThrottle", "config.throttles.ScopedRateThrottle"],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,  # DRF's own reading agrees with config.client_address
    "DEFAULT_THROTTLE_RATES": {
        "runs": env.str("THROTTLE_RUNS", default="30/hour"),
        "imports": env.str("THROTTLE_IMPORTS", default="120/hour"),
        "search": env.str("THROTTLE_SEARCH", default="600/minute"),
        "anon_burst": env.str("THROTTLE_ANON", default="120/minute"),
        "writes": env.str("THROTTLE_WRITES", default="120/minute"),
        "signups": env.str("THROTTLE_SIGNUPS", default="10/hour"),  # accounts made, per address
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Dreadgate API",
    "DESCRIPTION": "Card catalog, decks and playtesting for the Dreadgate TCG, and the Dread Draw card game.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,  # request bodies without the read-only fields (config/api_contract.py)
    "ENUM_NAME_OVERRIDES": {"DeckFormatEnum": "decks.models.DeckFormat",
                            "RaceFormatEnum": "playtest.simulation.metagame_kind.METAGAME_FORMATS",
                            "GoalEnum": "playtest.simulation.tuning_kind.GOALS",
                            "PolicyEnum": "playtest.policies.POLICIES"},
    # Every <int:...> of a URL is an id (or a number) that is looked up: bounded by a big integer column.
    "PATH_CONVERTER_OVERRIDES": {"int": {"type": "integer", "minimum": 0, "maximum": MAX_BIG_INTEGER}},
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "config.api_schema.document_shared_errors"],
}

# Search API answers are cached per catalog version (0 turns the cache off).
SEARCH_CACHE_SECONDS = env.int("SEARCH_CACHE_SECONDS", default=600)
# What answers a search: "index", the in-process index of the catalog (cards/search/index.py), or
# "sql", the database (the reference the tests compare the index with).
SEARCH_ENGINE = env.str("SEARCH_ENGINE", default="index")
if SEARCH_ENGINE not in ("index", "sql"):
    raise ImproperlyConfigured(f"SEARCH_ENGINE must be index or sql, not {SEARCH_ENGINE!r}.")
# The deck page's list and statistics, and the deck API's answer, made once per deck version (0 turns it off).
DECK_PAGE_CACHE_SECONDS = env.int("DECK_PAGE_CACHE_SECONDS", default=600)

# --- Background jobs (Celery) ---
REDIS_URL = env.str("REDIS_URL", default="")
BROKER_DIR = VAR_DIR / "broker"
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_SOFT_TIME_LIMIT", default=600)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_HARD_TIME_LIMIT", default=660)
# Redis redelivers a chunk whose worker died once it has been out longer than the visibility timeout,
# at the next sweep for expired messages (every interval x throttle seconds). The timeout sits just
# above the hard limit (a running chunk is never handed out twice) and the sweep runs every 10 s, so a
# killed worker's chunk comes back about hard limit + 70 s after it was taken (12 minutes by default).
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=CELERY_TASK_TIME_LIMIT + 60)
CELERY_UNACKED_RESTORE_INTERVAL = env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=10)
CELERY_UNACKED_RESTORE_THROTTLE = env.int("CELERY_UNACKED_RESTORE_THROTTLE", default=1)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        "unacked_restore_interval": CELERY_UNACKED_RESTORE_INTERVAL,
        "unacked_restore_throttle": CELERY_UNACKED_RESTORE_THROTTLE,
        # A sender that cannot reach Redis gives up at once, its chunks left in the outbox for the reaper: kombu would
        # try again for 4 s (6 s measured), inside the run's lock, which on SQLite holds up every write meanwhile.
        # Workers connect with retries of their own (broker_connection_max_retries), which this leaves alone.
        "max_retries": 0,
        "socket_connect_timeout": 2,  # a Redis that does not answer at all is down, not slow
    }
else:
    CELERY_BROKER_URL = "atomicfs://"  # kombu's filesystem transport, written and read safely (config/celery.py)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        "polling_interval": 0.1,
    }
CELERY_TASK_IGNORE_RESULT = True  # progress and results live in our own tables
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Added to the workers' niceness when they start (config/celery.py): on a host they share with the web processes (the
# embedded default, a single server) the runs' games take what the web leaves, so a page never waits behind them.
WORKER_NICE = env.int("WORKER_NICE", default=10)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Celery closes the database connection around every task unless it may reuse it; workers then
# recycle connections as Django does around a request (config/celery.py), honouring CONN_MAX_AGE
# and the health checks. A new PostgreSQL connection per task cost more than a short chunk.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# --- Playtest runs ---
PLAYTEST_QUEUE = env.str("PLAYTEST_QUEUE", default="celery")  # workers listen with -Q
# A goldfish table's AI decisions (a person waits on them) go to a queue of their own, which workers take from
# between run chunks: on the runs' queue they waited behind every chunk sent before them (a minute and more).
PLAYTEST_TABLE_QUEUE = env.str("PLAYTEST_TABLE_QUEUE", default="tables")
# A worker started without -Q takes from all three, in turn: the tables', the runs' and Celery's default (beat's tasks).
CELERY_TASK_QUEUES = [Queue(name) for name in dict.fromkeys((PLAYTEST_TABLE_QUEUE, PLAYTEST_QUEUE, "celery"))]
PLAYTEST_MAX_GAMES = env.int("PLAYTEST_MAX_GAMES", default=100_000)
PLAYTEST_MAX_ACTIVE_RUNS = env.int("PLAYTEST_MAX_ACTIVE_RUNS", default=3)
PLAYTEST_MAX_CHUNK_ATTEMPTS = env.int("PLAYTEST_MAX_CHUNK_ATTEMPTS", default=3)
# A chunk asks this often, between its games, whether its run was cancelled meanwhile (one query each time).
PLAYTEST_STOP_CHECK_SECONDS = env.float("PLAYTEST_STOP_CHECK_SECONDS", default=0.25)
PLAYTEST_RETRY_DELAY_SECONDS = env.int("PLAYTEST_RETRY_DELAY_SECONDS", default=2)
PLAYTEST_OUTBOX_GRACE_SECONDS = env.int("PLAYTEST_OUTBOX_GRACE_SECONDS", default=5)
# Chunks of one run sent and not yet done, at most: the next is sent as one is done, so the queue holds a few chunks
# of every run and runs of different users take turns on the workers. At least the number of worker processes, so
# that a run alone keeps them all busy.
PLAYTEST_DISPATCH_WINDOW = env.int("PLAYTEST_DISPATCH_WINDOW", default=8)
# Longer than a killed worker's chunk takes to come back and be played again, so the reaper never
# fails a run that redelivery is about to finish.
PLAYTEST_STALE_SECONDS = env.int("PLAYTEST_STALE_SECONDS", default=CELERY_VISIBILITY_TIMEOUT
                                 + CELERY_UNACKED_RESTORE_INTERVAL * CELERY_UNACKED_RESTORE_THROTTLE
                                 + CELERY_TASK_TIME_LIMIT + 60)
# Redis redelivers the chunk of a worker that died; the embedded default's broker forgets it, so its reaper sends
# it again once the process that took it is gone (playtest/jobs/leases.py: every worker on the one machine).
PLAYTEST_RESEND_ORPHANED_CHUNKS = not REDIS_URL
PLAYTEST_DETAILS_RETENTION_DAYS = env.int("PLAYTEST_DETAILS_RETENTION_DAYS", default=30)
# The catalog's card sets, loaded in this order by `manage.py loadcatalog` (each loader is idempotent).
CATALOG_LOADERS = [
    ("dreadgate", "cards.catalog.loader.load_catalog"),
    ("dreaddraw", "dreaddraw.catalog.load_dreaddraw_set"),
    ("starter decks", "decks.starters.load_starter_decks"),  # after the cards they use
]

# Modules that register job kinds (the engines' kinds, plus any listed in the environment).
PLAYTEST_JOB_KIND_MODULES = [
    "playtest.simulation.job_kind", "playtest.simulation.metagame_kind", "playtest.simulation.tuning_kind",
    "dreaddraw.jobs",
    *env.list("PLAYTEST_EXTRA_JOB_KIND_MODULES", default=[]),
]
CELERY_BEAT_SCHEDULE = {
    "reap-runs": {"task": "playtest.tasks.reap_runs", "schedule": 15.0},
    "prune-run-details": {"task": "playtest.tasks.prune_run_details", "schedule": 3600.0},
}
