from django.apps import AppConfig


class DreadDrawConfig(AppConfig):
    name = "dreaddraw"
    verbose_name = "Dread Draw"
