#pragma once
/* zbar, the QR decoder, loaded when the first picture is scanned rather than at start: linked,
 * it brings libzbar and what it needs (libdbus, libv4l2, libv4lconvert) into every start of
 * every command, and the dynamic loader looks symbols up through them (issue 31 item 4: 2.5%
 * of the loader's start). The functions QRDecoder calls, by their zbar names without "zbar_",
 * with zbar.h's own signatures. Included by shim.h; static inline like the rest. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <zbar.h>

typedef struct {
    __typeof__(zbar_image_scanner_create) * _Nonnull image_scanner_create;
    __typeof__(zbar_image_scanner_destroy) * _Nonnull image_scanner_destroy;
    __typeof__(zbar_image_scanner_set_config) * _Nonnull image_scanner_set_config;
    __typeof__(zbar_image_create) * _Nonnull image_create;
    __typeof__(zbar_image_destroy) * _Nonnull image_destroy;
    __typeof__(zbar_image_set_format) * _Nonnull image_set_format;
    __typeof__(zbar_image_set_size) * _Nonnull image_set_size;
    __typeof__(zbar_image_set_data) * _Nonnull image_set_data;
    __typeof__(zbar_scan_image) * _Nonnull scan_image;
    __typeof__(zbar_image_first_symbol) * _Nonnull image_first_symbol;
    __typeof__(zbar_symbol_get_type) * _Nonnull symbol_get_type;
    __typeof__(zbar_symbol_get_data) * _Nonnull symbol_get_data;
    __typeof__(zbar_symbol_get_data_length) * _Nonnull symbol_get_data_length;
    __typeof__(zbar_symbol_next) * _Nonnull symbol_next;
} CGtkZbar;

/* The library's functions, loaded on the first call (on the main thread); NULL when
 * libzbar.so.0 or one of them is missing, with the loader's reason in `why` (may be NULL). */
static inline const CGtkZbar * _Nullable cgtk_zbar(const char * _Nullable * _Nullable why) {
    static CGtkZbar api;
    static int state = 0;  /* 0: not tried, 1: loaded, -1: failed */
    static char reason[256];
    if (state == 0) {
        state = -1;
        void *lib = dlopen("libzbar.so.0", RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            const char *error = dlerror();
            snprintf(reason, sizeof reason, "%s", error ? error : "libzbar.so.0 could not be loaded");
        } else {
            const char *missing = NULL;
#define CGTK_ZBAR_LOAD(name) \
            if ((api.name = (__typeof__(api.name))dlsym(lib, "zbar_" #name)) == NULL && missing == NULL) missing = "zbar_" #name;
            CGTK_ZBAR_LOAD(image_scanner_create) CGTK_ZBAR_LOAD(image_scanner_destroy) CGTK_ZBAR_LOAD(image_scanner_set_config)
            CGTK_ZBAR_LOAD(image_create) CGTK_ZBAR_LOAD(image_destroy) CGTK_ZBAR_LOAD(image_set_format)
            CGTK_ZBAR_LOAD(image_set_size) CGTK_ZBAR_LOAD(image_set_data) CGTK_ZBAR_LOAD(scan_image)
            CGTK_ZBAR_LOAD(image_first_symbol) CGTK_ZBAR_LOAD(symbol_get_type) CGTK_ZBAR_LOAD(symbol_get_data)
            CGTK_ZBAR_LOAD(symbol_get_data_length) CGTK_ZBAR_LOAD(symbol_next)
#undef CGTK_ZBAR_LOAD
            if (missing == NULL) {
                state = 1;
            } else {
                snprintf(reason, sizeof reason, "libzbar.so.0 has no %s", missing);
                dlclose(lib);
            }
        }
    }
    if (state != 1 && why != NULL) *why = reason;
    return state == 1 ? &api : NULL;
}
