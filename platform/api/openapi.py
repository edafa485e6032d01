"""The read API's description, OpenAPI 3.1, served at ``/api/v1/openapi.json``; the index at
``/api/v1/`` lists its paths from it.

Written here rather than generated from the views: the views are plain functions returning
dicts (:mod:`api.views`), and a schema generator would need serializers they do not have. The
tests keep the two honest: every URL of :mod:`api.urls` is described and nothing else, the
document is valid OpenAPI, and the answers of a populated site match their schemas.
"""

from typing import Any

from arena.runner.results import Ranking

VERSION = "1"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(kind: str, **more: Any) -> dict[str, Any]:
    return {"type": [kind, "null"], **more}


def _object(required: list[str], properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties, **more}


_UUID = {"type": "string", "format": "uuid"}
_TIME = _nullable("string", format="date-time")
_URL = {"type": "string", "description": "a path on this site"}

_DATASET_FILE = _object(
    ["path", "kind", "variant", "games", "size", "sha256", "url"],
    {
        "path": {"type": "string", "description": "relative to the dataset's folder"},
        "kind": {"enum": ["games", "replays"]},
        "variant": {"enum": ["basic", "basic+luck", "pro", "pro+luck", "classic"]},
        "games": {"type": "integer", "minimum": 0},
        "size": {"type": "integer", "minimum": 0, "description": "bytes"},
        "sha256": {"type": "string"},
        "url": _URL,
    },
)
_DATASET_EXPORT = _object(
    ["number", "created_at", "since", "until", "matches", "games"],
    {
        "number": {"type": "integer", "minimum": 1},
        "created_at": {"type": "string", "format": "date-time"},
        "since": _TIME,
        "until": {"type": "string", "format": "date-time"},
        "matches": {"type": "integer", "minimum": 0},
        "games": {"type": "integer", "minimum": 0},
    },
)
SCHEMAS: dict[str, Any] = {
    "Error": _object(["error"], {"error": {"type": "string", "description": "what to fix"}}),
    "Dataset": _object(
        ["format", "games", "newest", "exports", "files"],
        {
            "format": {"const": "nimmt-dataset/1"},
            "games": {"type": "integer", "minimum": 0},
            "newest": _TIME,
            "exports": {"type": "array", "items": _DATASET_EXPORT},
            "files": {"type": "array", "items": _DATASET_FILE},
        },
    ),
    "Ladder": _object(
        ["id", "slug", "name", "variant", "players", "active", "standings_url"],
        {
            "id": _UUID,
            "slug": {"type": "string"},
            "name": {"type": "string"},
            "variant": {"enum": ["basic", "basic+luck", "pro", "pro+luck", "classic"]},
            "players": {"type": "integer", "minimum": 2, "maximum": 10},
            "active": {"type": "boolean"},
            "standings_url": _URL,
            "standings_order": {
                "enum": ["margin", "elo"],
                "description": "the rating the standings are ordered by",
            },
        },
    ),
    "Rating": _object(
        ["bot", "margin", "margin_uncertainty", "elo", "elo_uncertainty", "games"],
        {
            "place": {"type": "integer", "minimum": 1, "description": "in the standings only"},
            "ladder": {**_UUID, "description": "on a bot's ratings only"},
            "bot": _object(
                ["id", "name", "state"],
                {"id": _UUID, "name": {"type": "string"}, "state": {"type": "string"}},
            ),
            "margin": {
                "type": "number",
                "description": "Margin: points per game above an average bot on shared deals",
            },
            "margin_uncertainty": {"type": "number", "description": "its standard error"},
            "margin_order": {
                "type": "number",
                "description": "margin - 2 x its uncertainty: the standings' order",
            },
            "elo": {"type": "number"},
            "elo_uncertainty": {"type": "number"},
            "provisional": {"type": "boolean"},
            "games": {"type": "integer", "minimum": 0},
            "mu": {"type": "number", "description": "OpenSkill"},
            "sigma": {"type": "number", "description": "OpenSkill"},
            "ordinal": {"type": "number", "description": "OpenSkill"},
        },
    ),
    "Bot": _object(
        ["id", "name", "owner", "house", "state", "active_version", "url", "versions_url"],
        {
            "id": _UUID,
            "name": {"type": "string"},
            "owner": {"type": "string"},
            "house": {"type": "boolean"},
            "state": {"type": "string"},
            "active_version": _nullable("integer"),
            "retired_at": _TIME,
            "paused_at": _TIME,
            "created_at": _TIME,
            "url": _URL,
            "versions_url": _URL,
            "pause_reason": {"type": "string", "description": "to the owner only"},
        },
    ),
    "Version": _object(
        ["id", "bot", "number", "status", "url"],
        {
            "id": _UUID,
            "bot": _UUID,
            "number": {"type": "integer", "minimum": 1},
            "status": {"type": "string"},
            "created_at": _TIME,
            "validated_at": _TIME,
            "url": _URL,
            "validation_log": {"type": "string", "description": "to the owner only"},
            "manifest": {"type": "object", "description": "to the owner only"},
            "upload": {"type": "object", "description": "to the owner only"},
        },
    ),
    "Seat": _object(
        ["seat", "bot", "version", "score", "rank", "faults"],
        {
            "seat": {"type": "integer", "minimum": 0},
            "bot": _object(["id", "name"], {"id": _UUID, "name": {"type": "string"}}),
            "version": {"type": "integer"},
            "score": _nullable("integer"),
            "rank": _nullable("integer"),
            "faults": {
                "description": "a list of matches: the count; one match: the faults (their "
                "details to the seat's owner only)",
                "oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "object"}}],
            },
        },
    ),
    "Match": _object(
        [
            "id",
            "variant",
            "players",
            "games",
            "seed",
            "duplicate",
            "ranked_by",
            "status",
            "url",
            "seats",
        ],
        {
            "id": _UUID,
            "ladder": _nullable("string", format="uuid"),
            "variant": {"type": "string"},
            "players": {"type": "integer"},
            "games": {"type": "integer"},
            "seed": {"type": "integer"},
            "duplicate": {
                "type": "boolean",
                "description": "each deal played once per seat rotation",
            },
            "ranked_by": {
                "enum": [r.value for r in Ranking],
                "description": "what the seats' ranks mean: game (a one-game match: the game's "
                "ranks), mean_rank (the mean of the games' ranks), total_score (a duplicate "
                "match: the total score, the mean of the games' ranks breaking ties)",
            },
            "status": {"enum": ["queued", "running", "finished", "failed"]},
            "created_at": _TIME,
            "finished_at": _TIME,
            "rated": {"type": "boolean"},
            "url": _URL,
            "seats": {"type": "array", "items": _ref("Seat")},
            "error": {"type": "string", "description": "one match only"},
            "replays": {"type": "array", "items": _URL, "description": "one match only"},
            "frames": {"type": "array", "items": _URL, "description": "one match only"},
            "rating_changes": {
                "type": "array",
                "items": {"type": "object"},
                "description": "one match only",
            },
        },
    ),
}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return _json(_ref("Error"), description)


def _wrapped(**fields: Any) -> dict[str, Any]:
    return _object(list(fields), fields)


def _param(name: str, where: str, schema: dict[str, Any], about: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "schema": schema,
        "description": about,
    }


def _get(summary: str, ok: dict[str, Any], *params: dict[str, Any]) -> dict[str, Any]:
    return {
        "summary": summary,
        "parameters": list(params),
        "responses": {"200": _json(ok), "404": _error("no such thing"), "400": _error("bad input")},
    }


def _post(summary: str, ok: dict[str, Any], body: dict[str, Any] | None = None) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "security": [{"token": []}],
        "responses": {
            "200": _json(ok),
            "400": _error("refused: the message says why"),
            "401": _error("no valid token"),
            "403": _error("not the bot's owner"),
        },
    }
    if body is not None:
        operation["requestBody"] = {"required": True, "content": body}
    return operation


_LADDER = _param("ladder_id", "path", _UUID, "the ladder's id")
_BOT = _param("bot_id", "path", _UUID, "the bot's id")
_MATCH = _param("match_id", "path", _UUID, "the match's id")
_GAME = _param("game", "path", {"type": "integer", "minimum": 1}, "the game's number, from 1")
_UPLOAD = {
    "multipart/form-data": {
        "schema": _object(
            ["file"],
            {
                "file": {"type": "string", "contentMediaType": "application/zip"},
                "name": {"type": "string"},
                "activate": {"type": "string", "enum": ["true", "false"]},
            },
        )
    }
}
_ANY_JSON = {"type": "object"}


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``/api/v1/`` (its paths relative to the server)."""
    bot_answer = _wrapped(bot=_ref("Bot"))
    paths: dict[str, Any] = {
        "/": {"get": _get("This index: the paths and the description's address", _ANY_JSON)},
        "/openapi.json": {"get": _get("This description", _ANY_JSON)},
        "/ladders/": {
            "get": _get(
                "Every ladder", _wrapped(ladders={"type": "array", "items": _ref("Ladder")})
            )
        },
        "/ladders/{ladder_id}/": {
            "get": _get("One ladder", _wrapped(ladder=_ref("Ladder")), _LADDER)
        },
        "/ladders/{ladder_id}/standings/": {
            "get": _get(
                "A ladder's standings, best first (retired bots last)",
                _wrapped(
                    ladder=_ref("Ladder"), standings={"type": "array", "items": _ref("Rating")}
                ),
                _LADDER,
            )
        },
        "/bots/": {
            "get": _get(
                "Bots, filtered by owner or state",
                _wrapped(bots={"type": "array", "items": _ref("Bot")}),
                _param("owner", "query", {"type": "string"}, "an owner's username"),
                _param("state", "query", {"enum": ["playing", "retired", "paused"]}, "the state"),
            ),
            "post": {
                **_post(
                    "Upload a new bot (a zip or tar.gz of its folder)",
                    _wrapped(bot=_ref("Bot"), version=_ref("Version")),
                    _UPLOAD,
                ),
            },
        },
        "/bots/{bot_id}/": {
            "get": _get(
                "One bot and its ratings",
                _wrapped(bot=_ref("Bot"), ratings={"type": "array", "items": _ref("Rating")}),
                _BOT,
            )
        },
        "/bots/{bot_id}/versions/": {
            "get": _get(
                "A bot's versions (its owner also sees those that did not pass)",
                _wrapped(versions={"type": "array", "items": _ref("Version")}),
                _BOT,
            ),
            "post": {
                **_post("Upload a new version", _wrapped(version=_ref("Version")), _UPLOAD),
                "parameters": [_BOT],
            },
        },
        "/bots/{bot_id}/activate/": {
            "post": {
                **_post(
                    "Make one of the bot's passed versions the one that plays",
                    bot_answer,
                    {"application/json": {"schema": _object(["version"], {"version": _UUID})}},
                ),
                "parameters": [_BOT],
            }
        },
        "/bots/{bot_id}/retire/": {
            "post": {**_post("Retire the bot from the ladders", bot_answer), "parameters": [_BOT]}
        },
        "/bots/{bot_id}/resume/": {
            "post": {
                **_post("Put a paused bot back on the ladders", bot_answer),
                "parameters": [_BOT],
            }
        },
        "/bots/{bot_id}/remote-token/": {
            "post": {
                **_post(
                    "A remote token: the bot plays from your machine through the gateway "
                    "(shown once; the old token is revoked)",
                    _wrapped(token={"type": "string"}, url={"type": "string"}),
                ),
                "parameters": [_BOT],
            },
            "delete": {
                **_post(
                    "Revoke the remote token and cut its connection",
                    _wrapped(revoked={"type": "boolean"}),
                ),
                "parameters": [_BOT],
            },
        },
        "/versions/{version_id}/": {
            "get": _get(
                "One version",
                _wrapped(version=_ref("Version")),
                _param("version_id", "path", _UUID, "the version's id"),
            )
        },
        "/matches/": {
            "get": _get(
                "Matches, newest first, a page at a time",
                _wrapped(
                    matches={"type": "array", "items": _ref("Match")},
                    next=_nullable("string", description="the next page's address"),
                ),
                _param("ladder", "query", _UUID, "a ladder's id"),
                _param("bot", "query", _UUID, "a bot's id"),
                _param(
                    "status",
                    "query",
                    {"enum": ["queued", "running", "finished", "failed"]},
                    "the status",
                ),
                _param(
                    "limit",
                    "query",
                    {"type": "integer", "minimum": 0, "maximum": 100},
                    "page size (20)",
                ),
                _param("offset", "query", {"type": "integer", "minimum": 0}, "matches skipped"),
            )
        },
        "/matches/{match_id}/": {"get": _get("One match", _wrapped(match=_ref("Match")), _MATCH)},
        "/matches/{match_id}/replays/{game}/": {
            "get": _get(
                "A game's replay (nimmt-replay/1); for the owner of a seat's bot also `notes`, "
                "that bot's notes on its decisions (nimmt-notes/1)",
                _ANY_JSON,
                _MATCH,
                _GAME,
            )
        },
        "/dataset/": {
            "get": _get(
                "The dataset of every public game (nimmt-dataset/1): its exports and files, "
                "each with the path to download it from (docs/DATASET.md)",
                _ref("Dataset"),
            )
        },
        "/matches/{match_id}/replays/{game}/frames/": {
            "get": _get(
                "A game's frames (nimmt-frames/1): the board after every step",
                _ANY_JSON,
                _MATCH,
                _GAME,
                _param(
                    "seat",
                    "query",
                    {"type": "integer", "minimum": 0},
                    "the game as this seat (0-based) saw it: its hand, nothing of the others'",
                ),
            )
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Nimmt Arena API",
            "version": VERSION,
            "description": "Reads are public; writes take an API token (your account's page) "
            'as \'Authorization: Bearer <token>\'. Every refusal is {"error": "..."}.',
        },
        "servers": [{"url": "/api/v1"}],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
    }
