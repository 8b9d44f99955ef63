"""A strict Content-Security-Policy for every response.

Pages use only same-origin scripts and styles (no inline script), so the
policy can forbid everything else. WebSockets go to the same host only:
``connect-src`` names the page's own host with ``wss:`` (``ws:`` when the page
itself came over plain HTTP, as in development), never any host (``ws: wss:``
let a page's script talk to every WebSocket server on the internet; issue 27
§5). ``'self'`` alone does not cover WebSockets in every browser in use.
"""

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest

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
