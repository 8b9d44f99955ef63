from django.http import HttpRequest


def player(request: HttpRequest) -> dict:
    return {
        "player": getattr(request, "player", None),
        "storage_enabled": getattr(request, "storage_enabled", True),
    }
