"""A self-signed TLS certificate and key for a gateway, for the demo and the tests (a real
deployment uses a certificate from its CA): ``self_signed(folder, hosts)``, kept in ``folder``
and made again only when it no longer fits."""

import datetime
import ipaddress
import logging
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

log = logging.getLogger(__name__)

#: A kept certificate is made again when it has less than this left to run.
RENEW_BEFORE = datetime.timedelta(days=7)


def _alternative(host: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def is_self_signed(path: Path) -> bool:
    """Whether the certificate in ``path`` is readable and its own issuer (so that a bot must be
    told to trust it: no public CA vouches for it)."""
    try:
        cert = x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError):
        return False
    return cert.issuer == cert.subject


def _kept(cert_path: Path, key_path: Path, hosts: list[str]) -> bool:
    """Whether the pair in the folder can serve ``hosts`` a while longer: both files read, the
    key is the certificate's, every host is named, and it is not about to expire."""
    if not cert_path.exists() and not key_path.exists():
        return False
    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound) as exc:
        log.warning("making a new certificate: the kept one in %s is unusable (%s)", cert_path, exc)
        return False
    if key.public_key() != cert.public_key():
        return False
    if any(_alternative(host) not in names for host in hosts):
        return False
    left = cert.not_valid_after_utc - datetime.datetime.now(datetime.UTC)
    return left > RENEW_BEFORE


def self_signed(folder: Path, hosts: list[str], days: int = 365) -> tuple[Path, Path]:
    """``gateway.crt`` and ``gateway.key`` in ``folder`` for ``hosts`` (names or IP addresses,
    the first also the common name); their paths. The certificate is its own CA: a bot trusts
    it with ``--ca gateway.crt``. A pair already there is kept while it names every host and
    runs for more than :data:`RENEW_BEFORE` (so a restarted gateway keeps the certificate its
    bots trust); otherwise a new one is made."""
    cert_path, key_path = folder / "gateway.crt", folder / "gateway.key"
    if _kept(cert_path, key_path, hosts):
        return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])])
    alternatives = [_alternative(host) for host in dict.fromkeys(hosts)]
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    # Each file written beside and renamed into place: never a half-written file (and a key
    # that is not its certificate's, from a start that died between the two, is made again).
    key_text = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    for path, data, mode in (
        (key_path, key_text, 0o600),
        (cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644),
    ):
        part = path.with_name(path.name + ".part")
        part.unlink(missing_ok=True)
        part.touch(mode=mode)
        part.write_bytes(data)
        part.replace(path)
    log.info("made a new self-signed certificate %s for %s", cert_path, ", ".join(hosts))
    return cert_path, key_path
