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
    "Season": _object(
        ["id", "ladder", "number", "name", "status", "starts_at", "freezes_at", "ends_at", "url"],
        {
            "id": _UUID,
            "ladder": _UUID,
            "number": {"type": "integer", "minimum": 1},
            "name": {"type": "string"},
            "status": {"enum": ["scheduled", "running", "frozen", "final", "finished"]},
            "starts_at": _TIME,
            "freezes_at": _TIME,
            "ends_at": _TIME,
            "finalists": {"type": "integer"},
            "carry_over": {"type": "boolean"},
            "final": _nullable("string", description="the final tournament's page"),
            "url": _URL,
            "page": _URL,
            "standings": {
                "type": "array",
                "items": {"type": "object"},
                "description": "one season only: the ladder's table at its end",
            },
            "final_standings": {
                "type": "array",
                "items": {"type": "object"},
                "description": "one season only: the final's standings",
            },
            "note": {"type": "string", "description": "one season only"},
        },
    ),
    "Challenge": _object(
        [
            "id",
            "challenger",
            "bot",
            "version",
            "variant",
            "players",
            "deals",
            "games",
            "status",
            "rated",
            "url",
            "page",
            "match",
        ],
        {
            "id": _UUID,
            "challenger": {"type": "string", "description": "the challenger's username"},
            "bot": _object(["id", "name"], {"id": _UUID, "name": {"type": "string"}}),
            "version": {"type": "integer", "description": "the challenger's version (seat 0)"},
            "variant": {"type": "string"},
            "players": {"type": "integer"},
            "deals": {"type": "integer", "minimum": 1},
            "games": {"type": "integer", "description": "deals x players (seat rotations)"},
            "status": {"enum": ["queued", "running", "finished", "failed"]},
            "rated": {"const": False, "description": "a challenge is never rated"},
            "created_at": _TIME,
            "finished_at": _TIME,
            "url": _URL,
            "page": _URL,
            "match": {**_URL, "description": "the match's API address"},
            "error": {"type": "string", "description": "one challenge only"},
            "seats": {"type": "array", "items": _ref("Seat"), "description": "one challenge only"},
            "edges": {
                "type": "array",
                "description": "one challenge only; empty until its match is finished",
                "items": _object(
                    ["opponent", "seat", "deals", "edge", "half_width", "los", "significant"],
                    {
                        "opponent": _object(
                            ["id", "name"], {"id": _UUID, "name": {"type": "string"}}
                        ),
                        "seat": {"type": "integer", "minimum": 1},
                        "deals": {"type": "integer", "minimum": 0},
                        "edge": {
                            "type": "number",
                            "description": "the challenger's points per game minus the "
                            "opponent's on the same deals (higher = better)",
                        },
                        "half_width": _nullable(
                            "number", description="of the 95% interval (null below 2 deals)"
                        ),
                        "los": _nullable("number", description="likelihood of superiority"),
                        "significant": {"type": "boolean"},
                        "per_deal": {"type": "array", "items": {"type": "number"}},
                    },
                ),
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
_BOOL = {"type": "boolean"}
_WAYS = _object(["email", "webhook"], {"email": _BOOL, "webhook": _BOOL})
_NOTIFY = _wrapped(
    notifications=_object(
        ["webhook_url", "webhook_secret", "events"],
        {
            "webhook_url": {"type": "string"},
            "webhook_secret": {
                "type": "string",
                "description": "X-Nimmt-Signature is sha256=HMAC-SHA256(secret, "
                "'<X-Nimmt-Timestamp>.<body>')",
            },
            "events": {"type": "object", "additionalProperties": _WAYS},
        },
    )
)
_NAMED_BOT = _object(["id", "name"], {"id": _UUID, "name": {"type": "string"}})


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
        "/bots/{bot_id}/vs/{other_id}/": {
            "get": _get(
                "Two bots' shared games, from the first's side: per kind of game (variant, "
                "players, rated) the record and the score edge per deal with its 95% interval "
                "and LOS; their shared matches, newest first, a page at a time",
                _wrapped(
                    bot=_NAMED_BOT,
                    opponent=_NAMED_BOT,
                    page=_URL,
                    kinds={
                        "type": "array",
                        "items": _object(
                            ["variant", "players", "rated", "games", "deals", "edge"],
                            {
                                "variant": {"type": "string"},
                                "players": {"type": "integer"},
                                "rated": {"type": "boolean"},
                                "games": {"type": "integer", "minimum": 1},
                                "wins": {"type": "integer", "minimum": 0},
                                "draws": {"type": "integer", "minimum": 0},
                                "losses": {"type": "integer", "minimum": 0},
                                "deals": {"type": "integer", "minimum": 1},
                                "edge": {
                                    "type": "number",
                                    "description": "points per game over the opponent's on "
                                    "the same deal, per deal (higher = better)",
                                },
                                "half_width": _nullable("number"),
                                "los": _nullable("number"),
                                "significant": {"type": "boolean"},
                            },
                        ),
                    },
                    games={
                        "type": "array",
                        "items": _object(
                            ["id", "match", "rated", "score", "opponent_score", "edge"],
                            {
                                "id": _UUID,
                                "match": _URL,
                                "created_at": _TIME,
                                "variant": {"type": "string"},
                                "players": {"type": "integer"},
                                "rated": {"type": "boolean"},
                                "score": {"type": "integer"},
                                "opponent_score": {"type": "integer"},
                                "rank": {"type": "integer"},
                                "opponent_rank": {"type": "integer"},
                                "deals": {"type": "integer"},
                                "edge": {"type": "number", "description": "per deal"},
                            },
                        ),
                    },
                    next=_nullable("string", description="the next page's address"),
                ),
                _BOT,
                _param("other_id", "path", _UUID, "the other bot's id"),
                _param("before", "query", _UUID, "the last match of the page before"),
            )
        },
        "/bots/{bot_id}/challenges/": {
            "post": {
                **_post(
                    "Let others challenge the bot, or stop it (house bots always accept)",
                    _wrapped(
                        bot=_object(["id", "name"], {"id": _UUID, "name": {"type": "string"}}),
                        accepts_challenges={"type": "boolean"},
                    ),
                    {"application/json": {"schema": _object(["accept"], {"accept": _BOOL})}},
                ),
                "parameters": [_BOT],
            }
        },
        "/notifications/": {
            "get": {
                **_get("Your notifications: the webhook, its secret, each event's ways", _NOTIFY),
                "security": [{"token": []}],
            },
            "post": _post(
                "Change them: the webhook's address (https, a public address) and/or each "
                "event's ways",
                _NOTIFY,
                {
                    "application/json": {
                        "schema": _object(
                            [],
                            {
                                "webhook_url": {"type": "string", "maxLength": 500},
                                "events": {"type": "object", "additionalProperties": _WAYS},
                            },
                        )
                    }
                },
            ),
        },
        "/notifications/test/": {
            "post": {
                **_post(
                    "Send a test to your e-mail address and webhook",
                    _wrapped(deliveries={"type": "array", "items": {"type": "integer"}}),
                ),
                "responses": {
                    "202": _json(
                        _wrapped(deliveries={"type": "array", "items": {"type": "integer"}}),
                        "on its way",
                    ),
                    "400": _error("nowhere to send it"),
                    "401": _error("no valid token"),
                },
            }
        },
        "/notifications/deliveries/": {
            "get": {
                **_get(
                    "Your latest deliveries with each attempt (the delivery log)",
                    _wrapped(
                        deliveries={
                            "type": "array",
                            "items": _object(
                                ["event", "kind", "way", "status", "attempts", "log"],
                                {
                                    "event": _UUID,
                                    "kind": {"type": "string"},
                                    "subject": {"type": "string"},
                                    "way": {"enum": ["email", "webhook"]},
                                    "target": {"type": "string"},
                                    "status": {"enum": ["pending", "sending", "sent", "failed"]},
                                    "attempts": {"type": "integer", "minimum": 0},
                                    "created_at": _TIME,
                                    "sent_at": _TIME,
                                    "log": {
                                        "type": "array",
                                        "items": _object(
                                            ["at", "ok"],
                                            {
                                                "at": _TIME,
                                                "ok": {"type": "boolean"},
                                                "status": _nullable("integer"),
                                                "detail": {"type": "string"},
                                            },
                                        ),
                                    },
                                },
                            ),
                        }
                    ),
                    _param(
                        "limit",
                        "query",
                        {"type": "integer", "minimum": 0, "maximum": 100},
                        "how many (20)",
                    ),
                ),
                "security": [{"token": []}],
            }
        },
        "/seasons/": {
            "get": _get(
                "Ladders' seasons, the latest first",
                _wrapped(seasons={"type": "array", "items": _ref("Season")}),
                _param("ladder", "query", _UUID, "a ladder's id"),
            )
        },
        "/seasons/{season_id}/": {
            "get": _get(
                "One season, with the ladder's table at its end and its final's standings",
                _wrapped(season=_ref("Season")),
                _param("season_id", "path", _UUID, "the season's id"),
            )
        },
        "/challenges/": {
            "get": _get(
                "Challenges, newest first",
                _wrapped(challenges={"type": "array", "items": _ref("Challenge")}),
                _param("challenger", "query", {"type": "string"}, "a challenger's username"),
                _param(
                    "limit",
                    "query",
                    {"type": "integer", "minimum": 0, "maximum": 100},
                    "how many (20)",
                ),
            ),
            "post": {
                **_post(
                    "Challenge: your bot's active version against the opponents you choose, in "
                    "one unrated duplicate match (429 when one of your limits is reached)",
                    _wrapped(challenge=_ref("Challenge")),
                    {
                        "application/json": {
                            "schema": _object(
                                ["bot", "opponents", "deals"],
                                {
                                    "bot": {**_UUID, "description": "your bot"},
                                    "opponents": {"type": "array", "items": _UUID},
                                    "variant": {"type": "string", "default": "basic"},
                                    "players": {
                                        "type": "integer",
                                        "description": "opponents + 1 (the default)",
                                    },
                                    "deals": {"type": "integer", "minimum": 1},
                                },
                            )
                        }
                    },
                ),
                "responses": {
                    "201": _json(_wrapped(challenge=_ref("Challenge")), "made"),
                    "400": _error("refused: the message says why"),
                    "401": _error("no valid token"),
                    "429": _error("a limit is reached: the message says which"),
                },
            },
        },
        "/challenges/{challenge_id}/": {
            "get": _get(
                "One challenge: its match's state, line-up and the challenger's edges",
                _wrapped(challenge=_ref("Challenge")),
                _param("challenge_id", "path", _UUID, "the challenge's id"),
            )
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
