# SPDX-License-Identifier: GPL-2.0-or-later
"""The phases of the driver's work: what it does, which kernel function
does it, and which phase each access of a read trace belongs to."""

import collections

PHASES = collections.OrderedDict([
    ("pci", ("PCI probe",
             "the PCI core reads the configuration header, bcma's PCI driver "
             "enables the function and points BAR0's window at a core",
             [("pci_setup_device", "drivers/pci/probe.c"),
              ("bcma_host_pci_probe", "drivers/bcma/host_pci.c")])),
    ("enum", ("bcma enumeration",
              "ChipCommon's ID register, then the EROM: the table of the "
              "backplane's cores, their ports and address regions",
              [("bcma_detect_chip", "drivers/bcma/scan.c"),
               ("bcma_bus_scan", "drivers/bcma/scan.c"),
               ("bcma_get_next_core", "drivers/bcma/scan.c")])),
    ("sprom", ("SPROM",
               "the card's configuration EEPROM through ChipCommon: MAC "
               "address, board flags, power tables",
               [("bcma_sprom_get", "drivers/bcma/sprom.c")])),
    ("cc", ("ChipCommon and PMU",
            "clocks, PLL and chip control through the power management unit",
            [("bcma_core_chipcommon_init", "drivers/bcma/driver_chipcommon.c"),
             ("bcma_pmu_init", "drivers/bcma/driver_chipcommon_pmu.c")])),
    ("pcie", ("PCIe core",
              "the host bridge core: SerDes workarounds over MDIO, the "
              "interrupt routing of config register 0x94",
              [("bcma_core_pci_init", "drivers/bcma/driver_pci.c"),
               ("bcma_host_pci_irq_ctl", "drivers/bcma/host_pci.c")])),
    ("reset", ("core reset",
               "the core's agent (wrapper): clock on, reset released, PHY "
               "clock and reset bits of IOCTL",
               [("bcma_core_enable", "drivers/bcma/core.c"),
                ("b43_bcma_wireless_core_reset",
                 "drivers/net/wireless/broadcom/b43/main.c")])),
    ("fwup", ("firmware upload",
              "the PSM is held at instruction 0 and the microcode is "
              "written word by word into its memory",
              [("b43_upload_microcode",
                "drivers/net/wireless/broadcom/b43/main.c")])),
    ("psm", ("PSM start",
             "the PSM runs; the firmware signals MAC_SUSPENDED and b43 "
             "reads its revision from shared memory",
             [("b43_upload_microcode",
               "drivers/net/wireless/broadcom/b43/main.c")])),
    ("mac", ("MAC core init",
             "initial values, GPIOs, rate tables, MAC address filter, "
             "suspend/enable around changes",
             [("b43_chip_init", "drivers/net/wireless/broadcom/b43/main.c"),
              ("b43_wireless_core_init",
               "drivers/net/wireless/broadcom/b43/main.c")])),
    ("phy", ("PHY and radio init",
             "the HT-PHY's registers and tables and the BCM2059 radio "
             "through the PHY and radio windows",
             [("b43_phy_init",
               "drivers/net/wireless/broadcom/b43/phy_common.c"),
              ("b43_phy_ht_op_init",
               "drivers/net/wireless/broadcom/b43/phy_ht.c")])),
    ("chan", ("channel switch",
              "radio PLL and PHY band registers for a new channel",
              [("b43_switch_channel",
                "drivers/net/wireless/broadcom/b43/phy_common.c"),
               ("b43_phy_ht_op_switch_channel",
                "drivers/net/wireless/broadcom/b43/phy_ht.c")])),
    ("dma", ("DMA rings",
             "descriptor rings: ring address, control, index of the last "
             "descriptor the card may use",
             [("b43_dma_init", "drivers/net/wireless/broadcom/b43/dma.c"),
              ("b43_setup_dmaring",
               "drivers/net/wireless/broadcom/b43/dma.c")])),
    ("scan", ("scan",
              "mac80211's software scan: a channel switch and probe "
              "requests per channel, beacons and probe responses received",
              [("ieee80211_scan_work", "net/mac80211/scan.c"),
               ("b43_op_config", "drivers/net/wireless/broadcom/b43/main.c")])),
    ("assoc", ("authentication and association",
               "management frames with the AP, the BSSID in the MAC, "
               "then the 4-way handshake's EAPOL frames",
               [("ieee80211_mgd_auth", "net/mac80211/mlme.c"),
                ("ieee80211_mgd_assoc", "net/mac80211/mlme.c"),
                ("b43_op_bss_info_changed",
                 "drivers/net/wireless/broadcom/b43/main.c")])),
    ("key", ("key install",
             "the key table in shared memory: key bytes, and per slot its "
             "algorithm",
             [("b43_op_set_key", "drivers/net/wireless/broadcom/b43/main.c"),
              ("do_key_write", "drivers/net/wireless/broadcom/b43/main.c")])),
    ("data", ("data frames",
              "TX: descriptors, TXINDEX, TX status; RX: the engine fills "
              "buffers, b43 reads RXSTATUS and returns them with RXINDEX",
              [("b43_dma_tx", "drivers/net/wireless/broadcom/b43/dma.c"),
               ("b43_dma_rx", "drivers/net/wireless/broadcom/b43/dma.c"),
               ("b43_handle_txstatus",
                "drivers/net/wireless/broadcom/b43/xmit.c")])),
    ("irq", ("interrupts",
             "the line rises; b43 reads and acknowledges GEN_IRQ_REASON and "
             "the DMA engines' reasons",
             [("b43_interrupt_handler",
               "drivers/net/wireless/broadcom/b43/main.c"),
              ("b43_do_interrupt_thread",
               "drivers/net/wireless/broadcom/b43/main.c")])),
    ("air", ("on the air",
             "frames on the simulated medium and what the access point did",
             [])),
])

# a step's marker name -> phases that take another name in it.  Once the
# PHY is initialised, PHY and radio accesses are channel switches; a scan
# is channel switches, probe requests and what comes back; wpa_supplicant
# scans before it authenticates ("connect" until the first auth frame).
SCAN = {p: "scan" for p in ("chan", "data", "air", "phy", "mac", "irq", "cc",
                            "reset")}
STAGE_PHASE = {
    "scan": SCAN,
    "connect": SCAN,
    "connect/auth": {"data": "assoc", "air": "assoc", "phy": "chan"},
    "dhcp": {"phy": "chan"},
    "ping": {"phy": "chan"},
}

# the access point's association events (phase "assoc"): a block cut at
# --lines still shows them.  The AP hears a frame on QEMU's main loop (a
# virtual-clock timer) while the vCPU thread runs the driver's interrupt
# handler for the same frame's TX status; which of the two the trace shows
# first is up to the host's scheduler (on a loaded host the handler's
# 20-odd accesses come first)
LANDMARKS = {"wifi_ap_auth", "wifi_ap_assoc", "wifi_ap_wpa", "wifi_ap_deauth",
             "wifi_ap_disassoc"}
# model events shown as they are, and the phase they belong to
EVENT_PHASE = {
    "bcm4331_bcma_window": "pci", "bcm4331_bcma_core_reset": "reset",
    "bcm4331_bcma_core_ioctl": None, "bcm4331_bcma_pll_update": "cc",
    "bcm4331_bcma_mdio": "pcie", "bcm4331_bcma_sprom": "sprom",
    "bcm4331_d11_core_reset": "reset",
    "bcm4331_fw_ucode_upload_start": "fwup", "bcm4331_fw_boot": "psm",
    "bcm4331_fw_no_ucode": "psm", "bcm4331_fw_stop": "mac",
    "bcm4331_fw_suspend": "mac", "bcm4331_fw_enable": "mac",
    "bcm4331_fw_beacon": "data", "bcm4331_phy_tune": "chan",
    "bcm4331_phy_radio_power": "phy", "bcm4331_d11_rcm": "mac",
    "bcm4331_d11_gpio": "mac", "bcm4331_d11_tsf_write": "mac",
    "bcm4331_d11_dma_ctl": "dma", "bcm4331_d11_rfkill": "mac",
    "bcm4331_dma_desc": "data", "bcm4331_tx": "data",
    "bcm4331_txstat": "data", "bcm4331_tx_index": "data",
    "bcm4331_tx_wait": "data", "bcm4331_rx": "data",
    "bcm4331_rx_drop": "data", "bcm4331_key_tx": "data",
    "bcm4331_key_rx": "data", "bcm4331_dma_error": "data",
    "bcm4331_dma_unplugged": "data",
}


def classify(stages):
    """give each access of @stages its phase"""
    mode = None                     # fwup / psm, from the model's events
    for st in stages:
        remap = STAGE_PHASE.get(st.name, {})
        for k, a in enumerate(st.accesses):
            p = _phase(a, mode)
            if st.name == "connect" and a.name == "wifi_ap_rx" and \
                    "subtype 11 " in a.text and \
                    remap is not STAGE_PHASE["connect/auth"]:
                remap = STAGE_PHASE["connect/auth"]
                _auth_sent(st.accesses[:k])
            mode = _mode(a, p, mode)
            if p == "fwup" and mode == "psm":
                p = "psm"
            a.phase = remap.get(p, p)
        _inherit(st)
        _smooth(st)
        _beside(st)


def _auth_sent(accs):
    """the AP heard an authentication frame after @accs: the card sent it
    since b43's last TXINDEX write; that, the frame's way out and its TX
    status belong to the association"""
    for j in range(len(accs) - 1, -1, -1):
        b = accs[j]
        if b.name == "bcm4331_phy_tune":
            break
        if b.kind == "d11" and b.name == "DMA_TXINDEX":
            for c in accs[j:]:
                c.phase = "assoc"
            break


def _mode(a, p, mode):
    """the firmware's @mode after @a of phase @p: "fwup" from the microcode
    upload's start, "psm" from the PSM's start to the driver's next work"""
    if a.kind == "event" and a.name == "bcm4331_fw_ucode_upload_start":
        return "fwup"
    if a.kind == "event" and a.name in ("bcm4331_fw_boot",
                                        "bcm4331_fw_no_ucode"):
        return "psm"
    if mode == "psm" and p not in ("psm", "irq", None) and not a.hidden:
        return None
    return mode


def _inherit(st):
    """an access without a phase of its own (window moves, generic events)
    joins the phase of the next one that has one"""
    nxt = "mac"
    for a in reversed(st.accesses):
        if a.phase is None:
            a.phase = nxt
        else:
            nxt = a.phase


def _beside(st):
    """the interrupt line and the air go on beside the driver's work: their
    lines stay where they happen, in the phase block around them, unless
    the step gives them a phase"""
    cur = None
    for a in st.accesses:
        if a.kind == "event" and a.phase in ("air", "irq") and \
                a.block in ("air", "irq") and cur is not None:
            a.phase = cur
        elif not a.hidden:
            cur = a.phase


# phases a driver step touches in passing: a short run of one of them
# between two runs of the same other phase belongs to that phase (the
# PHY code suspends the MAC, the firmware upload waits for an interrupt)
MINOR = {"mac", "cc", "reset", "irq", "air", "pci"}
SHORT = 12


def _smooth(st):
    vis = [a for a in st.accesses if not a.hidden]
    runs = []
    for a in vis:
        if runs and runs[-1][0] == a.phase:
            runs[-1][1].append(a)
        else:
            runs.append((a.phase, [a]))
    # a stretch of minor runs, short in all, between two runs of one
    # major phase
    k = 0
    while k < len(runs):
        if runs[k][0] in MINOR or k == 0:
            k += 1
            continue
        j = k + 1
        n = 0
        while j < len(runs) and runs[j][0] in MINOR:
            n += len(runs[j][1])
            j += 1
        if j < len(runs) and j > k + 1 and runs[j][0] == runs[k][0] \
                and n <= SHORT:
            for ph, accs in runs[k + 1:j]:
                for a in accs:
                    a.phase = runs[k][0]
        k = j if j > k + 1 else k + 1


def _phase(a, mode):
    """the phase of @a by itself (None: the next access's), the firmware's
    mode @mode"""
    if a.kind in ("phy", "radio"):
        return "phy"
    of_kind = PHASE_OF.get(a.kind)
    return of_kind(a, a.name or "", mode) if of_kind else None


def _cfg_phase(a, n, mode):
    if a.addr in (0x80, 0xac) or n.startswith("BAR0_WIN"):
        return None
    if a.addr == 0x94 or n == "IRQMASK":
        return "pcie"
    return "pci"


def _bcma_phase(a, n, mode):
    if a.block == "EROM" or n in ("CC_ID", "CC_CAP", "CC_EROM",
                                  "CC_CAP_EXT"):
        return "enum"
    if n in ("CC_SPROM", "CC_SROM_CONTROL", "CC_CHIPSTAT",
             "PCIE_SPROM_SHADOW"):
        return "sprom"
    if n.startswith("AI_"):
        return "reset"
    if a.block == "PCIe":
        return "pcie"
    return "cc"


def _d11_phase(a, n, mode):
    if n in ("GEN_IRQ_REASON", "DMA_REASON") or \
            (n == "GEN_IRQ_MASK" and mode is None):
        return "irq"
    if n.startswith("DMA_"):
        if n.endswith(("RINGLO", "RINGHI", "CTL", "IRQ_MASK")):
            return "dma"
        return "data"
    if n.startswith("XMITSTAT"):
        return "data"
    if mode in ("fwup", "psm") and n in ("MACCTL", "GEN_IRQ_MASK"):
        return mode
    return "mac"


def _shm_phase(a, n, mode):
    if a.block == "SHM ucode":
        return "fwup"
    if n.startswith("key ") or n.startswith("KEYIDXBLOCK"):
        return "key"
    if mode == "psm" and a.rw == "R":
        return "psm"
    return "mac"


def _event_phase(a, n, mode):
    if a.block == "irq":
        return "irq"
    if a.block == "air":
        if a.name in LANDMARKS:
            return "assoc"
        return "air"
    return EVENT_PHASE.get(a.name)


PHASE_OF = {"cfg": _cfg_phase, "bcma": _bcma_phase, "d11": _d11_phase,
            "shm": _shm_phase, "event": _event_phase}
