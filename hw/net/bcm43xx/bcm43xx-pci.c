/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Broadcom 802.11 PCIe cards: PCI function and QOM glue, shared by the
 * BCM4331 (b43) and the BCM43224 (brcmsmac).
 *
 * The PCI identity and config-space layout follow real cards (lspci of
 * MacBook Pro AirPort Extreme BCM4331 cards, of Mac mini / MacBook Air
 * BCM43224 cards) and what Linux's bcma host driver expects
 * (drivers/bcma/host_pci.c).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "qapi/visitor.h"
#include "bcm43xx.h"
#include "trace.h"

static const char *bcm43xx_cfg_name(uint32_t addr)
{
    switch (addr & ~3) {
    case BCMA_PCI_BAR0_WIN:
        return "BAR0_WIN";
    case BCMA_PCI_BAR1_WIN:
        return "BAR1_WIN";
    case BCMA_PCI_SPROMCTL:
        return "SPROMCTL";
    case BCMA_PCI_BAR1_CONTROL:
        return "BAR1_CONTROL";
    case BCMA_PCI_IRQS:
        return "IRQS";
    case BCMA_PCI_IRQMASK:
        return "IRQMASK";
    case BCMA_PCI_BACKPLANE_IRQS:
        return "BACKPLANE_IRQS";
    case BCMA_PCI_BAR0_WIN2:
        return "BAR0_WIN2";
    case BCMA_PCI_GPIO_IN:
        return "GPIO_IN";
    case BCMA_PCI_GPIO_OUT:
        return "GPIO_OUT";
    case BCMA_PCI_GPIO_OUT_ENABLE:
        return "GPIO_OUT_ENABLE";
    default:
        return NULL;
    }
}

/*
 * The card's interrupt: the backplane interrupt of any core whose line is
 * up and which config 0x94 (BCMA_PCI_IRQMASK, bit 8 + core index) routes
 * to the host.  INTA# follows it; with MSI enabled (no Linux driver of
 * these cards does it, a guest may) the PCIe core sends one message as it
 * rises and INTA# stays deasserted, as the PCI spec requires.
 */
static void bcm43xx_update_intx(Bcm43xxState *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    uint32_t mask = pci_get_long(pd->config + BCMA_PCI_IRQMASK);
    bool level = (s->core_irq_level & (mask >> 8)) != 0;

    if (!DEVICE(s)->realized) {
        return;                 /* unplugged: no config space, no pin */
    }
    trace_bcm4331_bcma_irq(level, mask);
    if (msi_enabled(pd)) {
        pci_set_irq(pd, 0);
        if (level && !s->irq_level && !s->irq_quiet) {
            trace_bcm4331_msi(mask);
            msi_notify(pd, 0);
        }
    } else {
        pci_set_irq(pd, level);
    }
    s->irq_level = level;
}

/* the interrupt line of core @n (a GPIO input of the card) */
static void bcm43xx_core_irq(void *opaque, int n, int level)
{
    Bcm43xxState *s = opaque;

    if (level) {
        s->core_irq_level |= BIT(n);
    } else {
        s->core_irq_level &= ~BIT(n);
    }
    bcm43xx_update_intx(s);
}

/*
 * BAR0 (drivers/bcma/host_pci.c):
 *   0x0000 sliding window 0: backplane page in config 0x80
 *   0x1000 sliding window 1: backplane page in config 0xAC (core wrappers)
 *   0x2000 fixed: PCIe core registers
 *   0x3000 fixed: ChipCommon registers
 * Each is an alias into the backplane's MemoryRegion (bcma.c); the windows
 * follow their config registers (bits 11:0 ignored, as on hardware).
 */
static void bcm43xx_update_windows(Bcm43xxState *s)
{
    PCIDevice *pd = PCI_DEVICE(s);

    memory_region_set_alias_offset(&s->win[0],
        pci_get_long(pd->config + BCMA_PCI_BAR0_WIN) & ~0xfffu);
    memory_region_set_alias_offset(&s->win[1],
        pci_get_long(pd->config + BCMA_PCI_BAR0_WIN2) & ~0xfffu);
}

static bool ranges_overlap32(uint32_t addr, int len, uint32_t reg)
{
    return addr < reg + 4 && reg < addr + len;
}

static void bcm43xx_pci_write_config(PCIDevice *pd, uint32_t addr,
                                     uint32_t val, int len)
{
    Bcm43xxState *s = BCM43XX_PCI(pd);
    const char *name = bcm43xx_cfg_name(addr);

    bool msi_was = msi_enabled(pd);

    pci_default_write_config(pd, addr, val, len);
    msi_write_config(pd, addr, val, len);
    if (msi_enabled(pd) != msi_was) {
        /* INTA# or MSI from now on; a level already up sends a message */
        s->irq_level = false;
        bcm43xx_update_intx(s);
    }
    if (!name) {
        return;
    }
    trace_bcm4331_pci_cfg_write(name, addr, val, len);
    if (ranges_overlap32(addr, len, BCMA_PCI_BAR0_WIN)) {
        uint32_t w = pci_get_long(pd->config + BCMA_PCI_BAR0_WIN);

        trace_bcm4331_bcma_window("BAR0_WIN", w,
                                  bcma_target_name(&s->bcma, w));
        bcm43xx_update_windows(s);
    }
    if (ranges_overlap32(addr, len, BCMA_PCI_BAR0_WIN2)) {
        uint32_t w = pci_get_long(pd->config + BCMA_PCI_BAR0_WIN2);

        trace_bcm4331_bcma_window("BAR0_WIN2", w,
                                  bcma_target_name(&s->bcma, w));
        bcm43xx_update_windows(s);
    }
    if (ranges_overlap32(addr, len, BCMA_PCI_IRQMASK)) {
        bcm43xx_update_intx(s);
    }
}

static void bcm43xx_bar0_init(Bcm43xxState *s)
{
    static const char *const name[4] = {
        "bcm4331-bar0-win0", "bcm4331-bar0-win1", "bcm4331-bar0-pcie",
        "bcm4331-bar0-cc",
    };
    uint32_t at[4] = {
        BCMA_ADDR_BASE, BCMA_WRAP_BASE,
        bcma_core_base(&s->bcma, BCMA_CORE_PCIE),
        bcma_core_base(&s->bcma, BCMA_CORE_CHIPCOMMON),
    };

    memory_region_init(&s->bar0, OBJECT(s), "bcm4331-bar0",
                       BCM4331_BAR0_SIZE);
    for (int i = 0; i < 4; i++) {
        memory_region_init_alias(&s->win[i], OBJECT(s), name[i], &s->bcma.bp,
                                 at[i], BCMA_CORE_SIZE);
        memory_region_add_subregion(&s->bar0, i * BCMA_CORE_SIZE, &s->win[i]);
    }
}

/* the 802.11 core: the hub wires its blocks */
static void bcm43xx_pci_init(Object *obj)
{
    Bcm43xxState *s = BCM43XX_PCI(obj);

    d11_core_init(&s->d11, PCI_DEVICE(obj),
                  BCM43XX_PCI_GET_CLASS(obj)->info->phy);
}

static void bcm43xx_pci_finalize(Object *obj)
{
    bcm_hostile_free(&BCM43XX_PCI(obj)->d11.hostile);
}

static void bcm43xx_pci_realize(PCIDevice *pd, Error **errp)
{
    Bcm43xxState *s = BCM43XX_PCI(pd);
    const Bcm43xxInfo *info = BCM43XX_PCI_GET_CLASS(pd)->info;
    uint8_t *c = pd->config;
    g_autofree char *macstr = NULL;
    static const MACAddr zero_mac;
    bool mac_given = memcmp(&s->macaddr, &zero_mac, sizeof(zero_mac)) != 0;
    int d11_index;
    int ret;

    qemu_macaddr_default_if_unset(&s->macaddr);
    s->bcma.dma64 = s->d11.dma.dma64;
    if (!bcma_realize(&s->bcma, OBJECT(s), info->chip, info->sprom_build,
                      s->sprom_file, s->macaddr.a, mac_given, errp)) {
        return;
    }
    d11_index = bcma_core_index(&s->bcma, BCMA_CORE_80211);
    d11_core_init_mmio(&s->d11, OBJECT(s),
                       info->chip->cores[d11_index].rev,
                       info->dma_ring_aligned);
    bcma_attach_core(&s->bcma, BCMA_CORE_80211, &s->d11.iomem,
                     d11_core_bcma_reset, &s->d11);

    pci_set_word(c + PCI_SUBSYSTEM_VENDOR_ID, s->subsys_vid);
    pci_set_word(c + PCI_SUBSYSTEM_ID, s->subsys_id);
    pci_set_byte(c + PCI_INTERRUPT_PIN, 1);  /* INTA#: bcma uses INTx only */

    /* each core's interrupt line; the 802.11 core's is the MAC's */
    qdev_init_gpio_in_named(DEVICE(s), bcm43xx_core_irq, "core-irq",
                            BCMA_MAX_CORES);

    bcm43xx_bar0_init(s);
    pci_register_bar(pd, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->bar0);

    /*
     * pci_add_capability() links each new capability at the head of the
     * list, so add them back to front to get PM -> MSI -> PCIe.
     */
    ret = pcie_endpoint_cap_v1_init(pd, BCM4331_CAP_PCIE);
    if (ret < 0) {
        error_setg(errp, "bcm4331: cannot add the PCIe capability");
        return;
    }
    /* Present like on real cards but never enabled by bcma/b43. */
    ret = msi_init(pd, info->cap_msi, 1, true, false, NULL);
    if (ret < 0 && ret != -ENOTSUP) {
        error_setg(errp, "bcm4331: cannot add the MSI capability");
        return;
    }
    ret = pci_pm_init(pd, BCM4331_CAP_PM, errp);
    if (ret < 0) {
        return;
    }
    /* PM 1.2 (version 3), D0/D3hot; PMCSR power state writable */
    pci_set_word(c + BCM4331_CAP_PM + PCI_PM_PMC, 0x0003);
    pci_set_word(pd->wmask + BCM4331_CAP_PM + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK);

    d11_core_realize(&s->d11, DEVICE(s),
                     qdev_get_gpio_in_named(DEVICE(s), "core-irq", d11_index));
    macstr = qemu_mac_strdup_printf(s->macaddr.a);
    trace_bcm4331_pci_realize(macstr);
}

static void bcm43xx_pci_exit(PCIDevice *pd)
{
    Bcm43xxState *s = BCM43XX_PCI(pd);

    d11_core_exit(&s->d11);
    for (int i = 0; i < ARRAY_SIZE(s->win); i++) {
        memory_region_del_subregion(&s->bar0, &s->win[i]);
    }
    bcma_unrealize(&s->bcma);
    msi_uninit(pd);
    pcie_cap_exit(pd);
}

static void bcm43xx_pci_reset_enter(Object *obj, ResetType type)
{
    PCIDevice *pd = PCI_DEVICE(obj);
    Bcm43xxState *s = BCM43XX_PCI(obj);
    uint8_t *c = pd->config;

    trace_bcm4331_pci_reset();
    /* QEMU does not clear config 0x40..0xff on reset: do it for ours */
    pci_set_long(c + BCMA_PCI_BAR0_WIN, BCMA_ADDR_BASE);
    pci_set_long(c + BCMA_PCI_BAR1_WIN, 0);
    pci_set_long(c + BCMA_PCI_SPROMCTL, 0);
    pci_set_long(c + BCMA_PCI_BAR1_CONTROL, 0);
    pci_set_long(c + BCMA_PCI_IRQS, 0);
    pci_set_long(c + BCMA_PCI_IRQMASK, 0);
    pci_set_long(c + BCMA_PCI_BACKPLANE_IRQS, 0);
    pci_set_long(c + BCMA_PCI_BAR0_WIN2, BCMA_WRAP_BASE);
    pci_set_long(c + BCMA_PCI_GPIO_IN, 0);
    pci_set_long(c + BCMA_PCI_GPIO_OUT, 0);
    pci_set_long(c + BCMA_PCI_GPIO_OUT_ENABLE, 0);
    msi_reset(pd);
    s->irq_level = false;
    bcm43xx_update_windows(s);
    bcma_reset(&s->bcma);
    d11_core_reset(&s->d11);
}

static void bcm43xx_pci_reset_hold(Object *obj, ResetType type)
{
    Bcm43xxState *s = BCM43XX_PCI(obj);

    /* the cores' lines follow their reset state: all low */
    d11_core_update_irq(&s->d11);
    pci_irq_deassert(PCI_DEVICE(obj));
    d11_core_air_update(&s->d11);   /* off the air until the driver tunes */
}

static int bcm43xx_post_load(void *opaque, int version_id)
{
    Bcm43xxState *s = opaque;

    bcm43xx_update_windows(s);      /* the windows follow config space */
    d11_core_post_load(&s->d11);    /* statuses of the frames on the air */
    s->irq_quiet = true;            /* the source sent its MSI already */
    d11_core_update_irq(&s->d11);   /* the line, INTA# included */
    d11_core_air_update(&s->d11);   /* what the air sees of the radio */
    s->irq_quiet = false;
    d11_core_resume(&s->d11);       /* the TBTT timer, posted frames */
    return 0;
}

/*
 * A block of the 802.11 core under the name it has always had in the
 * stream ("mac", "dma", ...), now that the blocks sit in the hub
 */
#define VMSTATE_D11_BLOCK(_name, _field, _version, _vmsd, _type) {      \
    .name = (_name),                                                    \
    .version_id = (_version),                                           \
    .size = sizeof(_type),                                              \
    .vmsd = &(_vmsd),                                                   \
    .flags = VMS_STRUCT,                                                \
    .offset = vmstate_offset_value(Bcm43xxState, d11._field, _type),    \
}

static const VMStateDescription vmstate_bcm4331 = {
    .name = "bcm4331",
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = bcm43xx_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, Bcm43xxState),
        VMSTATE_STRUCT(bcma, Bcm43xxState, 1, vmstate_bcma, BcmaState),
        VMSTATE_D11_BLOCK("mac", mac, 2, vmstate_d11, D11State),
        VMSTATE_D11_BLOCK("dma", dma, 1, vmstate_d11_dma, D11Dma),
        VMSTATE_D11_BLOCK("xmit", xmit, 1, vmstate_d11_xmit, D11Xmit),
        VMSTATE_D11_BLOCK("fw", fw, 1, vmstate_bcm_fw, FwState),
        VMSTATE_D11_BLOCK("phy", phy, 1, vmstate_bcm_phy, PhyState),
        VMSTATE_END_OF_LIST()
    },
};

static bool bcm43xx_get_rfkill(Object *obj, Error **errp)
{
    return bcm_phy_rfkill(&BCM43XX_PCI(obj)->d11.phy);
}

/* the card's hardware radio switch; may be flipped at run time (qom-set) */
static void bcm43xx_set_rfkill(Object *obj, bool value, Error **errp)
{
    d11_core_set_rfkill(&BCM43XX_PCI(obj)->d11, value);
}

static void bcm43xx_get_channel(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    uint32_t ch = bcm_phy_channel(&BCM43XX_PCI(obj)->d11.phy);

    visit_type_uint32(v, name, &ch, errp);
}

static void bcm43xx_get_frequency(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    uint32_t f = bcm_phy_freq(&BCM43XX_PCI(obj)->d11.phy);

    visit_type_uint32(v, name, &f, errp);
}

static void bcm43xx_get_rx_dropped(Object *obj, Visitor *v,
                                   const char *name, void *opaque,
                                   Error **errp)
{
    visit_type_uint64(v, name, &BCM43XX_PCI(obj)->d11.dma.rx_dropped, errp);
}

static char *bcm43xx_get_hostile(Object *obj, Error **errp)
{
    return g_strdup(BCM43XX_PCI(obj)->d11.hostile.path ?: "");
}

/*
 * the hostile card's input: at any time (qom-set), each load starting the
 * stream from its beginning; "" turns it off
 */
static void bcm43xx_set_hostile(Object *obj, const char *value, Error **errp)
{
    bcm_hostile_load(&BCM43XX_PCI(obj)->d11.hostile, value, errp);
}

static void bcm43xx_get_hostile_consumed(Object *obj, Visitor *v,
                                         const char *name, void *opaque,
                                         Error **errp)
{
    uint64_t n = BCM43XX_PCI(obj)->d11.hostile.pos;

    visit_type_uint64(v, name, &n, errp);
}

static void bcm43xx_get_hostile_perturbed(Object *obj, Visitor *v,
                                          const char *name, void *opaque,
                                          Error **errp)
{
    BcmHostile *h = &BCM43XX_PCI(obj)->d11.hostile;
    uint64_t n = 0;

    for (int i = 0; i < BCM_HOSTILE_SITES; i++) {
        n += h->perturbed[i];
    }
    visit_type_uint64(v, name, &n, errp);
}

/* what the card shows of its state (qom-get) */
static const struct {
    const char *name, *type;
    ObjectPropertyAccessor *get;
    const char *desc;
} bcm4331_ro_props[] = {
    { "channel", "uint32", bcm43xx_get_channel,
      "read-only: the channel the radio is tuned to, derived from the "
      "driver's PHY programming (0 = not tuned yet)" },
    { "frequency", "uint32", bcm43xx_get_frequency,
      "read-only: the tuned frequency in MHz (0 = not tuned yet)" },
    { "rx-dropped", "uint64", bcm43xx_get_rx_dropped,
      "read-only: frames from the air the card dropped since power-on "
      "(RX ring full, or a buffer too small for the frame)" },
    { "hostile-consumed", "uint64", bcm43xx_get_hostile_consumed,
      "read-only: bytes of the hostile input consumed so far" },
    { "hostile-perturbed", "uint64", bcm43xx_get_hostile_perturbed,
      "read-only: values the hostile input changed since it was loaded" },
};

static const Property bcm_card_properties[] = {
    DEFINE_PROP_MACADDR("mac", Bcm43xxState, macaddr),
    DEFINE_PROP_LINK("medium", Bcm43xxState, d11.medium, TYPE_WIFI_MEDIUM,
                     WifiMedium *),
    DEFINE_PROP_INT32("txpower", Bcm43xxState, d11.txpower, 18),
    DEFINE_PROP_BOOL("rx-cd-erratum", Bcm43xxState, d11.dma.rx_cd_erratum,
                     true),
    DEFINE_PROP_BOOL("dma64", Bcm43xxState, d11.dma.dma64, true),
    DEFINE_PROP_UINT32("hostile-sites", Bcm43xxState, d11.hostile.sites,
                       BCM_HOSTILE_ALL_SITES),
};

/* per chip: the SPROM (its description), the default subsystem */
static const Property bcm4331_properties[] = {
    DEFINE_PROP_STRING("sprom", Bcm43xxState, sprom_file),
    DEFINE_PROP_UINT16("subsys-vendor-id", Bcm43xxState, subsys_vid,
                       BCM4331_DEFAULT_SUBSYS_VID),
    DEFINE_PROP_UINT16("subsys-id", Bcm43xxState, subsys_id,
                       BCM4331_DEFAULT_SUBSYS_ID),
};

static const Property bcm43224_properties[] = {
    DEFINE_PROP_STRING("sprom", Bcm43xxState, sprom_file),
    DEFINE_PROP_UINT16("subsys-vendor-id", Bcm43xxState, subsys_vid,
                       BCM43224_DEFAULT_SUBSYS_VID),
    DEFINE_PROP_UINT16("subsys-id", Bcm43xxState, subsys_id,
                       BCM43224_DEFAULT_SUBSYS_ID),
};

/* what the chips share */
static void bcm43xx_pci_class_init(ObjectClass *klass, QemuClassData data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = bcm43xx_pci_realize;
    k->exit = bcm43xx_pci_exit;
    k->config_write = bcm43xx_pci_write_config;
    k->vendor_id = BCM4331_PCI_VENDOR_ID;
    k->class_id = PCI_CLASS_NETWORK_OTHER;

    rc->phases.enter = bcm43xx_pci_reset_enter;
    rc->phases.hold = bcm43xx_pci_reset_hold;

    dc->vmsd = &vmstate_bcm4331;
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
    device_class_set_props(dc, bcm_card_properties);
    object_class_property_set_description(klass, "mac",
        "MAC address of the card, stored in its SPROM "
        "(default: QEMU's next 52:54:00:12:34:xx address)");
    object_class_property_set_description(klass, "medium",
        "the wifi-medium (simulated air) the card is on; without it the "
        "card is alone on its own air");
    wifi_radio_class_add_pos(klass, offsetof(Bcm43xxState, d11.air),
        "position on the medium in metres, decimals allowed, settable while "
        "the guest runs (x, y, z; default 0, 0, 0)");
    object_class_property_set_description(klass, "txpower",
        "transmit power in dBm (default 18, the SPROM's maximum)");
    object_class_property_set_description(klass, "rx-cd-erratum",
        "reproduce the 64-bit DMA engines' erratum: bit 12 of the RX ring "
        "address leaks into RXSTATUS's current-descriptor field (default "
        "on; why Linux aligns its rings to 8 KiB)");
    object_class_property_set_description(klass, "dma64",
        "64-bit DMA engines as on the chip (default on); off: the 32-bit "
        "descriptor format and register layout of older parts");
    object_class_property_set_description(klass, "hostile-sites",
        "the hostile card's sites (mask): 1 TX/RX DMA status, 2 TX status, "
        "4 interrupt reasons, 8 shared memory, 16 RX header, 32 PHY and "
        "radio data (default all)");
    object_class_property_add_str(klass, "hostile", bcm43xx_get_hostile,
                                  bcm43xx_set_hostile);
    object_class_property_set_description(klass, "hostile",
        "the hostile card, for testing drivers: a file whose bytes perturb "
        "what the card hands the driver at the hostile-sites, consumed in "
        "the order of the driver's accesses (docs/hostile-card.md); can be "
        "set while the guest runs (qom-set), each load from its start; "
        "\"\" or unset: an honest card");
    object_class_property_add_bool(klass, "rfkill", bcm43xx_get_rfkill,
                                   bcm43xx_set_rfkill);
    object_class_property_set_description(klass, "rfkill",
        "hardware rfkill switch: on = radio disabled; can be changed while "
        "the guest runs (qom-set)");
    for (int i = 0; i < ARRAY_SIZE(bcm4331_ro_props); i++) {
        object_class_property_add(klass, bcm4331_ro_props[i].name,
                                  bcm4331_ro_props[i].type,
                                  bcm4331_ro_props[i].get, NULL, NULL, NULL);
        object_class_property_set_description(klass,
                                              bcm4331_ro_props[i].name,
                                              bcm4331_ro_props[i].desc);
    }
}

/* a chip: its identity, its own properties and their descriptions */
static void bcm43xx_chip_class_init(ObjectClass *klass, QemuClassData data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    const Bcm43xxInfo *info = data;

    BCM43XX_PCI_CLASS(klass)->info = info;
    k->device_id = info->device_id;
    k->revision = info->revision;
    dc->desc = info->desc;
    device_class_set_props_n(dc, info->props, info->nprops);
    object_class_property_set_description(klass, "sprom", info->sprom_desc);
    object_class_property_set_description(klass, "subsys-vendor-id",
        "PCI subsystem vendor id (default 0x106b, Apple)");
    object_class_property_set_description(klass, "subsys-id",
                                          info->subsys_desc);
}

static const Bcm43xxInfo bcm4331_info = {
    .desc = "Broadcom BCM4331 802.11a/b/g/n (HT-PHY) PCIe Wi-Fi (b43)",
    .device_id = BCM4331_PCI_DEVICE_ID,
    .revision = BCM4331_PCI_REVISION,
    .chip = &bcma_chip_bcm4331,
    .phy = &bcm_htphy_model,
    .sprom_build = bcm_sprom_build_r9,
    .sprom_desc = "file with a SPROM image to use instead of the built-in "
                  "rev-9 BCM94331 image: 440, 460 or 468 bytes of "
                  "little-endian words, revision 8-11, valid CRC-8 (mac=, "
                  "if given, replaces its MAC)",
    .subsys_desc = "PCI subsystem id (default 0x00d6, AirPort Extreme)",
    .cap_msi = BCM4331_CAP_MSI,
    .props = bcm4331_properties,
    .nprops = ARRAY_SIZE(bcm4331_properties),
};

static const Bcm43xxInfo bcm43224_info = {
    .desc = "Broadcom BCM43224 802.11a/b/g/n (N-PHY) PCIe Wi-Fi (brcmsmac)",
    .device_id = BCM43224_PCI_DEVICE_ID,
    .revision = BCM43224_PCI_REVISION,
    .chip = &bcma_chip_bcm43224,
    .phy = &bcm_nphy_model,
    .sprom_build = bcm_sprom_build_43224,
    .sprom_desc = "file with a SPROM image to use instead of the built-in "
                  "rev-8 BCM943224 image: 440, 460 or 468 bytes of "
                  "little-endian words, revision 8-11, valid CRC-8 (mac=, "
                  "if given, replaces its MAC)",
    .subsys_desc = "PCI subsystem id (default 0x0093, the Mac mini's "
                   "AirPort Extreme)",
    .dma_ring_aligned = true,
    .cap_msi = BCM43224_CAP_MSI,
    .props = bcm43224_properties,
    .nprops = ARRAY_SIZE(bcm43224_properties),
};

static const TypeInfo bcm_card_types[] = {
    {
        .name = TYPE_BCM43XX_PCI,
        .parent = TYPE_PCI_DEVICE,
        .abstract = true,
        .instance_size = sizeof(Bcm43xxState),
        .instance_init = bcm43xx_pci_init,
        .instance_finalize = bcm43xx_pci_finalize,
        .class_size = sizeof(Bcm43xxClass),
        .class_init = bcm43xx_pci_class_init,
        .interfaces = (InterfaceInfo[]) {
            { INTERFACE_PCIE_DEVICE },
            { },
        },
    }, {
        .name = TYPE_BCM4331_PCI,
        .parent = TYPE_BCM43XX_PCI,
        .class_init = bcm43xx_chip_class_init,
        .class_data = (void *)&bcm4331_info,
    }, {
        .name = TYPE_BCM43224_PCI,
        .parent = TYPE_BCM43XX_PCI,
        .class_init = bcm43xx_chip_class_init,
        .class_data = (void *)&bcm43224_info,
    },
};

static void bcm43xx_pci_register_types(void)
{
    type_register_static_array(bcm_card_types, ARRAY_SIZE(bcm_card_types));
}

type_init(bcm43xx_pci_register_types)
