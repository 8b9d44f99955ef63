app_name = "abaku"

urlpatterns: list = []
