"""``{% homework_section classroom %}``: the homework card of the class page.

The class page belongs to ``classrooms``, which sits below homework and never
imports it; its template includes ``homework/_class_section.html``, and this
tag reads what the card shows for the viewer (teacher or pupil)."""

from typing import Any

from django import template
from django.utils import timezone

from classrooms import selectors as class_selectors
from classrooms.models import Classroom
from core import registry

from .. import selectors

register = template.Library()


@register.inclusion_tag("homework/_section.html", takes_context=True)
def homework_section(context: template.Context, classroom: Classroom) -> dict[str, Any]:
    request = context["request"]
    base = {"classroom": classroom, "request": request}
    if class_selectors.classes_for_teacher(request.user).filter(pk=classroom.pk).exists():
        return {**base, "for_teacher": True, "overview": selectors.class_table(classroom)}
    player = getattr(request, "player", None)
    items = selectors.open_for_pupil(player, classroom, timezone.now())
    for item in items:
        spec = registry.get(item["assignment"].game)
        assignable = spec.assignable if spec is not None else None
        item["play_url"] = (
            assignable.play_url(item["assignment"].pk)
            if assignable is not None and assignable.play_url
            else None
        )
        item["review_url"] = (
            assignable.pupil_review_url(item["review_ref"])
            if item["review_ref"] and assignable is not None and assignable.pupil_review_url
            else None
        )
    return {**base, "for_teacher": False, "items": items}
