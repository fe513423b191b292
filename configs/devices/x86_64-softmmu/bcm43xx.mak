# SPDX-License-Identifier: GPL-2.0-or-later
#
# The devices bcm4331-qemu's builds carry (scripts/build-qemu.sh configures
# QEMU with --without-default-devices --with-devices-x86_64=bcm43xx): what
# the guests, the qtests and the benchmarks use, and nothing else.

# machines: q35 (the guests' default, tests/guest/harness.py), pc
# (harness.py --machine pc)
CONFIG_Q35=y
CONFIG_I440FX=y

# the cards and the air (-object wifi-medium, -device wifi-ap, wifi-traffic)
CONFIG_BCM4331_PCI=y
CONFIG_WIFI_MEDIUM=y

# the wired NICs the benchmarks measure the cards against (e1000; e1000e is
# q35's default NIC model, for a run without -nodefaults)
CONFIG_E1000_PCI=y
CONFIG_E1000E_PCI_EXPRESS=y

# pcie-root-port (the card behind a root port); intel-iommu (the bug lab's
# DMA remapping, tests/guest/buglab.py)
CONFIG_PCIE_PORT=y
CONFIG_VTD=y

# QEMU 10.2's ACPI_X86 selects ACPI_CXL: hw/acpi/cxl.c calls into hw/cxl/
# (cxl_fmws_get_all_sorted(), ct3_test_region_block_backed()), which only
# CXL with PXB and CXL_MEM_DEVICE build; without them 10.2 does not link.
# 10.0 accepts the same lines.
CONFIG_PXB=y
CONFIG_CXL=y
CONFIG_CXL_MEM_DEVICE=y
