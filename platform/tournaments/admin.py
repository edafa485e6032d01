from django.contrib import admin

from tournaments.models import Entrant, Tournament


class EntrantInline(admin.TabularInline[Entrant, Tournament]):
    model = Entrant
    extra = 0
    raw_id_fields = ("version", "bot")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ("name", "format", "variant", "players", "status", "organiser", "created_at")
    list_filter = ("status", "format", "variant")
    readonly_fields = ("uuid", "seed", "current_round", "started_at", "finished_at")
    inlines = (EntrantInline,)
