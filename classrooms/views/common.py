"""What the class pages share: the keyed class link and its QR code, the
redirect back to the page a form came from, and running one service call with
a message."""

import functools
from collections.abc import Callable

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.safestring import mark_safe

from accounts import limits
from classrooms import services
from classrooms.errors import ClassroomError
from classrooms.models import Classroom


def join_url(request: HttpRequest, classroom: Classroom) -> str:
    """The teacher's class link (also in the QR code): keyed, so following it is
    never counted or refused by the code limits (``services.check_code_attempt``)."""
    path = reverse("classrooms:join_class", kwargs={"code": classroom.join_code})
    key = services.class_link_key(classroom)
    return request.build_absolute_uri(f"{path}?{limits.LINK_KEY_PARAM}={key}")


def qr_svg(url: str) -> str:
    return mark_safe(_qr_svg(url))


@functools.lru_cache(maxsize=512)
def _qr_svg(url: str) -> str:
    """The QR code of a class link: the same link always gives the same SVG, and
    encoding it was a tenth of the class page's time (bench/RESULTS-homework.md)."""
    # segno writes presentation attributes only (no style=), so the strict CSP holds.
    qr = segno.make(url, error="m")
    return qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff")


def redirect_back(
    request: HttpRequest, classroom: Classroom, default: str = "classrooms:detail"
) -> HttpResponseRedirect:
    target = request.POST.get("back")
    if target in {"members", "detail", "results"}:
        default = f"classrooms:{target}"
    return redirect(default, pk=classroom.pk)


def run_action(request: HttpRequest, action: Callable[[], object], success: str) -> bool:
    try:
        action()
    except ClassroomError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, success)
    return True
