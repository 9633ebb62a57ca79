"""``import interconnect_lab`` stays cheap: heavy dependencies load where they are used."""

import subprocess
import sys

import interconnect_lab


def _modules_after(code):
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout.split()
    return set(out)


def test_importing_the_package_loads_no_heavy_dependency():
    loaded = _modules_after("import interconnect_lab")
    for heavy in ("scipy", "matplotlib", "ipywidgets", "numpy", "interconnect_lab.training"):
        assert heavy not in loaded, heavy


def test_the_fabric_model_does_not_import_scipy_until_it_is_used():
    loaded = _modules_after("import interconnect_lab.fabric")
    assert not any(name.split(".")[0] == "scipy" for name in loaded)


def test_every_exported_name_resolves():
    missing = [name for name in interconnect_lab.__all__ if not hasattr(interconnect_lab, name)]
    assert not missing
    assert set(interconnect_lab.__all__) <= set(dir(interconnect_lab))
