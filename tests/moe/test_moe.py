"""Mixture of experts: architectures, all-to-all bytes, skewed routing, timing, bad input."""

import subprocess
import sys
import textwrap

import pytest

from interconnect_lab import catalog, collectives
from interconnect_lab.catalog.variants import variant_gpu, variant_link
from interconnect_lab.published.moe import DEEPEP_NORMAL_SETUP


def test_model_import_needs_no_plotting():
    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('matplotlib', 'ipywidgets', 'IPython'):
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import interconnect_lab.moe, interconnect_lab.inference
        print('ok')
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_h800_links_match_deepep_stated_maxima():
    # DeepEP legacy README: "H800 (~160 GB/s NVLink maximum bandwidth)", "CX7 ... (~50 GB/s maximum bandwidth)".
    nvlink = collectives.link_parameters(variant_link("NVLink 4 (H800)"))
    assert nvlink["efficiency"] * nvlink["bandwidth_bytes_per_s"] == pytest.approx(
        DEEPEP_NORMAL_SETUP.scale_up_bytes_per_s, rel=0.01)
    assert catalog.link("InfiniBand NDR").per_direction_bytes_per_s == DEEPEP_NORMAL_SETUP.network_bytes_per_s
    assert variant_gpu("H800 SXM").bf16_flop_per_s == catalog.gpu("H100 SXM").bf16_flop_per_s
