/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * generic-fuzz configurations of the BCM4331 and its air: entries of
 * predefined_configs[] in QEMU's tests/qtest/fuzz/generic_fuzz_configs.h,
 * which includes this file inside the array (scripts/overlay.sh adds the
 * one #include line).  Each entry becomes the target generic-fuzz-<name>.
 *
 * The cards sit where the qtests put them (addr=04.0, 05.0, MAC
 * 02:00:00:00:00:0N) so that the seed corpus made from the qtests
 * (scripts/qtest-to-fuzz.py) replays the same frames; the access point
 * has the BSSID of the qtests' hostile-to-ap (and hostile-eapol) tests.
 * The card has one memory region, BAR0 "bcm4331-bar0" (16 KiB): .objects
 * matches it by the device's type name, and generic-fuzz enables and maps
 * only the PCI devices whose type it matches: a config with the BCM43224
 * names "bcm43224" as well (with "bcm4331*" alone its BAR0 was never
 * mapped, and no input reached it).
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

/*
 * the BCM43224 (brcmsmac's chip: N-PHY, BCM2056, the older radio port,
 * A-MPDU status) beside a BCM4331 on an air that takes real time, with
 * the AP giving the RX rings frames to take
 */
{
    .name = "bcm43224",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0,airtime=on "
            "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
            "bssid=02:aa:00:00:00:01 "
            "-device bcm43224,addr=04.0,medium=air0,mac=02:00:00:00:00:01 "
            "-device bcm4331,addr=05.0,medium=air0,mac=02:00:00:00:00:02",
    .objects = "bcm4331* bcm43224",
},
/*
 * the BCM43224 alone with the AP (the seeds of bcm43224-test replay here:
 * one card at 04.0, as the qtests have it): the N-PHY and its radio, the
 * 32-bit-era engines brcmsmac drives, beacons and answers to receive
 */
{
    .name = "bcm43224-ap",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0 "
            "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
            "bssid=02:aa:00:00:00:01 "
            "-device bcm43224,addr=04.0,medium=air0,mac=02:00:00:00:00:01",
    .objects = "bcm4331* bcm43224",
},
/* a card alone (on an air of its own) */
{
    .name = "bcm4331",
    .args = "-M q35 -nodefaults "
            "-device bcm4331,addr=04.0,mac=02:00:00:00:00:01",
    .objects = "bcm4331*",
},
/* card, medium and the virtual AP, bridged to user networking */
{
    .name = "bcm4331-ap",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0 "
            "-netdev user,id=n0,restrict=on "
            "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
            "bssid=02:aa:00:00:00:01,netdev=n0 "
            "-device bcm4331,addr=04.0,medium=air0,mac=02:00:00:00:00:01",
    .objects = "bcm4331*",
},
/* an air that takes real time (queues, collisions, ACKs), a WPA2 AP */
{
    .name = "bcm4331-airtime-wpa2",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0,airtime=on "
            "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
            "bssid=02:aa:00:00:00:02,passphrase=secret123 "
            "-device bcm4331,addr=04.0,medium=air0,mac=02:00:00:00:00:01",
    .objects = "bcm4331*",
},
/*
 * the 32-bit DMA engines (dma64=off); the AP on the air gives the RX ring
 * frames to take (beacons, answers)
 */
{
    .name = "bcm4331-dma32",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0 "
            "-device wifi-ap,medium=air0,ssid=QEMU,channel=6,"
            "bssid=02:aa:00:00:00:01 "
            "-device bcm4331,addr=04.0,medium=air0,mac=02:00:00:00:00:01,"
            "dma64=off",
    .objects = "bcm4331*",
},
/* two cards on one air: what one sends, the other receives */
/*
 * three cards on an air that takes real time (the qtests' RTS/CTS case:
 * a sender, a receiver, a monitor): RTS, CTS-to-self, their rates and
 * retries, and the NAV the third card keeps
 */
{
    .name = "bcm4331-trio",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0,airtime=on "
            "-device bcm4331,addr=04.0,medium=air0,mac=02:00:00:00:00:01 "
            "-device bcm4331,addr=05.0,medium=air0,mac=02:00:00:00:00:02 "
            "-device bcm4331,addr=06.0,medium=air0,mac=02:00:00:00:00:03",
    .objects = "bcm4331*",
},
{
    .name = "bcm4331-pair",
    .args = "-M q35 -nodefaults -object wifi-medium,id=air0 "
            "-device bcm4331,addr=04.0,medium=air0,mac=02:00:00:00:00:01 "
            "-device bcm4331,addr=05.0,medium=air0,mac=02:00:00:00:00:02",
    .objects = "bcm4331*",
},
