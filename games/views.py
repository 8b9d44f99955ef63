from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.catalogue import GAMES


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": GAMES})
