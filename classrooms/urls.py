app_name = "classrooms"

urlpatterns: list = []
