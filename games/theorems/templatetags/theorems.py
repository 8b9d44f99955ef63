"""``{% theorems_table_data %}``: the card data the table script reads (a JSON data block,
allowed by the CSP because it is never executed)."""

from typing import Any

from django import template
from django.utils.html import json_script

from games.theorems import presentation, selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def theorems_table_data(context: Any) -> str:
    request = context.get("request")
    player = getattr(request, "player", None)
    data = presentation.table_data(saved_decks=selectors.deck_choices(player))
    return json_script(data, "theorems-data")
