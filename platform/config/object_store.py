"""The object store's settings: the ``"arena"`` entry of ``STORAGES`` from ``NIMMT_S3_*``.

Read as strictly as :mod:`config.env` reads the rest: a bad value stops start-up naming the
variable.
"""

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.env import env_str

S3_VARIABLES = (
    "NIMMT_S3_BUCKET",
    "NIMMT_S3_ENDPOINT_URL",
    "NIMMT_S3_ACCESS_KEY_ID",
    "NIMMT_S3_SECRET_ACCESS_KEY",
    "NIMMT_S3_REGION",
    "NIMMT_S3_PREFIX",
)


def object_store(environ: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The ``"arena"`` entry of ``STORAGES`` for an S3-compatible object store, from
    ``NIMMT_S3_*``; ``None`` (the data folder) when ``NIMMT_S3_BUCKET`` is unset.

    ``NIMMT_S3_ENDPOINT_URL`` is ``http(s)://host[:port]`` of a store other than AWS (MinIO,
    Ceph...); the keys are given both or neither (neither: boto3's own credential chain, such
    as an instance role).

    >>> object_store({})
    >>> entry = object_store({"NIMMT_S3_BUCKET": "arena",
    ...     "NIMMT_S3_ENDPOINT_URL": "http://minio:9000", "NIMMT_S3_ACCESS_KEY_ID": "k",
    ...     "NIMMT_S3_SECRET_ACCESS_KEY": "s"})
    >>> entry["OPTIONS"]["endpoint_url"], entry["OPTIONS"]["client_config"].s3
    ('http://minio:9000', {'addressing_style': 'path'})
    """
    values = {name: env_str(name, "", environ) or None for name in S3_VARIABLES}
    bucket = values["NIMMT_S3_BUCKET"]
    if bucket is None:
        stray = [name for name, value in values.items() if value is not None]
        if stray:
            raise ImproperlyConfigured(
                f"{', '.join(stray)} set but NIMMT_S3_BUCKET is not; set it to use the store"
            )
        return None
    if not 3 <= len(bucket) <= 63 or any(
        c not in "abcdefghijklmnopqrstuvwxyz0123456789.-" for c in bucket
    ):
        raise ImproperlyConfigured(f"NIMMT_S3_BUCKET={bucket!r} is not an S3 bucket name")
    endpoint = values["NIMMT_S3_ENDPOINT_URL"]
    if endpoint is not None:
        parts = urlsplit(endpoint)
        try:
            _ = parts.port
        except ValueError:
            raise ImproperlyConfigured(
                f"NIMMT_S3_ENDPOINT_URL={endpoint!r} has a bad port"
            ) from None
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/"):
            raise ImproperlyConfigured(
                f"NIMMT_S3_ENDPOINT_URL={endpoint!r}: use http(s)://host[:port]"
            )
    key, secret = values["NIMMT_S3_ACCESS_KEY_ID"], values["NIMMT_S3_SECRET_ACCESS_KEY"]
    if (key is None) != (secret is None):
        raise ImproperlyConfigured(
            "NIMMT_S3_ACCESS_KEY_ID and NIMMT_S3_SECRET_ACCESS_KEY go together; set both"
        )
    from botocore.config import Config  # only a deployment with a store needs botocore

    return {
        "BACKEND": "core.storage.WriteOnceS3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint,
            "access_key": key,
            "secret_key": secret,
            "region_name": values["NIMMT_S3_REGION"] or "us-east-1",
            "location": (values["NIMMT_S3_PREFIX"] or "").strip("/"),
            "file_overwrite": False,
            "default_acl": None,
            # A store that does not answer must not hold a worker for long: the match is
            # given back and played again.
            "client_config": Config(
                s3={"addressing_style": "path" if endpoint else "auto"},
                signature_version="s3v4",
                connect_timeout=5,
                read_timeout=30,
                retries={"max_attempts": 3, "mode": "standard"},
            ),
        },
    }
