app_name = "rooms"

urlpatterns: list = []
