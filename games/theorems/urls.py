app_name = "theorems"

urlpatterns: list = []
