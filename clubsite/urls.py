from django.contrib import admin
from django.urls import path

from clubsite.api import api
from scoring import views as scoring_views

urlpatterns = [
    path("", scoring_views.counter, name="counter"),
    path("grille/", scoring_views.grid, name="grid"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
]
