from django.urls import path

from games.rooms import views

app_name = "rooms"

urlpatterns = [
    path("", views.enter, name="enter"),
    path("<str:code>/", views.room, name="room"),
    path("<str:code>/join/", views.join, name="join"),
    path("<str:code>/left/", views.left, name="left"),
    path("<str:code>/rematch/", views.rematch, name="rematch"),
    path("<str:code>/qr.svg", views.qr, name="qr"),
]
