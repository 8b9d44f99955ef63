app_name = "poker"

urlpatterns: list = []
