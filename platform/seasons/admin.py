from django.contrib import admin

from seasons.models import Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ("ladder", "number", "name", "status", "starts_at", "freezes_at", "ends_at")
    raw_id_fields = ("tournament",)
