from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts.views import privacy
from config.health import healthz, livez, readyz
from games.views import home

urlpatterns = [
    path("", home, name="home"),
    path("privacy/", privacy, name="privacy"),
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    path("accounts/", include("accounts.urls")),
    path("classes/", include("classrooms.urls")),
    path("api/", include("classrooms.api_urls")),
    path("staff/", include("classrooms.staff_urls")),
    path("rooms/", include("games.rooms.urls")),
    path("poker/", include("games.poker.urls")),
    path("poker/", include("games.poker.room_urls")),
    path("mathesso/", include("games.mathesso.urls")),
    path("abaku/", include("games.abaku.urls")),
    path("theorems/", include("games.theorems.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
