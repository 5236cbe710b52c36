"""``python -m tools.synth``: each action writes what it says, with --help text."""
from __future__ import annotations

import argparse
import json

import pytest

import tools.synth.cli as synth
from companion.engine import card_from_json
from vision.catalog import distinct_faces


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.synth", description=synth.__doc__)
    synth.add_arguments(parser)
    return parser.parse_args(argv)


def test_the_synthesiser_is_a_tool_not_a_player_command(capsys):
    from companion.cli import main

    assert "samples" in synth.__doc__
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "synth" not in capsys.readouterr().out


def test_help_lists_the_actions(capsys):
    with pytest.raises(SystemExit) as exit_:
        parse(["videos", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "--cards" in out and "--fake-camera" in out


def test_bad_ranges_are_refused(capsys):
    with pytest.raises(SystemExit):
        parse(["videos", "--cards", "9-3"])
    with pytest.raises(SystemExit):
        parse(["photos", "--size", "big"])


def test_deck_action_writes_faces_manifest_and_sheet(tmp_path, capsys):
    assert synth.run(parse(["deck", "--style", "alt", "--out", str(tmp_path / "alt")])) == 0
    manifest = json.loads((tmp_path / "alt" / "manifest.json").read_text())
    assert [card_from_json(c["card"]) for c in manifest["cards"]] == distinct_faces()
    assert len(list((tmp_path / "alt").glob("*.png"))) == 51
    assert (tmp_path / "alt_contact_sheet.png").is_file()
    assert "51 faces" in capsys.readouterr().out


def test_photos_action_writes_count_photos_of_the_kind(tmp_path):
    assert synth.run(parse(["photos", "--count", "3", "--seed", "4", "--kind", "empty", "--size", "320x180",
                            "--out", str(tmp_path)])) == 0
    truth = json.loads((tmp_path / "photos.json").read_text())
    assert [p["kind"] for p in truth["photos"]] == ["empty"] * 3
    assert all(p["size"] == [320, 180] and p["cards"] == [] for p in truth["photos"])
    assert sorted(f.name for f in tmp_path.glob("*.jpg")) == ["photo-00000.jpg", "photo-00001.jpg", "photo-00002.jpg"]


def test_videos_action_writes_avi_frames_truth_and_fake_camera(tmp_path, capsys):
    assert synth.run(parse(["videos", "--count", "1", "--seed", "2", "--cards", "3", "--size", "320x180",
                            "--fake-camera", "--out", str(tmp_path)])) == 0
    truth = json.loads((tmp_path / "flip-0000.truth.json").read_text())
    assert len(truth["cards"]) == 3 and truth["size"] == [320, 180]
    assert (tmp_path / "flip-0000.avi").stat().st_size > 0
    assert len(list((tmp_path / "flip-0000-frames").glob("*.jpg"))) == truth["frame_count"]
    assert (tmp_path / "flip-0000.mjpeg").stat().st_size > 0
    assert "flip-0000.avi" in capsys.readouterr().out


def test_enroll_photos_action_takes_style_seed_and_doubles(monkeypatch, tmp_path, capsys):
    import tools.synth.enroll_photos as enroll_photos

    calls = []
    monkeypatch.setattr(enroll_photos, "write_enroll_photos",
                        lambda out, style, seed, doubles: calls.append((out, style.name, seed, doubles)) or out)
    assert synth.run(parse(["enroll-photos", "--style", "hard", "--seed", "3", "--no-doubles",
                            "--out", str(tmp_path)])) == 0
    assert calls == [(tmp_path, "hard", 3, False)]
    assert "46 photos" in capsys.readouterr().out
    assert parse(["enroll-photos"]).out is None


def test_teach_video_action_takes_style_seed_size_and_doubles(monkeypatch, tmp_path, capsys):
    import tools.synth.teach_video as teach_video

    calls = []

    def fake(out, style, seed, cards, size, fps):
        calls.append((style.name, seed, len(cards), size, fps))
        return out, out.with_suffix(".json")

    monkeypatch.setattr(teach_video, "write_teach_video", fake)
    out = tmp_path / "t.mjpeg"
    assert synth.run(parse(["teach-video", "--style", "hard", "--seed", "5", "--size", "320x240",
                            "--out", str(out)])) == 0
    assert calls == [("hard", 5, 51, (320, 240), 15.0)]
    assert "--use-file-for-fake-video-capture=" in capsys.readouterr().out
    assert parse(["teach-video", "--no-doubles"]).no_doubles
