"""Settings of the web bench's bare server (bench/load_web.py), never of the product: the product's settings with
Django's default middleware alone and a URLconf of one plain JsonResponse view, the floor a request of the product
is compared with."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bare_urls"
MIDDLEWARE = [  # what `django-admin startproject` lists
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
