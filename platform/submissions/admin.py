from django.contrib import admin

from submissions.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline[BotVersion, Bot]):
    model = BotVersion
    extra = 0
    fields = ("number", "status", "code_root", "code_dir", "created_at", "validated_at")
    readonly_fields = fields
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin[Bot]):
    list_display = ("name", "owner", "is_house", "active_version", "retired_at", "paused_at")
    list_filter = ("is_house",)
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner", "active_version")
    inlines = (BotVersionInline,)


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin[BotVersion]):
    list_display = ("bot", "number", "status", "created_at", "validated_at", "attempts")
    list_filter = ("status",)
    search_fields = ("bot__name",)
    readonly_fields = ("uuid", "claim_token", "lease_expires_at", "attempts", "queued_at")
