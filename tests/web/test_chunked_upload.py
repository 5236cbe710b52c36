"""An upload sent in chunks (no Content-Length) past the limit is a 413,
through the server players run, not a damaged image."""
from __future__ import annotations

import http.client
import select

from companion.web import create_app
from companion.web.server import build_server, serve_in_thread

from .conftest import ANN_BOB

LIMIT = 256 * 1024


def chunked_post(port: int, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    """POST ``body`` in chunks, as a browser streams a file, stopping when the
    server answers before the end (it may refuse an upload part-way and close)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", content_type)
        connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders()
        pieces = [body[start:start + 64 * 1024] for start in range(0, len(body), 64 * 1024)]
        for chunk in [b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces] + [b"0\r\n\r\n"]:
            if select.select([connection.sock], [], [], 0.05)[0]:
                break  # answered already
            try:
                connection.send(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break  # closed after answering: the answer is read below
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_a_chunked_upload_over_the_limit_is_too_large(database):
    app = create_app({"DATABASE": database, "SECRET_KEY": "t", "MAX_CONTENT_LENGTH": LIMIT})
    game = app.test_client().post("/api/games", json={"players": ANN_BOB}).get_json()["id"]
    server = build_server(app, "127.0.0.1", 0)
    serving = serve_in_thread(server)
    try:
        port = server.bind_addr[1]
        status, body = chunked_post(port, f"/api/games/{game}/photo", b"\xff\xd8" + b"\0" * (2 * LIMIT),
                                    "image/jpeg")
    finally:
        server.stop()
        serving.join()
    assert status == 413, body

