"""``mypy --strict`` on the committed ``generated/`` package and on every golden output."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mypy import api

from golden import GOLDEN, ROOT


def _mypy(*targets: str) -> None:
    stdout, stderr, status = api.run(["--strict", "--no-incremental", "--python-version", "3.11",
                                      "--config-file", "", *targets])
    assert status == 0, stdout + stderr


def test_generated_package_passes_mypy_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    _mypy("-p", "generated")


def _golden_package(tmp_path: Path) -> Path:
    """Every golden output copied into one package (``golden_outputs.<case>.<variant>_models``)."""
    package = tmp_path / "golden_outputs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    shutil.copy(GOLDEN / "_runtime.py", package / "_runtime.py")  # what each case's dataclass module imports
    count = 0
    for case in sorted(GOLDEN.iterdir()):
        modules = sorted((case / "expected").glob("*.py"))
        if not modules:
            continue
        target = package / case.name
        target.mkdir()
        (target / "__init__.py").write_text("")
        for module in modules:
            shutil.copy(module, target / module.name)
            count += 1
    assert count >= 9
    return package


def test_golden_outputs_pass_mypy_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _golden_package(tmp_path)
    monkeypatch.chdir(tmp_path)
    _mypy("-p", "golden_outputs")


def test_generated_package_and_golden_outputs_pass_pyright_strict(tmp_path: Path) -> None:
    package = _golden_package(tmp_path)
    config = tmp_path / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}))
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "-p", str(config), "--pythonpath", sys.executable,
         str(ROOT / "generated"), str(package)],
        capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 errors" in result.stdout


def test_every_generated_module_imports() -> None:
    modules = sorted((ROOT / "generated").glob("*/*_models.py"))
    assert modules
    for path in modules:
        importlib.import_module(f"generated.{path.parent.name}.{path.stem}")


def _as_package(folder: Path, variant: str) -> None:
    """``tagged_unions``'s module of ``variant`` as ``out.shapes.models``, in an output package ``out`` with
    its converter (``out/_runtime.py``), as ``generate`` writes them."""
    (folder / "out" / "shapes").mkdir(parents=True)
    for init in ("out/__init__.py", "out/shapes/__init__.py"):
        (folder / init).write_text("")
    shutil.copy(GOLDEN / "_runtime.py", folder / "out" / "_runtime.py")
    shutil.copy(GOLDEN / "tagged_unions" / "expected" / f"{variant}_models.py", folder / "out" / "shapes" / "models.py")


def test_mypy_narrows_a_stdlib_union_on_its_tag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stdlib variants keep ``Circle | Square``; checking the tag narrows it for mypy."""
    for variant, access in (("dataclass", "shape.kind"), ("typeddict", 'shape["kind"]')):
        folder = tmp_path / variant
        folder.mkdir()
        _as_package(folder, variant)
        (folder / "use.py").write_text(
            "from out.shapes.models import Circle, Square\n\n\n"
            "def area(shape: Circle | Square) -> float:\n"
            f"    if {access} == \"circle\":\n"
            "        reveal_type(shape)\n"
            f"        return 3.14 * {access.replace('kind', 'radius')} ** 2\n"
            f"    return {access.replace('kind', 'side')} ** 2\n")
        monkeypatch.chdir(folder)
        stdout, stderr, status = api.run(["--strict", "--no-incremental", "--config-file", "", "use.py"])
        assert status == 0, stdout + stderr  # `.radius` on a Square would be an error
        [revealed] = [line for line in stdout.splitlines() if "Revealed type" in line]
        assert "models.Circle" in revealed and "Square" not in revealed, revealed


USE_FROM_DICT = '''import json
from typing import reveal_type

from out.shapes.models import Circle, DecodeError, Drawing


def first_area(text: str) -> float:
    try:
        drawing = Drawing.from_dict(json.loads(text))
    except DecodeError as error:
        raise SystemExit(str(error)) from None
    reveal_type(drawing)
    shape = drawing.shapes[0]
    if shape.kind == "circle":
        reveal_type(shape)
        return 3.14 * shape.radius**2
    return shape.side**2


def written(drawing: Drawing) -> dict[str, object]:
    return drawing.to_dict()


def circle(data: object) -> Circle:
    return Circle.from_dict(data)


print(first_area('{"shapes": [{"kind": "square", "side": 2}]}'))
first_area('{"shapes": [{"kind": "oval"}]}')
'''


def test_mypy_types_from_dict_and_narrows_the_union_it_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Model.from_dict`` gives that class (``Self``), ``to_dict`` a ``dict[str, Any]``; the tagged
    union it read narrows on its tag; a payload that does not fit is a ``DecodeError``."""
    _as_package(tmp_path, "dataclass")
    (tmp_path / "use.py").write_text(USE_FROM_DICT)
    monkeypatch.chdir(tmp_path)
    stdout, stderr, status = api.run(["--strict", "--no-incremental", "--config-file", "", "use.py"])
    assert status == 0, stdout + stderr
    revealed = [line.split("Revealed type is ", 1)[1] for line in stdout.splitlines() if "Revealed type" in line]
    assert revealed == ['"out.shapes.models.Drawing"', '"out.shapes.models.Circle"'], revealed
    done = subprocess.run([sys.executable, "use.py"], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout == "4.0\n"
    assert done.stderr.endswith("Invalid value 'oval' - at `$.shapes[0].kind`\n") and done.returncode == 1, done.stderr
