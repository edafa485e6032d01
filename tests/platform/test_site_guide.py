"""For bot authors: "Write a bot" with its kits and documents, and the read API's index and
OpenAPI description, which must describe exactly the API there is."""

import io
import re
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from api import openapi
from api import urls as api_urls
from django.test import Client
from django.urls import URLPattern, reverse
from guide import documents, kits
from nimmt_site_testing import basic_ladder, engine_match, make_token, make_user, program_bot
from openapi_spec_validator import validate

from arena.runner import manifest

pytestmark = pytest.mark.django_db


def test_it_links_the_guide_from_the_header_and_the_upload_form(client: Client) -> None:
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("guide")}"' in home
    client.force_login(make_user("alice"))
    upload = client.get(reverse("new-bot")).content.decode()
    assert f'href="{reverse("guide")}"' in upload


def test_the_guide_offers_a_kit_per_language_the_documents_and_the_walkthrough(
    client: Client,
) -> None:
    page = client.get(reverse("guide")).content.decode()
    for language in ("python", "javascript", "go", "cpp", "java"):
        assert reverse("guide-kit", args=[language]) in page, language
    for slug in documents.DOCUMENTS:
        assert reverse("guide-document", args=[slug]) in page
    assert reverse("new-bot") in page and reverse("api-openapi") in page


def test_the_walkthrough_names_the_source_address_and_the_folders_the_kits_unpack_to(
    client: Client, settings: Any
) -> None:
    settings.SOURCE_URL = "https://git.example.org/nimmt-arena.git"
    page = client.get(reverse("guide")).content.decode()
    assert "git clone https://git.example.org/nimmt-arena.git nimmt-arena" in page
    assert "a few minutes" in page  # the first install's time, said before it starts
    folders = set()
    for language in ("python", "javascript", "go", "cpp", "java"):
        response = client.get(reverse("guide-kit", args=[language]))
        names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
        folders |= {name.split("/")[0] for name in names}
    assert folders == {f"starter-{lang}" for lang in ("python", "javascript", "go", "cpp", "java")}
    for folder in folders:
        assert f"<code>{folder}/</code>" in page
    assert "nimmt bot check starter-python" in page and "my-bot" not in page
    # No address set (a production site that did not say): no command with an empty address.
    settings.SOURCE_URL = ""
    page = client.get(reverse("guide")).content.decode()
    assert "git clone" not in page and "from this site's operator" in page


@pytest.mark.parametrize("slug", list(documents.DOCUMENTS))
def test_every_document_is_served_with_anchored_headings(client: Client, slug: str) -> None:
    response = client.get(reverse("guide-document", args=[slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(r'<h2 id="[^"]+"', page), "headings carry anchors"
    assert "<table>" in page  # every one of them has a table


def test_the_rules_page_is_the_repository_s_rules_and_its_links_stay_on_the_site(
    client: Client,
) -> None:
    page = client.get(reverse("guide-document", args=["rules"])).content.decode()
    source = documents.path_of(documents.DOCUMENTS["rules"]).read_text("utf-8")
    first_heading = next(line for line in source.splitlines() if line.startswith("# "))
    assert first_heading[2:].split("`")[0].strip() in page
    # No link points at a Markdown file: they point at the pages.
    assert not re.search(r'href="[^"]*\.md[#"]', page)


def test_raw_html_in_a_document_is_shown_as_text(settings: Any, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "RULES.md").write_text(
        "# Rules\n\n<script>alert(1)</script>\n\nSee [replays](REPLAY.md#top).\n", "utf-8"
    )
    settings.REPO_DIR = tmp_path
    _doc, html = documents.render("rules")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert f'href="{reverse("guide-document", args=["replays"])}#top"' in html


def test_an_unknown_document_or_kit_is_a_404(client: Client) -> None:
    assert client.get(reverse("guide-document", args=["secrets"])).status_code == 404
    assert client.get(reverse("guide-kit", args=["cobol"])).status_code == 404


@pytest.mark.parametrize("language", list(kits.KITS))
def test_a_kit_downloads_as_a_bot_folder_without_build_output(
    client: Client, language: str, tmp_path: Path
) -> None:
    response = client.get(reverse("guide-kit", args=[language]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    kit = kits.KITS[language]
    assert f'filename="nimmt-{kit.folder}.zip"' in response["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        names = archive.namelist()
        assert all(name.startswith(f"{kit.folder}/") for name in names)
        assert f"{kit.folder}/nimmt-bot.toml" in names and f"{kit.folder}/README.md" in names
        assert not any("node_modules/" in n or "__pycache__" in n for n in names)
        assert f"{kit.folder}/bot" not in names  # a build's output
        archive.extractall(tmp_path)
    program = manifest.load(tmp_path / kit.folder)  # the one manifest reader accepts it
    assert program.name


# ---------------------------------------------------------------------------- the API


def _api_paths() -> set[str]:
    found = set()
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = "/" + str(pattern.pattern)
        found.add(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route).replace("_uuid}", "_id}"))
    return found


def test_the_openapi_description_is_valid_and_describes_every_api_path_and_no_other() -> None:
    doc = openapi.document()
    validate(doc)  # OpenAPI 3.1
    assert set(doc["paths"]) == _api_paths()


def test_the_api_index_lists_the_paths_and_the_description(client: Client) -> None:
    index = client.get("/api/v1/").json()
    assert index["openapi"] == reverse("api-openapi")
    listed = {entry["path"] for entry in index["paths"]}
    assert listed == {"/api/v1" + path for path in openapi.document()["paths"]}
    served = client.get(index["openapi"])
    assert served.status_code == 200 and served.json() == openapi.document()


def _schema(doc: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    schema = doc["paths"][path][method]["responses"]["200"]["content"]["application/json"]
    return {**schema["schema"], "components": doc["components"]}


def test_the_api_s_answers_match_their_description(client: Client) -> None:
    doc = openapi.document()
    ladder = basic_ladder(players=2)
    owner = make_user("alice")
    bots = [program_bot("a-bot", owner=owner), program_bot("b-bot")]
    match = engine_match(bots, ladder=ladder)
    token = make_token(owner)
    resolver = jsonschema.validators.validator_for({"type": "object"})
    reads = {
        "/ladders/": "/api/v1/ladders/",
        "/ladders/{ladder_id}/": f"/api/v1/ladders/{ladder.uuid}/",
        "/ladders/{ladder_id}/standings/": f"/api/v1/ladders/{ladder.uuid}/standings/",
        "/bots/": "/api/v1/bots/",
        "/bots/{bot_id}/": f"/api/v1/bots/{bots[0].uuid}/",
        "/bots/{bot_id}/versions/": f"/api/v1/bots/{bots[0].uuid}/versions/",
        "/matches/": "/api/v1/matches/",
        "/matches/{match_id}/": f"/api/v1/matches/{match.uuid}/",
    }
    assert bots[0].active_version is not None
    reads["/versions/{version_id}/"] = f"/api/v1/versions/{bots[0].active_version.uuid}/"
    for described, url in reads.items():
        for headers in ({}, {"Authorization": f"Bearer {token}"}):  # public and owner
            response = client.get(url, headers=headers)
            assert response.status_code == 200, url
            resolver(_schema(doc, described)).validate(response.json())
    refusal = client.get("/api/v1/matches/", {"limit": "lots"})
    assert refusal.status_code == 400
    resolver({**doc["components"]["schemas"]["Error"]}).validate(refusal.json())
