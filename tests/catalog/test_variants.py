"""``interconnect_lab.catalog.variants``: export variants built from catalog parts, each with its source."""

import pytest

from interconnect_lab import catalog
from interconnect_lab import units as u
from interconnect_lab.catalog.variants import H800_SOURCES, VARIANT_GPUS, VARIANT_LINKS, variant_gpu, variant_link


def test_the_h800_nvlink_is_eight_links_of_the_h100s():
    h800, h100 = variant_link("NVLink 4 (H800)"), catalog.link("NVLink 4")
    # by hand: 8 links x 25 GB/s per direction = 200 GB/s, DeepSeek's "400 GB/s" both ways
    assert h800.links_per_gpu == 8
    assert h800.per_gpu_per_direction_bytes_per_s == pytest.approx(8 * h100.per_direction_bytes_per_s)
    assert u.both_directions(h800.per_gpu_per_direction_bytes_per_s) == pytest.approx(400 * u.GB_per_s)
    assert h800.per_direction_bytes_per_s == h100.per_direction_bytes_per_s   # each link unchanged


def test_the_h800_is_an_h100_with_the_h800_nvlink():
    h800, h100 = variant_gpu("H800 SXM"), catalog.gpu("H100 SXM")
    assert h800.scale_up_link == "NVLink 4 (H800)"
    assert h800.bf16_flop_per_s == h100.bf16_flop_per_s and h800.hbm_bytes == h100.hbm_bytes
    assert set(H800_SOURCES) <= set(h800.sources)


def test_every_variant_carries_a_source_and_a_name_the_catalog_lacks():
    for table, catalog_table in ((VARIANT_LINKS, catalog.LINKS), (VARIANT_GPUS, catalog.GPUS)):
        for name, entry in table.items():
            assert entry.name == name and name not in catalog_table
            assert entry.sources


@pytest.mark.parametrize(("lookup", "name", "message"), [
    (variant_link, "NVLink 9 (H800)", r"unknown link variant 'NVLink 9 \(H800\)'; valid link variants are: 'NVLink 4"),
    (variant_gpu, "H20", r"unknown GPU variant 'H20'; valid GPU variants are: 'H800 SXM'"),
])
def test_an_unknown_variant_lists_the_valid_ones(lookup, name, message):
    with pytest.raises(ValueError, match=message):
        lookup(name)
