"""Modules and names that moved keep a deprecated alias for one release: it warns, and still works."""

import importlib
import pathlib
import re
import sys

import pytest

from interconnect_lab._deprecation import MOVED_MODULES

ROOT = pathlib.Path(__file__).resolve().parent.parent


def fresh_import(name):
    """Import ``name`` as if for the first time (a module warns only when it is first imported)."""
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.parametrize("old", sorted(MOVED_MODULES))
def test_a_moved_module_warns_and_still_holds_its_names(old):
    if old.startswith(("interconnect_lab.plotting", "interconnect_lab.widgets")):
        pytest.importorskip("matplotlib")
        pytest.importorskip("ipywidgets")
    with pytest.warns(DeprecationWarning, match=re.escape(MOVED_MODULES[old])):
        module = fresh_import(old)
    assert module.__all__
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing


def test_nothing_in_the_repository_imports_a_moved_module():
    """The library, the tests, the tools and the book use the new paths."""
    old_paths = sorted(MOVED_MODULES, key=len, reverse=True)
    patterns = [re.compile(r"\b" + re.escape(old) + r"\b") for old in old_paths]
    aliases = {ROOT / (old.replace(".", "/") + ".py") for old in MOVED_MODULES}
    found = []
    for folder in ("interconnect_lab", "tests", "tools", "benchmarks", "book"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".ipynb", ".md") or path in aliases or "_build" in path.parts \
                    or path.name in ("test_deprecations.py", "_deprecation.py"):
                continue
            text = path.read_text(encoding="utf-8")
            for pattern in patterns:
                if pattern.search(text):
                    found.append(f"{path.relative_to(ROOT)}: {pattern.pattern}")
    assert not found, found


def renamed():
    from interconnect_lab._deprecation import RENAMED_NAMES

    return [(module, old, new) for module, names in sorted(RENAMED_NAMES.items()) for old, new in names.items()]


@pytest.mark.parametrize(("module", "old", "new"), renamed())
def test_a_renamed_name_warns_and_is_the_new_one(module, old, new):
    namespace = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{re.escape(module)}\.{old} is deprecated.*{re.escape(module)}\.{new}"):
        value = getattr(namespace, old)
    assert value is getattr(namespace, new)
    assert old not in getattr(namespace, "__all__", ())


def replaced():
    from interconnect_lab._deprecation import REPLACED_NAMES

    return [(module, old, *where) for module, names in sorted(REPLACED_NAMES.items())
            for old, where in names.items()]


@pytest.mark.parametrize(("module", "old", "home", "private", "instead"), replaced())
def test_a_replaced_name_warns_says_what_to_use_and_still_works(module, old, home, private, instead):
    namespace = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"^{re.escape(module)}\.{old} is deprecated and will be removed in "
                                                rf"the next release: use {re.escape(instead)} instead$"):
        value = getattr(namespace, old)
    assert value is getattr(importlib.import_module(home), private)
    assert old not in namespace.__all__
    for name in re.findall(r"interconnect_lab\.[\w.]+", instead):       # what to use instead exists
        parent, _, leaf = name.rpartition(".")
        assert hasattr(importlib.import_module(parent), leaf), name


def test_the_former_calibration_comparison_still_answers_with_a_warning():
    """calibrate compared a log with a catalog link's α-β prediction; it now compares it with the
    collective model for the log's machine (calibrate.compare_with_model)."""
    import warnings

    import numpy as np

    from interconnect_lab import calibrate

    run = calibrate.shipped_run("v100_dgx2_all_reduce")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        references = calibrate.REFERENCES
        label, kwargs = calibrate.reference_parameters(run, references["NVLink 2 (V100)"])
        comparison = calibrate.compare_bus_bandwidth(run, prediction_label=label, **kwargs)
        assert isinstance(comparison, calibrate.BusBandwidthComparison)
    # On the plateau the DGX-2 measures within a few per cent of the catalog's NVLink 2 at 80 % usable.
    size, ratio = comparison.worst_by_regime()["bandwidth-bound"]
    assert label == "catalog: NVLink 2" and abs(ratio - 1) < 0.08
    disagreements = comparison.disagreements(0.10)
    assert disagreements and all(abs(r - 1) > 0.10 for _, r, _ in disagreements)
    assert {g for _, _, g in disagreements} <= {"latency-bound", "protocol-bound"}
    with pytest.deprecated_call(match=r"calibrate_nccl_tests\(reference=...\) is deprecated"):
        old = calibrate.calibrate_nccl_tests("v100_dgx2_all_reduce", reference=("link", "NVLink 2"))
    assert old.reference == ("link", "NVLink 2") and old.system is None
    assert np.allclose(old.comparison.ratio, comparison.ratio)
    with pytest.raises(AttributeError, match="has no attribute 'compare'"):
        calibrate.compare  # noqa: B018


def test_an_unknown_name_is_still_an_attribute_error():
    import interconnect_lab.fabric

    with pytest.raises(AttributeError, match="no attribute 'CollectiveResults'"):
        interconnect_lab.fabric.CollectiveResults  # noqa: B018


def test_nothing_in_the_repository_uses_a_renamed_or_replaced_name():
    found = []
    patterns = []
    for module, old, *_ in renamed() + replaced():
        patterns.append(re.compile(r"\b" + re.escape(module.rsplit(".", 1)[-1]) + r"\." + old + r"\b"))
        patterns.append(re.compile(r"from\s+" + re.escape(module) + r"\s+import\s+(\([^)]*|[^\n]*)\b" + old + r"\b"))
    for folder in ("interconnect_lab", "tests", "tools", "benchmarks", "book"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".ipynb", ".md") or "_build" in path.parts \
                    or path.name in ("test_deprecations.py", "_deprecation.py"):
                continue
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {pattern.pattern}" for pattern in patterns if pattern.search(text)]
    assert not found, found


def test_a_renamed_keyword_warns_and_gives_the_same_answer():
    from interconnect_lab import training

    config = training.parallel_config(64, global_batch_size=64, tensor_parallel=8)
    new = training.training_step("GPT-3 175B", "MegaScale", config, software="Megatron-LM 2023")
    with pytest.warns(DeprecationWarning, match=r"training_step\(cluster_=\.\.\.\) is deprecated.*cluster=\.\.\."):
        old = training.training_step("GPT-3 175B", cluster_="MegaScale", config=config, software="Megatron-LM 2023")
    assert old.step_s == new.step_s
    with pytest.warns(DeprecationWarning, match=r"software_"):
        training.memory_per_gpu("GPT-3 175B", "MegaScale", config, software_="Megatron-LM 2023")
    with pytest.raises(TypeError, match="both 'cluster_' .* and 'cluster'"):
        training.scale_out_variants(cluster="MegaScale", cluster_="MegaScale")


def test_the_training_functions_take_plain_cluster_and_software_parameters():
    import inspect

    from interconnect_lab import training

    for function in (training.training_step, training.memory_per_gpu, training.parallel_traffic,
                     training.tensor_parallel_layer, training.tensor_parallel_scan, training.network_scan,
                     training.parallel_sweep, training.megascale_ablation, training.scale_out_variants):
        parameters = inspect.signature(function).parameters
        assert "cluster" in parameters and "cluster_" not in parameters and "software_" not in parameters, function


def retired():
    from interconnect_lab._deprecation import DEPRECATED_NAMES

    return [(module, old) for module, names in sorted(DEPRECATED_NAMES.items()) for old in names]


@pytest.mark.parametrize(("module", "old"), retired())
def test_a_retired_name_warns_and_still_answers(module, old):
    namespace = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{re.escape(module)}\.{old} is deprecated"):
        value = getattr(namespace, old)
    assert value is not None and old not in getattr(namespace, "__all__", ())


def test_the_old_communication_paths_map_to_the_kernels_that_replace_them():
    from interconnect_lab import moe

    with pytest.warns(DeprecationWarning):
        paths = moe.COMMUNICATION_PATHS
    assert {name: path.kernel for name, path in paths.items()} == {
        "host-initiated (NCCL)": "nccl", "GPU-initiated (IBGDA)": "low_latency"}


def test_the_old_moe_keywords_warn_and_choose_the_kernel_they_meant():
    from interconnect_lab import moe

    new = moe.dispatch_and_combine(128, 7168, 8, 64, experts=256, kernel="low_latency")
    with pytest.warns(DeprecationWarning, match=r"dispatch_and_combine\(path=\.\.\.\) is deprecated.*kernel="):
        old = moe.dispatch_and_combine(128, 7168, 8, 64, experts=256, path="GPU-initiated (IBGDA)")
    assert old[0].time_s == new[0].time_s
    with pytest.warns(DeprecationWarning, match=r"moe_layer_step\(hierarchical=\.\.\.\)"):
        flat = moe.moe_layer_step("DeepSeek-V3", 4096, 64, hierarchical=False)
    assert flat.dispatch.kernel == "nccl"
    with pytest.warns(DeprecationWarning, match="network_bandwidth_bytes_per_s"):
        slow = moe.dispatch_and_combine(4096, 7168, 8, 64, experts=256, network_bandwidth_bytes_per_s=25e9)
    assert slow[0].time_s > moe.dispatch_and_combine(4096, 7168, 8, 64, experts=256)[0].time_s
    with pytest.raises(TypeError, match="both 'kernel' and the deprecated 'path'"):
        moe.dispatch_and_combine(128, 7168, 8, 64, kernel="nccl", path="GPU-initiated (IBGDA)")
    with pytest.raises(TypeError, match="unexpected keyword argument 'network_bandwidth_bytes_per_s'"):
        moe.moe_layer_step("DeepSeek-V3", 4096, 64, network_bandwidth_bytes_per_s=25e9)


def test_nothing_in_the_repository_uses_a_retired_name_or_keyword():
    patterns = [re.compile(r"\bmoe\." + old + r"\b") for _, old in retired()]
    patterns += [re.compile(re.escape(path)) for path in ('"host-initiated (NCCL)"', '"GPU-initiated (IBGDA)"')]
    found = []
    for folder in ("interconnect_lab", "tests", "tools", "benchmarks", "book"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".ipynb", ".md") or "_build" in path.parts \
                    or path.name in ("test_deprecations.py", "_deprecation.py", "_legacy.py"):
                continue
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {pattern.pattern}" for pattern in patterns if pattern.search(text)]
    assert not found, found
