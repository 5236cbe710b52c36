"""How a tablet or phone joins the table: the address it opens, a QR code of
that address (a phone's camera reads it faster than a thumb types it), and
whether its camera will work there (browsers give a page live video only over
HTTPS, or on the computer itself).

``serve`` works out the address when it starts and keeps it in the app's
``JOIN_ADDRESS`` setting (``None`` when it listens on loopback only, where no
other device can reach it); the console and the host's home page say the same.

The QR code is drawn by segno, a small pure-Python library that follows the
QR standard and writes SVG directly: the page needs no image file and no script.

>>> joining = Joining.from_addresses(["https://192.168.1.20:5000/", "https://127.0.0.1:5000/"], network=True)
>>> joining.address, joining.camera_works, Joining(None, network=False).reachable
('https://192.168.1.20:5000/', True, False)
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Mapping

import segno

NETWORK_COMMAND = "mamma-mia serve --host 0.0.0.0 --https"


@dataclass(frozen=True)
class Joining:
    """``address``: what other devices open, ``None`` when there is none;
    ``network``: the server listens beyond loopback (it may have found no
    address, on a computer not connected yet)."""

    address: str | None
    network: bool = True

    @classmethod
    def from_addresses(cls, addresses: list[str], network: bool) -> Joining:
        """From the addresses ``serve`` prints: the first that is not this computer's loopback."""
        others = [a for a in addresses if "//127." not in a and "//[::1]" not in a and "//localhost" not in a]
        return cls(others[0] if others and network else None, network)

    @property
    def reachable(self) -> bool:
        return self.address is not None

    @property
    def camera_works(self) -> bool:
        return bool(self.address and self.address.startswith("https://"))

    def qr_svg(self, title: str) -> str:
        """The address as a QR code, inline SVG with ``title`` for screen readers."""
        assert self.address is not None
        # a viewBox, no fixed size: the page scales it
        return _qr(self.address).svg_inline(scale=5, border=4, title=title, dark="#000", light="#fff",
                                             omitsize=True)

    def console_lines(self, tty: bool = False) -> list[str]:
        """What the startup output says about joining; ``tty``: a terminal, where a QR code fits."""
        if not self.network:
            return ["Tablets and phones cannot reach this address (this computer only). To play from them, "
                    "serve to your network:", f"  {NETWORK_COMMAND}   (make run does)"]
        if self.address is None:
            return ["Tablets and phones: this computer has no network address; connect it to the network "
                    "(the same Wi-Fi as theirs) and start again"]
        lines = [f"Tablets and phones on the same network: open {self.address} "
                 "or scan the code on this computer's home page"]
        if tty:
            out = io.StringIO()
            _qr(self.address).terminal(out=out, compact=True)
            lines.append(out.getvalue().rstrip("\n"))
        if self.camera_works:
            lines.append("Their browsers warn once about the certificate this computer made: accept it")
        else:
            lines.append(f"Their cameras stay off over plain HTTP (photos and videos still work): "
                         f"for live video restart with --https ({NETWORK_COMMAND})")
        return lines


def joining(config: Mapping[str, Any]) -> Joining:
    """How devices join the app configured by ``config`` (``serve`` sets a
    table code exactly when it listens beyond loopback)."""
    return Joining(config.get("JOIN_ADDRESS"), network=bool(config.get("TABLE_CODE")))


def _qr(address: str) -> segno.QRCode:
    return segno.make(address, error="m", micro=False)  # medium error correction: a glossy screen, a shaky hand
