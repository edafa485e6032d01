"""Calling an owner's webhook: an HTTPS POST of a JSON body, signed, to a public address only.

The signature is ``X-Nimmt-Signature: sha256=<hex>``, the HMAC-SHA256 with the channel's secret
of ``<X-Nimmt-Timestamp>.<body>`` (the timestamp in seconds, so that a receiver can refuse an
old message replayed); ``X-Nimmt-Event`` is the event's id, the same on every retry, so that a
receiver can drop a delivery it already has.

**Where it may go.** The host is resolved here and every address must be public
(:attr:`ipaddress.IPv4Address.is_global`): loopback, private, link-local (cloud metadata) and
reserved addresses are refused, and the connection goes to the address that was checked (the
TLS name check still uses the host's name), so a name that resolves differently a moment later
cannot take it elsewhere; redirects are not followed. ``WEBHOOK_ALLOW_PRIVATE`` (tests, a
private demo) lifts this and lets plain ``http://`` through.
"""

import hashlib
import hmac
import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings


class WebhookRefused(ValueError):
    """An address a webhook may not call, with the reason."""


@dataclass(frozen=True)
class Answer:
    ok: bool
    status: int | None
    detail: str


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``.

    >>> sign("s3cret", 1700000000, b'{"a":1}')[:20]
    'sha256=1698a50bc74d1'
    """
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def check_url(url: str, *, allow_private: bool | None = None) -> tuple[str, str, int, str]:
    """``(scheme, host, port, path)`` of a webhook address, or :class:`WebhookRefused` (the
    form of the address only; the addresses it resolves to are checked when it is called)."""
    allow = settings.WEBHOOK_ALLOW_PRIVATE if allow_private is None else allow_private
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise WebhookRefused("A webhook is an https:// address.")
    if parts.scheme == "http" and not allow:
        raise WebhookRefused("A webhook must use https://.")
    if parts.username or parts.password:
        raise WebhookRefused("Put no user name or password in the webhook's address.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise WebhookRefused("The webhook's port is not a number from 1 to 65535.") from None
    try:
        literal = ipaddress.ip_address(parts.hostname)
    except ValueError:
        literal = None
    if literal is not None and not allow and not literal.is_global:
        raise WebhookRefused("A webhook may not call a private, loopback or reserved address.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def resolve(host: str, port: int, *, allow_private: bool) -> str:
    """The address to connect to: the first the host resolves to, all of them public."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise WebhookRefused(f"{host} could not be resolved: {error}") from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise WebhookRefused(f"{host} has no address.")
    if not allow_private:
        for address in addresses:
            if not ipaddress.ip_address(address.split("%")[0]).is_global:
                raise WebhookRefused(
                    f"{host} resolves to {address}, a private, loopback or reserved address."
                )
    return addresses[0]


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the TLS name check against the host's name."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def post(url: str, secret: str, body: bytes, event_id: str, kind: str) -> Answer:
    """POST ``body`` to ``url``, signed; a 2xx answer is a delivery."""
    allow = settings.WEBHOOK_ALLOW_PRIVATE
    try:
        scheme, host, port, path = check_url(url, allow_private=allow)
        address = resolve(host, port, allow_private=allow)
    except WebhookRefused as refused:
        return Answer(False, None, str(refused))
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "nimmt-arena-webhook/1",
        "X-Nimmt-Event": event_id,
        "X-Nimmt-Event-Kind": kind,
        "X-Nimmt-Timestamp": str(timestamp),
        "X-Nimmt-Signature": sign(secret, timestamp, body),
    }
    kind_ = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
    connection = kind_(host, port, address, settings.WEBHOOK_TIMEOUT_SECONDS)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(4096)
    except (OSError, http.client.HTTPException) as error:
        return Answer(False, None, f"{type(error).__name__}: {error}"[:500])
    finally:
        connection.close()
    ok = 200 <= response.status < 300
    return Answer(ok, response.status, f"HTTP {response.status} {response.reason}"[:500])
