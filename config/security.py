"""The security headers of every response and the 400 for an unreadable body.

The Content-Security-Policy itself is ``core.security.policy_for`` (the LTI
pages that widen ``frame-ancestors`` build on it too).
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _

from core.security import policy_for


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/admin/"):
            response.headers.setdefault("Content-Security-Policy", policy_for(request))
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        return response


class UnreadableBodyMiddleware:
    """A body the view cannot read is the client's fault: 400, never 500.

    The CSRF middleware reads ``request.POST`` of a POST that carries no
    ``X-CSRFToken`` header; for a multipart body that consumes the stream, and a
    JSON endpoint reading ``request.body`` afterwards got ``RawPostDataException``
    and answered 500 with a traceback (issue 27 §5: hostile multipart posts to
    the games' JSON, hint and deck-check endpoints). Django turns the other malformed
    requests (``SuspiciousOperation``) into 400 itself; this adds the one it
    does not, with a stable code for the JSON clients.

    A JSON body nested deeper than the parser's recursion limit (about 6 KB of
    ``{"a":{"a":...`` or ``[[[...``) raised ``RecursionError`` in every JSON
    endpoint and answered 500 (issue 38 §4): it is a 400 ``too_deep``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RawPostDataException | UnreadablePostError):
            return JsonResponse(
                {"code": "unreadable_body", "message": _("The request body cannot be read.")},
                status=400,
            )
        if isinstance(exception, RecursionError):
            return JsonResponse(
                {"code": "too_deep", "message": _("The request is nested too deeply.")},
                status=400,
            )
        return None
