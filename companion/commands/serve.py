"""Serve the table app; open the address it prints on a tablet or phone.

By default only this computer can connect (127.0.0.1, plain HTTP), and the
output says so. To play with tablets and phones on the same network, bind
every interface (``make run`` does):

  mamma-mia serve --host 0.0.0.0 --https

The output then gives the address they open (a QR code of it too, in a
terminal and on the home page opened on this computer).

--https serves with a self-signed certificate made in the instance folder
(phones only give a page the camera over HTTPS); browsers warn about it once.
Bound beyond loopback, the server prints a table code (also shown on pages
opened on this computer): other devices type it before they can change anything.
Games are kept in mamma-mia.sqlite in the instance folder (set it with the
MAMMA_MIA_INSTANCE environment variable): stopping the server (Ctrl+C) and
starting it again resumes every game exactly where it was.

The camera compares with the deck last made active in the app (the bundled
stand-in deck at first); decks taught in the app are kept in the instance
folder. --deck DIR uses a deck folder instead (one `mamma-mia enroll DIR`
made, say): it is listed in the app, read-only, and active from the start
(a Maus au Chocolat deck folder, whose manifest says so, for the Maus camera).
The output says which deck the camera uses.

The server is cheroot: one process (camera sessions are kept in its memory)
with a pool of threads. Ctrl+C or SIGTERM lets requests under way finish, then
it says "Stopped." and exits with code 0; 1 when it cannot listen (the port is
taken, say); 2 when the --deck folder cannot be used.
"""
from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from ..decks.store import Deck

NAME = "serve"
HELP = "serve the table web app (loopback and plain HTTP unless told otherwise)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on; 0.0.0.0 lets tablets on your network connect "
                             "(default 127.0.0.1: this computer only)")
    parser.add_argument("--port", type=_port, default=5000, help="port to listen on (default 5000)")
    parser.add_argument("--https", action="store_true",
                        help="serve HTTPS with a self-signed certificate created in the instance folder")
    parser.add_argument("--deck", type=Path, default=None, metavar="DIR",
                        help="deck folder the camera compares with (after mamma-mia enroll DIR: its enrolled "
                             "faces); default: the deck last made active in the app")


def run(args: argparse.Namespace) -> int:
    from vision.recognize.decks import DeckError, load_faces

    from ..decks.games import GAMES, MAMMA_MIA, folder_game

    from ..web import create_app
    from ..web.access import is_loopback_host, new_table_code
    from ..web.joining import Joining
    from ..web.recognition import deck_store
    from ..web.server import build_server, return_freed_memory, serve_until_stopped

    return_freed_memory()  # before any of the server's threads exists
    app = create_app()
    if args.deck is not None:
        app.config["DECK_DIR"] = str(args.deck)
    try:
        game = GAMES[MAMMA_MIA]
        if args.deck is not None:
            game = folder_game(args.deck)
            load_faces(args.deck, game.read)  # every image, so a folder of photos not enrolled yet is said now
        with app.app_context():
            deck = deck_store().active(game)
    except DeckError as error:
        print(f"serve: cannot use the deck: {error}", file=sys.stderr)
        return 2
    if not is_loopback_host(args.host):
        app.config["TABLE_CODE"] = new_table_code()  # a fresh one each start: old grants lapse
    scheme = "https" if args.https else "http"
    app.config["JOIN_ADDRESS"] = Joining.from_addresses(addresses(args.host, args.port, scheme),
                                                        network=not is_loopback_host(args.host)).address
    cert = key = None
    if args.https:
        from ..web.certificate import ensure_certificate

        cert, key = ensure_certificate(app.instance_path, host_names(args.host))
        app.config["SESSION_COOKIE_SECURE"] = True  # the table-code grant never travels in the clear
    server = build_server(app, args.host, args.port, cert, key)
    try:
        server.prepare()  # listen before printing addresses: a taken port is said instead
    except OSError as error:
        print(f"serve: cannot listen on {args.host} port {args.port}: {error}", file=sys.stderr)
        return 1
    print_welcome(app.config, args.host, args.port, cert, deck)
    serve_until_stopped(server)
    print("Stopped.")
    return 0


def print_welcome(config: Mapping[str, Any], host: str, port: int, cert: Path | None, deck: Deck) -> None:
    from ..web.joining import joining

    if cert is not None:
        print(f"Certificate: {cert} (self-signed: accept the browser's warning once)")
    print(f"Games are kept in {config['DATABASE']}")
    print(deck_line(deck))
    scheme = "https" if cert is not None else "http"
    for address in [a for a in addresses(host, port, scheme) if a != config.get("JOIN_ADDRESS")]:
        print(f"Open {address} on this computer")
    for line in joining(config).console_lines(tty=sys.stdout.isatty()):
        print(line)
    if config.get("TABLE_CODE"):
        print(f"Table code: {config['TABLE_CODE']} (other devices type it before changing anything)")
    sys.stdout.flush()  # shown at once even when the output goes to a pipe or a log


def deck_line(deck: Deck) -> str:
    """Which deck the camera compares with, and whether it lacks faces."""
    taught, total = len(deck.faces), len(deck.cards)
    if deck.complete:
        return f"Camera deck: {deck.name} ({taught} faces)"
    return f"Camera deck: {deck.name} ({taught} of {total} faces: the other {total - taught} cannot be read)"


def addresses(host: str, port: int, scheme: str = "http") -> list[str]:
    """The addresses to open: this computer's network address when bound to
    every interface.

    >>> addresses("127.0.0.1", 5000)
    ['http://127.0.0.1:5000/']
    """
    return [f"{scheme}://{_bracket(name)}:{port}/" for name in host_names(host)]


def host_names(host: str) -> list[str]:
    if host in ("0.0.0.0", "::", ""):
        return [name for name in (lan_address(), "127.0.0.1") if name]
    return [host]


def lan_address() -> str | None:
    """This computer's address on its network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _bracket(name: str) -> str:
    try:
        return f"[{name}]" if ipaddress.ip_address(name).version == 6 else name
    except ValueError:
        return name


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is not between 1 and 65535")
    return port
