"""The book's offline JavaScript: pinned, intact, and what _config.yml points at.

The browser tests prove the built book makes no request beyond 127.0.0.1; these
checks fail earlier and say why (a hand-edited vendored file, a setting that
names a file offline/ lacks, a root _static/ folder).
"""

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import vendor_js  # noqa: E402


def sphinx_config():
    return yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]


def test_vendored_files_match_their_pins_and_manifest():
    assert vendor_js.check(vendor_js.OFFLINE) == []


def test_config_serves_offline_and_points_at_files_it_holds():
    config = sphinx_config()
    assert config["html_static_path"] == ["offline"]
    scripts = [config["mathjax_path"], *config["nb_ipywidgets_js"]]
    assert not [s for s in scripts if "://" in s], "a script still comes from the network"
    assert [s for s in scripts if not (vendor_js.OFFLINE / s).is_file()] == []


def test_widget_scripts_load_in_order():
    # require.js defines require(); setup.js configures it; the manager uses both.
    assert list(sphinx_config()["nb_ipywidgets_js"]) == [
        "requirejs/require.js", "jupyter-widgets/setup.js", "jupyter-widgets/embed-amd.js"]


def test_no_root_static_folder():
    # With a root _static/, Jupyter Book 1 adds every .js under html_static_path
    # (all of MathJax's components) to every page.
    assert not (ROOT / "_static").exists()
