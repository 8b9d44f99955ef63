app_name = "mathesso"

urlpatterns: list = []
