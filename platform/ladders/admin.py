from django.contrib import admin

from ladders.models import Ladder, Rating, RatingChange


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin[Ladder]):
    list_display = ("name", "slug", "variant", "players", "is_active")
    list_filter = ("variant", "is_active")
    prepopulated_fields = {"slug": ("name",)}  # noqa: RUF012 (Django's own attribute)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("bot", "ladder", "elo", "games", "mu", "sigma", "updated_at")
    list_filter = ("ladder",)
    search_fields = ("bot__name",)
    readonly_fields = ("elo", "mu", "sigma", "games", "updated_at")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ("rating", "match", "rank", "elo_before", "elo_after", "created_at")
    list_filter = ("rating__ladder",)
    raw_id_fields = ("rating", "match")

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False  # history is written by the rating task only
