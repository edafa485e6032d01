from django.contrib import admin

from challenges.models import Challenge, ChallengeRefusal


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin[Challenge]):
    list_display = ("uuid", "challenger", "version", "deals", "created_at")
    raw_id_fields = ("challenger", "version", "match")


@admin.register(ChallengeRefusal)
class ChallengeRefusalAdmin(admin.ModelAdmin[ChallengeRefusal]):
    list_display = ("bot", "created_at")
    raw_id_fields = ("bot",)
