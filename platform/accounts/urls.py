from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("confirm/<str:uidb64>/<str:token>/", views.confirm_email, name="confirm-email"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/<uuid:token_uuid>/revoke/", views.revoke_token, name="revoke-token"),
]
