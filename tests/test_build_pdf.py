"""The PDF tool's checks and configuration, without TeX (the PDF itself is built by a separate command)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_pdf  # noqa: E402


def test_a_complete_pdf_passes():
    assert build_pdf.problems("Chapter 1. See Fig. 1.2 and [Smith 2020].", 400) == []


@pytest.mark.parametrize("text", ["as shown in Fig. ??", "see Section ?? for", "as argued in [?]"])
def test_unresolved_references_fail(text):
    found = build_pdf.problems(f"Some text, {text}, more text.", 400)
    assert len(found) == 1 and "unresolved" in found[0] and text.split()[-1].strip(",") in found[0]


def test_a_short_pdf_fails():
    assert "pages" in build_pdf.problems("text", 12)[0]


def test_config_for_the_pdf_changes_only_what_it_must(tmp_path):
    path = build_pdf.pdf_config(ROOT / "_config.yml", tmp_path)
    original, pdf = yaml.safe_load((ROOT / "_config.yml").read_text()), yaml.safe_load(path.read_text())
    assert pdf["latex"]["latex_engine"] == "xelatex"
    assert pdf["execute"]["execute_notebooks"] == "off"
    assert pdf["bibtex_bibfiles"] == original["bibtex_bibfiles"]
    assert pdf["parse"] == original["parse"]
    for folder in pdf["sphinx"].get("local_extensions", {}).values():
        assert Path(folder).is_absolute() and Path(folder).is_dir()
    shim = Path(pdf["sphinx"]["config"]["latex_additional_files"][0])
    assert shim.name == "bbm.sty" and "\\mathbbm" in shim.read_text()


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_check_only_reports_a_missing_pdf(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "build_pdf.py"), "--check-only",
                             str(tmp_path / "none.pdf")], capture_output=True, text=True)
    assert result.returncode == 1 and "no PDF" in result.stdout
