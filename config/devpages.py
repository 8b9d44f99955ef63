"""Development only: the project's 404 page instead of Django's debug 404.

With ``DEBUG = True`` Django answers an unknown URL with its technical 404 page
(the URL patterns list), which is not what a mistyped link shows the people
trying the site in development. This middleware (last in ``MIDDLEWARE`` of
``config.settings.dev``) renders ``templates/404.html`` through Django's
``page_not_found`` view for unmatched URLs and for ``Http404`` raised by views.
Everything else is untouched: errors (500) keep the debug traceback page.
"""

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, get_resolver
from django.views.defaults import page_not_found


class ProjectNotFoundPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            get_resolver(getattr(request, "urlconf", None)).resolve(request.path_info)
        except Resolver404 as exc:
            return page_not_found(request, exc)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None
