/* SPDX-License-Identifier: MIT */
/* Shared libraries opened on first use (see fioscope/dynlib.h). */
#include "fioscope/dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* one lock for every library: each is opened once, and an open takes milliseconds */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

/* The Debian package that ships soname, by the policy's rule (§8.1): the name
 * without "lib" and ".so", a '-' before the version when the name ends in a digit
 * (libpangocairo-1.0.so.0 → libpangocairo-1.0-0, libxlsxwriter.so.4 →
 * libxlsxwriter4). Derived, so it follows the sonames the program was built with.
 * False when soname has no version. */
static bool debian_package(const char *soname, char *out, size_t size)
{
    const char *so = strstr(soname, ".so.");
    if (!so || so == soname || !so[4])
        return false;
    int n = (int)(so - soname);
    bool digit = so[-1] >= '0' && so[-1] <= '9';
    return snprintf(out, size, "%.*s%s%s", n, soname, digit ? "-" : "", so + 4) < (int)size;
}

static bool open_all(fsc_dynlib *lib)
{
    for (size_t i = 0; i < FSC_DYNLIB_MAX && lib->sonames[i]; i++) {
        lib->handles[i] = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib->handles[i]) {
            const char *e = dlerror();
            char pkg[128];
            /* the reason first (a user reads what to do), then dlerror's detail */
            int n = snprintf(lib->error, sizeof lib->error, "%s need %s, which cannot be loaded", lib->what,
                             lib->sonames[i]);
            if (n > 0 && (size_t)n < sizeof lib->error && debian_package(lib->sonames[i], pkg, sizeof pkg))
                n += snprintf(lib->error + n, sizeof lib->error - (size_t)n, " (on Debian: apt install %s)", pkg);
            if (n > 0 && (size_t)n < sizeof lib->error)
                snprintf(lib->error + n, sizeof lib->error - (size_t)n, ": %s", e ? e : "unknown error");
            return false;
        }
    }
    return true;
}

bool fsc_dynlib_open(fsc_dynlib *lib, bool (*fill)(fsc_dynlib *lib), const char **why)
{
    int state = atomic_load_explicit(&lib->state, memory_order_acquire);
    if (state == 0) {
        pthread_mutex_lock(&open_lock);
        state = atomic_load_explicit(&lib->state, memory_order_relaxed);
        if (state == 0) {
            /* the table is filled before the release below: a thread that sees 1
             * sees every pointer */
            state = open_all(lib) && fill(lib) ? 1 : 2;
            atomic_store_explicit(&lib->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&open_lock);
    }
    if (state != 1 && why)
        *why = lib->error;
    return state == 1;
}

bool fsc_dynlib_is_open(fsc_dynlib *lib)
{
    return atomic_load_explicit(&lib->state, memory_order_acquire) == 1;
}

void *fsc_dynlib_sym(fsc_dynlib *lib, const char *name)
{
    for (size_t i = 0; i < FSC_DYNLIB_MAX && lib->handles[i]; i++) {
        void *p = dlsym(lib->handles[i], name);
        if (p)
            return p;
    }
    snprintf(lib->error, sizeof lib->error, "%s need %s from %s, which does not have it", lib->what, name,
             lib->sonames[0]);
    return NULL;
}
