"""The project's URLs plus ``games.poker.room_urls`` when the project does not include
them yet (the lead adds ``path("poker/", include("games.poker.room_urls"))``)."""

from django.urls import include, path

from config.urls import urlpatterns as project_urlpatterns

_included = any(getattr(p, "namespace", None) == "poker_room" for p in project_urlpatterns)

urlpatterns = list(project_urlpatterns)
if not _included:
    urlpatterns.append(path("poker/", include("games.poker.room_urls")))
