"""MAMMA_MIA_INSTANCE names the instance folder: database, secret key, config.py."""
from __future__ import annotations

from companion.web import create_app


def test_a_relative_instance_folder_is_taken_from_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAMMA_MIA_INSTANCE", "table")
    app = create_app()
    assert app.instance_path == str(tmp_path / "table")
    assert app.config["DATABASE"] == str(tmp_path / "table" / "mamma-mia.sqlite")
    assert (tmp_path / "table" / "mamma-mia.sqlite").exists() and (tmp_path / "table" / "secret_key").exists()


def test_the_config_py_of_that_folder_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("MAMMA_MIA_INSTANCE", str(tmp_path))
    (tmp_path / "config.py").write_text("CAMERA_MAX_FPS = 7\nSECRET_KEY = 'from-config'\n")
    app = create_app()
    assert app.config["CAMERA_MAX_FPS"] == 7 and app.config["SECRET_KEY"] == "from-config"


def test_without_it_flask_chooses_the_folder(monkeypatch):
    monkeypatch.delenv("MAMMA_MIA_INSTANCE", raising=False)
    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "test"})
    assert app.instance_path.endswith("instance")
