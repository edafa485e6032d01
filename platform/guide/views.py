"""The pages for bot authors: "Write a bot" (the walkthrough, the kits), the project's
documents, the kits' downloads."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from guide import documents, kits


def write_a_bot(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "guide/write_a_bot.html",
        {
            "section": "guide",
            "kits": kits.available(),
            "source_url": settings.SOURCE_URL,
            "documents": list(documents.DOCUMENTS.values()),
        },
    )


def document(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        doc, html = documents.render(slug)
    except (documents.UnknownDocument, FileNotFoundError):
        raise Http404("There is no such document.") from None
    return render(
        request,
        "guide/document.html",
        {"section": "guide", "document": doc, "html": html, "documents": documents.DOCUMENTS},
    )


def kit(request: HttpRequest, language: str) -> HttpResponse:
    try:
        found, data = kits.zip_of(language)
    except kits.UnknownKit:
        raise Http404(f"There is no starter kit for {language!r}.") from None
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="nimmt-{found.folder}.zip"'
    return response
