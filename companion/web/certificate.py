"""A self-signed certificate for ``mamma-mia serve --https``.

Phones only give a web page the camera over HTTPS (or on localhost), so a
table served to tablets needs a certificate; a laptop at a game table has no
domain name, so it makes its own. Browsers warn once about it.
"""
from __future__ import annotations

import datetime
import ipaddress
import os
from pathlib import Path
from typing import Iterable

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

VALID_DAYS = 825  # the longest validity Apple devices accept
CERT_FILE, KEY_FILE = "table-cert.pem", "table-key.pem"


def ensure_certificate(directory: str | os.PathLike[str], names: Iterable[str]) -> tuple[Path, Path]:
    """The certificate and key files in ``directory`` for host ``names``
    (host names or IP addresses); made anew when missing, expired or not
    covering every name."""
    folder = Path(directory)
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    wanted = sorted(set(names) | {"localhost", "127.0.0.1"})
    if cert_path.exists() and key_path.exists() and _still_good(cert_path.read_bytes(), wanted):
        os.chmod(key_path, 0o600)  # a key loosened since it was made is private again
        return cert_path, key_path
    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    _write_private(key_path, key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    cert_path.write_bytes(_certificate(key, wanted).public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def certificate_names(pem: bytes) -> list[str]:
    """The host names and addresses a certificate is valid for."""
    cert = x509.load_pem_x509_certificate(pem)
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return sorted([*names.get_values_for_type(x509.DNSName),
                   *(str(ip) for ip in names.get_values_for_type(x509.IPAddress))])


def _certificate(key: ec.EllipticCurvePrivateKey, names: list[str]) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Mamma Mia! table companion")])
    now = datetime.datetime.now(datetime.timezone.utc)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))  # tolerate a tablet's clock running behind
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName([_general_name(n) for n in names]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )


def _general_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _still_good(pem: bytes, names: list[str]) -> bool:
    try:
        cert = x509.load_pem_x509_certificate(pem)
        covered = set(certificate_names(pem))
    except (ValueError, x509.ExtensionNotFound):
        return False
    fresh = cert.not_valid_after_utc > datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    return fresh and set(names) <= covered


def _write_private(path: Path, data: bytes) -> None:
    """Only the owner may read the key."""
    if path.exists():
        path.unlink()
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
        handle.write(data)
