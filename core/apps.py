from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The ground every app stands on (docs/decisions.md "The ground: core/"):
    the one domain error, the game registry and its types, the room figures and
    the page security policy. It imports no other app of the project."""

    name = "core"
