"""A strict Content-Security-Policy for every response.

Pages use only same-origin scripts and styles (no inline script), so the
policy can forbid everything else. WebSockets go to the same host only:
``connect-src`` names the page's own host with ``wss:`` (``ws:`` when the page
itself came over plain HTTP, as in development), never any host (``ws: wss:``
let a page's script talk to every WebSocket server on the internet; issue 27
§5). ``'self'`` alone does not cover WebSockets in every browser in use.
"""

from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _

DIRECTIVES = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
]


def policy_for(request: HttpRequest) -> str:
    """The policy with the request's own host as the one WebSocket destination."""
    try:
        host = request.get_host()
    except DisallowedHost:  # answered 400 already; no host to name
        host = None
    directives = list(DIRECTIVES)
    if host:
        scheme = "wss" if request.is_secure() else "ws"
        directives[directives.index("connect-src 'self'")] = f"connect-src 'self' {scheme}://{host}"
    return "; ".join(directives)


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
        return None
