"""The local certificate authority behind soundstage's HTTPS port.

Created once with trustme and kept in `$SOUNDSTAGE_HOME/tls` (default `~/.soundstage/tls`): the CA, a
server certificate for 127.0.0.1 and localhost, and a bundle of the machine's usual trusted authorities
plus the local one. The agent gets the bundle as `SSL_CERT_FILE` and `REQUESTS_CA_BUNDLE`, so its calls to
soundstage verify, and so do its other HTTPS calls (to a model provider, say).
"""

from __future__ import annotations

import fcntl
import ssl
import threading
from dataclasses import dataclass
from pathlib import Path

import certifi

from ..errors import InfrastructureError
from ..home import home

HOSTS = ("127.0.0.1", "localhost", "::1")
_lock = threading.Lock()


@dataclass(frozen=True)
class LocalCA:
    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def certificate(self) -> Path:
        """The server's certificate chain and key, in one file (what uvicorn's `ssl_certfile` takes)."""
        return self.folder / "server.pem"

    @property
    def bundle(self) -> Path:
        return self.folder / "bundle.pem"


def local_ca(folder: Path | None = None) -> LocalCA:
    """The local CA, made on first use; later calls (and later runs) reuse its files."""
    found = LocalCA(folder or home() / "tls")
    with _lock:
        if not (found.ca.exists() and found.certificate.exists() and found.bundle.exists()):
            try:
                found.folder.mkdir(parents=True, exist_ok=True)
                with open(found.folder / ".lock", "w") as lock:
                    # Other processes (parallel test workers, two servers starting) make it once between them.
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    if not (found.ca.exists() and found.certificate.exists() and found.bundle.exists()):
                        _create(found)
            except OSError as exc:
                raise InfrastructureError(
                    f"could not keep the local certificate authority in {found.folder}: {exc}"
                ) from exc
    return found


def _create(found: LocalCA) -> None:
    import trustme  # only here: made once, the CA is read from its files, without trustme's tenth of a second

    try:
        found.folder.mkdir(parents=True, exist_ok=True)
        key_file = found.folder / "ca.key"
        if found.ca.exists() and key_file.exists():  # keep a CA agents may already trust
            ca = trustme.CA.from_pem(found.ca.read_bytes(), key_file.read_bytes())
        else:
            ca = trustme.CA(organization_name="soundstage local CA")
            _write(found.ca, ca.cert_pem.bytes())
            _write(key_file, ca.private_key_pem.bytes(), private=True)
        leaf = ca.issue_cert(*HOSTS)
        _write(
            found.certificate,
            b"".join(p.bytes() for p in leaf.cert_chain_pems) + leaf.private_key_pem.bytes(),
            private=True,
        )
        _write(found.bundle, _usual_authorities() + b"\n" + found.ca.read_bytes())
    except OSError as exc:
        raise InfrastructureError(f"could not keep the local certificate authority in {found.folder}: {exc}") from exc


def _usual_authorities() -> bytes:
    """The machine's trusted authorities: the system's bundle where there is one, else certifi's."""
    system = ssl.get_default_verify_paths().cafile
    path = Path(system) if system and Path(system).is_file() else Path(certifi.where())
    return path.read_bytes()


def _write(path: Path, data: bytes, private: bool = False) -> None:
    """Writes whole files only (a crash never leaves half a certificate)."""
    partial = path.with_suffix(path.suffix + ".partial")
    partial.write_bytes(data)
    if private:
        partial.chmod(0o600)
    partial.replace(path)
