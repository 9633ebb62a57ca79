"""The model layer imports without plotting or widget libraries (DESIGN: imports point one way)."""

import subprocess
import sys
import textwrap

MODEL_MODULES = ["units", "sources", "catalog", "published", "utilization", "collectives",
                 "collectives.reference", "topology", "pricebook", "cost", "training", "fabric", "reliability", "standards",
                 "rdma", "memory", "energy", "silicon", "matmul", "roadmap", "moe", "inference", "calibrate",
                 "exercises"]


def test_model_imports_without_matplotlib_or_ipywidgets():
    script = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('matplotlib', 'ipywidgets', 'IPython'):
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import interconnect_lab
        for module in {MODEL_MODULES!r}:
            __import__('interconnect_lab.' + module)
        print('ok')
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_public_api_is_curated():
    import interconnect_lab

    for name in interconnect_lab.__all__:
        assert hasattr(interconnect_lab, name), name
