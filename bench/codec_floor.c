/* The plain-C floor for the bridge codec benchmark: what a C host using json-glib does at the
 * least for each message — parse the text, read version/id/type, and generate a reply — with
 * none of the contract's validation. HostShell's codec is reported as a ratio against this.
 * Usage: codec_floor SECONDS FILE…   prints "NAME<TAB>N msg/s" per file (median of 5 rounds). */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t one(const char *text, gssize len) {
    JsonParser *parser = json_parser_new_immutable();
    size_t out = 0;
    if (json_parser_load_from_data(parser, text, len, NULL)) {
        JsonObject *o = json_node_get_object(json_parser_get_root(parser));
        gint64 version = json_object_get_int_member_with_default(o, "version", 0);
        const char *id = json_object_get_string_member_with_default(o, "id", NULL);
        const char *type = json_object_get_string_member_with_default(o, "type", "");
        JsonBuilder *b = json_builder_new_immutable();
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "version"); json_builder_add_int_value(b, version);
        if (id) { json_builder_set_member_name(b, "id"); json_builder_add_string_value(b, id); }
        json_builder_set_member_name(b, "ok"); json_builder_add_boolean_value(b, TRUE);
        json_builder_set_member_name(b, "payload"); json_builder_begin_object(b);
        if (strcmp(type, "config/get") == 0) {
            /* The same reply the host writes: every capability of HostCapability, in its order (a
             * capability added there is added here, or the floor writes less than the host). */
            static const char *caps[] = {"nativeNavigation", "authLifecycle", "nativePresentations", "nativeAlerts",
                "systemShare", "systemHaptics", "systemQrScanner", "nativeMediaIntake", "deepLinks", "nativeActionMenus",
                "nativeActionMenuAnchors", "systemMap"};
            json_builder_set_member_name(b, "protocolVersion"); json_builder_add_int_value(b, 1);
            json_builder_set_member_name(b, "context"); json_builder_add_string_value(b, "main");
            json_builder_set_member_name(b, "capabilities"); json_builder_begin_object(b);
            for (size_t i = 0; i < G_N_ELEMENTS(caps); i++) {
                json_builder_set_member_name(b, caps[i]); json_builder_add_boolean_value(b, TRUE);
            }
            json_builder_end_object(b);
        }
        json_builder_end_object(b);
        json_builder_end_object(b);
        JsonGenerator *g = json_generator_new();
        JsonNode *root = json_builder_get_root(b);
        json_generator_set_root(g, root);
        gsize length = 0;
        g_free(json_generator_to_data(g, &length));
        out = length;
        json_node_unref(root);
        g_object_unref(g);
        g_object_unref(b);
    }
    g_object_unref(parser);
    return out;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: codec_floor SECONDS FILE...\n"); return 2; }
    double seconds = atof(argv[1]);
    for (int f = 2; f < argc; f++) {
        gchar *text = NULL; gsize len = 0;
        if (!g_file_get_contents(argv[f], &text, &len, NULL)) { fprintf(stderr, "cannot read %s\n", argv[f]); return 2; }
        size_t sink = 0;
        for (int i = 0; i < 2000; i++) sink += one(text, len);
        double rates[5];
        for (int r = 0; r < 5; r++) {
            double start = now();
            long count = 0;
            while (now() - start < seconds / 5) {
                for (int i = 0; i < 500; i++) sink += one(text, len);
                count += 500;
            }
            rates[r] = count / (now() - start);
        }
        qsort(rates, 5, sizeof rates[0], cmp);
        const char *name = strrchr(argv[f], '/');
        printf("%s\t%.0f msg/s\n", name ? name + 1 : argv[f], rates[2]);
        if (sink == 42) puts("");
        g_free(text);
    }
    return 0;
}
