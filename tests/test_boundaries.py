"""The product (``companion``, ``vision``) never imports the tooling
(``tools``: the stand-in deck's art, the synthetic camera, benchmarks)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("companion", "vision")
TOOLING = "tools"


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every absolute import in ``path``; relative imports
    stay inside their own package, which is never the tooling."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def tooling_imports(paths: list[Path], root: Path = ROOT) -> list[str]:
    return [f"{path.relative_to(root)}:{line} imports {module}" for path in paths
            for line, module in imported_modules(path) if module.split(".")[0] == TOOLING]


def test_no_product_module_imports_the_tooling():
    sources = [p for package in PRODUCT for p in sorted((ROOT / package).rglob("*.py"))]
    assert len(sources) > 50
    assert tooling_imports(sources) == []


def test_the_check_sees_an_import_of_the_tooling(tmp_path):
    """The check itself can fail: a product file importing a tool is named."""
    (tmp_path / "bad.py").write_text("import os\nfrom tools.synth.deck_art import render_face\n")
    assert tooling_imports([tmp_path / "bad.py"], tmp_path) == ["bad.py:2 imports tools.synth.deck_art"]


@pytest.mark.parametrize("entry", [
    "from companion.web import create_app; create_app({'DATABASE': ':memory:', 'SECRET_KEY': 'x'})",
    "import companion.cli as c; c.build_parser()",
    "import companion.web.camera, companion.web.scanning, companion.commands.scan, companion.commands.enroll",
    "import vision.recognize.pipeline, vision.recognize.enroll, vision.recognize.ocr, vision.track.factory, "
    "vision.track.follow, vision.track.narrate",
    "import vision.maus; vision.maus.MausReader.standin()",
])
def test_running_the_product_loads_no_tooling(entry):
    """What a player runs loads no tooling module at all, lazily or not."""
    code = f"{entry}\nimport sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] == {TOOLING!r}))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
