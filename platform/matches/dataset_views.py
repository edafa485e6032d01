"""The dataset of every public game on the site: a page listing its exports and files, and the
files themselves (:mod:`matches.dataset` writes them; the API's ``/api/v1/dataset/`` lists
them for ``nimmt dataset``)."""

from core import storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from matches import dataset
from matches.models import GameExport


@require_GET
def dataset_page(request: HttpRequest) -> HttpResponse:
    """The newest export first, every file with its link, and how to load them."""
    exports = list(GameExport.objects.order_by("-number"))
    context = {
        "section": "matches",
        "exports": exports,
        "games": sum(e.games for e in exports),
        "newest": exports[0] if exports else None,
    }
    return render(request, "matches/dataset.html", context)


@require_GET
def dataset_file(request: HttpRequest, path: str) -> FileResponse:
    """One file an export wrote (404 for any other name: only listed files are served)."""
    name = dataset.listed_file(path)
    if name is None:
        raise Http404("No such file in the dataset.")
    try:
        file = storage.open_file(name)
    except FileNotFoundError:
        raise Http404("No such file in the dataset.") from None
    content_type = "application/gzip" if path.endswith(".gz") else "application/octet-stream"
    response = FileResponse(
        file, as_attachment=True, filename=path.rsplit("/", 1)[-1], content_type=content_type
    )
    response["Cache-Control"] = "public, max-age=86400"  # an export's file never changes
    return response
