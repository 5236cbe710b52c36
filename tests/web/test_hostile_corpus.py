"""Every file of the hostile corpus (tools/bench/hostile_files.py) to every
upload address, through the test client: no 5xx, and nothing changes."""
from __future__ import annotations

import io
from functools import lru_cache

import pytest
from PIL import Image

from tools.bench.attack_run import ClientSender, prepare, run, upload_endpoints, upload_probes
from tools.bench.hostile_files import HostileFile, corpus

STATE_CHECKS = 25  # the state is read after every 25 uploads: often enough to name the culprits, cheap


@lru_cache(maxsize=1)
def files() -> tuple[HostileFile, ...]:
    return tuple(corpus())


def test_the_corpus_is_large_seeded_and_varied():
    assert len(files()) >= 200 and corpus() == list(files())
    names = " ".join(f.name for f in files())
    for kind in ("tiny-1x1", "tiny-1x5000", "tiny-5000x1", "bomb-png-16383x16383", "bomb-webp-lossless-16383x16383",
                 "cut-", "random-", "polyglot-jpeg-zip", "wrong-svg", "garbled-ftyp", "avi-header-5000x5000"):
        assert kind in names, kind


@pytest.mark.parametrize("hostile", [f for f in files() if f.name.startswith("bomb-") and "-as-" not in f.name],
                         ids=lambda f: f.name)
def test_each_bomb_declares_its_size_in_few_bytes(hostile):
    declared = hostile.name.rsplit("-", 1)[1].split(".")[0]
    width, height = map(int, declared.split("x"))
    assert len(hostile.data) < 10_000
    try:
        size = Image.open(io.BytesIO(hostile.data)).size
    except Image.DecompressionBombError:
        return  # Pillow's own limit: larger than 179 megapixels, as declared
    except OSError:
        assert "webp-canvas" in hostile.name  # libwebp refuses a canvas its frame does not fill
        return
    assert size == (width, height)


@pytest.mark.parametrize("endpoint", ["frame", "photo", "video", "faces"])
def test_no_hostile_file_gets_a_5xx_or_changes_anything(client, endpoint):
    sender = ClientSender(client)
    targets = prepare(sender)
    probes = [p for p in upload_probes(files(), targets) if p.what.endswith(f"-> {endpoint}")]
    assert len(probes) == len(files()) and endpoint in upload_endpoints(targets)
    tally = run(sender, probes, [targets.game], check_every=STATE_CHECKS)
    assert tally.server_errors == []
    assert tally.changed == [] and tally.accepted_changes == 0
    # the 17 MB file was turned away before it was read (as a video, for its content type even sooner)
    assert tally.statuses[413] >= (endpoint != "video")
