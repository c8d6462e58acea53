"""sdk-python: the package's own PEP 517 build backend, standard library only.

It builds the wheel and the sdist straight into the folder pip (or ``python -m build``) names, and never writes into
the source tree (no ``build/``, no ``*.egg-info``); and as it needs nothing to be downloaded, ``pip install`` works
offline. The metadata comes from ``pyproject.toml``'s ``[project]`` table.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "rivals"
# Reproducible archives: every entry gets this time (zip's epoch).
EPOCH = (1980, 1, 1, 0, 0, 0)


def _project() -> Dict[str, Any]:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        raw = fh.read()
    try:
        import tomllib  # Python 3.11+

        return dict(tomllib.loads(raw.decode("utf-8"))["project"])
    except ImportError:  # 3.9, 3.10: the few plain fields this backend reads
        section = raw.decode("utf-8").split("[project]", 1)[1].split("\n[", 1)[0]
        fields = dict(re.findall(r'^([a-z-]+)\s*=\s*"([^"]*)"', section, re.M))
        return {"name": fields["name"], "version": fields["version"], "description": fields.get("description", ""),
                "requires-python": fields.get("requires-python"), "readme": fields.get("readme")}


def _dist_name() -> Tuple[str, str]:
    project = _project()
    return re.sub(r"[-_.]+", "_", project["name"]).lower(), project["version"]


def _metadata() -> str:
    project = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    for keyword in project.get("keywords", []) or []:
        lines.append(f"Keywords: {keyword}")
    for classifier in project.get("classifiers", []) or []:
        lines.append(f"Classifier: {classifier}")
    body = ""
    readme = project.get("readme")
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as fh:
            body = "\n" + fh.read()
    return "\n".join(lines) + "\n" + body


def _sources() -> List[Tuple[str, str]]:
    """(path on disk, path in the wheel) of every file of the package, compiled caches left out."""
    files = []
    base = os.path.join(ROOT, "src")
    for folder, dirs, names in os.walk(os.path.join(base, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if not name.endswith((".pyc", ".pyo")):
                path = os.path.join(folder, name)
                files.append((path, os.path.relpath(path, base).replace(os.sep, "/")))
    return files


def _dist_info(name: str, version: str) -> Dict[str, bytes]:
    return {
        f"{name}-{version}.dist-info/METADATA": _metadata().encode("utf-8"),
        f"{name}-{version}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: rivals_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{name}-{version}.dist-info/top_level.txt": f"{PACKAGE}\n".encode(),
    }


def _write_wheel(directory: str, entries: Dict[str, bytes]) -> str:
    name, version = _dist_name()
    filename = f"{name}-{version}-py3-none-any.whl"
    record_name = f"{name}-{version}.dist-info/RECORD"
    records = []
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for arcname, data in entries.items():
            info = zipfile.ZipInfo(arcname, EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{arcname},sha256={digest},{len(data)}")
        records.append(f"{record_name},,")
        info = zipfile.ZipInfo(record_name, EPOCH)
        info.external_attr = 0o644 << 16
        wheel.writestr(info, "\n".join(records) + "\n")
    return filename


# ---- PEP 517 / PEP 660 hooks --------------------------------------------------------------------------------------
def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    name, version = _dist_name()
    for arcname, data in _dist_info(name, version).items():
        path = os.path.join(metadata_directory, arcname)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    return f"{name}-{version}.dist-info"


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    entries: Dict[str, bytes] = {}
    for path, arcname in _sources():
        with open(path, "rb") as fh:
            entries[arcname] = fh.read()
    entries.update(_dist_info(*_dist_name()))
    return _write_wheel(wheel_directory, entries)


def build_editable(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    """``pip install -e``: a wheel whose .pth file puts the checkout's ``src`` on the path."""
    name, _ = _dist_name()
    entries = {f"__editable__.{name}.pth": (os.path.join(ROOT, "src") + "\n").encode("utf-8")}
    entries.update(_dist_info(*_dist_name()))
    return _write_wheel(wheel_directory, entries)


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    name, version = _dist_name()
    base = f"{name}-{version}"
    files = [os.path.join(ROOT, "pyproject.toml"), os.path.join(ROOT, "README.md"), os.path.join(ROOT, "build_backend", "rivals_build.py")]
    files += [path for path, _ in _sources()]
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        def add(arcname: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{base}/{arcname}")
            info.size, info.mode, info.mtime = len(data), 0o644, 315532800
            tar.addfile(info, io.BytesIO(data))

        for path in files:
            with open(path, "rb") as fh:
                add(os.path.relpath(path, ROOT).replace(os.sep, "/"), fh.read())
        add("PKG-INFO", _metadata().encode("utf-8"))
    return filename
