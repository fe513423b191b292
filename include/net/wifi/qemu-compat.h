/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What differs between the QEMU releases the project builds on (Debian's
 * 10.0.x and the newest Debian has, 10.2.x): one place for it.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef NET_WIFI_QEMU_COMPAT_H
#define NET_WIFI_QEMU_COMPAT_H

/*
 * QEMU 10.1 moved exec/memory.h to system/memory.h, and made
 * TypeInfo.class_init's class data const void * (void * before: no
 * form is valid for both).  A class_init is
 *     static void foo_class_init(ObjectClass *klass, QemuClassData data)
 */
#if QEMU_VERSION_MAJOR > 10 || \
    (QEMU_VERSION_MAJOR == 10 && QEMU_VERSION_MINOR >= 1)
#include "system/memory.h"
typedef const void *QemuClassData;
#else
#include "exec/memory.h"
typedef void *QemuClassData;
#endif

#endif
