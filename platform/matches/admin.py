from django.contrib import admin

from matches.models import Match, Seat


class SeatInline(admin.TabularInline[Seat, Match]):
    model = Seat
    extra = 0
    raw_id_fields = ("bot", "version")
    readonly_fields = ("score", "rank", "faults", "log_file")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = (
        "uuid",
        "ladder",
        "tournament",
        "status",
        "attempts",
        "created_at",
        "finished_at",
        "rated",
    )
    list_filter = ("status", "rated", "ladder")
    raw_id_fields = ("tournament",)
    readonly_fields = (
        "uuid",
        "claim_token",
        "lease_expires_at",
        "attempts",
        "queued_at",
        "started_at",
        "finished_at",
        "result_dir",
        "replays",
        "rated",
        "rated_at",
    )
    inlines = (SeatInline,)
