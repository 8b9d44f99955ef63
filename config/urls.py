from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts.views import privacy
from config.health import healthz, livez, readyz
from config.metrics import metrics
from core import registry as game_registry
from games.views import colours_css, home

urlpatterns = [
    path("", home, name="home"),
    path("privacy/", privacy, name="privacy"),
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("metrics", metrics, name="metrics"),
    path("readyz", readyz, name="readyz"),
    path("accounts/sso/", include("accounts.sso.urls")),
    path("accounts/", include("accounts.urls")),
    path("classes/", include("classrooms.urls")),
    path("classes/", include("homework.urls")),
    path("api/", include("classrooms.api_urls")),
    path("api/", include("homework.api_urls")),
    path("staff/", include("classrooms.staff_urls")),
    path("lti/", include("lti.urls")),
    path("rooms/", include("games.rooms.urls")),
    path("games.css", colours_css, name="games_css"),
    # Each registered game's pages under /<slug>/ (GameSpec.urls).
    *(
        path(f"{spec.slug}/", include(module))
        for spec in game_registry.games()
        for module in spec.urls
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
