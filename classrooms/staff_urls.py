app_name = "staff"

urlpatterns: list = []
