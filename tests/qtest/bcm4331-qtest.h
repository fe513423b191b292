/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Helpers shared by the bcm4331 qtests.
 *
 * Copyright (c) 2026 The bcm4331-qemu authors
 */

#ifndef BCM4331_QTEST_H
#define BCM4331_QTEST_H

#include "libqtest.h"
#include "qobject/qdict.h"
#include "libqos/bcm4331.h"

/* poll query-migrate until the migration has completed */
static inline void bcm4331_wait_migration(QTestState *qts)
{
    for (int i = 0; i < 2000; i++) {
        QDict *r = qtest_qmp(qts, "{ 'execute': 'query-migrate' }");
        QDict *ret = qdict_get_qdict(r, "return");
        const char *st = ret && qdict_haskey(ret, "status") ?
                         qdict_get_str(ret, "status") : "";
        bool done = !strcmp(st, "completed");

        g_assert_cmpstr(st, !=, "failed");
        qobject_unref(r);
        if (done) {
            return;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

#endif
