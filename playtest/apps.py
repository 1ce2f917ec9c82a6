from django.apps import AppConfig


class PlaytestConfig(AppConfig):
    name = "playtest"
