/* The plain-C floor for the upload benchmark: the same resumable protocol as HostShell's media
 * intake (create, PATCH 2 MiB chunks with Upload-Offset, complete) with libsoup 3's synchronous
 * API and a bearer token, no retries, no progress, no polling. Same file, same server, same run.
 * Usage: upload_floor ORIGIN FILE TOKEN
 * Prints one JSON line: {"seconds":…, "mibPerSecond":…, "rssGrowthKiB":…}. */
#include <libsoup/soup.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (2 * 1024 * 1024)

static long vm(const char *key) {
    char line[256]; long value = 0; size_t n = strlen(key);
    FILE *f = fopen("/proc/self/status", "r"); if (!f) return 0;
    while (fgets(line, sizeof line, f)) if (strncmp(line, key, n) == 0 && line[n] == ':') value = atol(line + n + 1);
    fclose(f); return value;
}
static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + ts.tv_nsec / 1e9; }

static guint send(SoupSession *session, const char *method, const char *url, const char *token, GBytes *body,
                  const char *type, const char *offset, char *out, size_t out_size) {
    SoupMessage *msg = soup_message_new(method, url);
    soup_message_add_flags(msg, SOUP_MESSAGE_NO_REDIRECT);
    char auth[512]; snprintf(auth, sizeof auth, "Bearer %s", token);
    soup_message_headers_replace(soup_message_get_request_headers(msg), "Authorization", auth);
    if (offset) soup_message_headers_replace(soup_message_get_request_headers(msg), "Upload-Offset", offset);
    if (body) soup_message_set_request_body_from_bytes(msg, type, body);
    GBytes *answer = soup_session_send_and_read(session, msg, NULL, NULL);
    guint status = soup_message_get_status(msg);
    if (out && answer) {
        gsize size; const char *data = g_bytes_get_data(answer, &size);
        snprintf(out, out_size, "%.*s", (int)size, data);
    }
    if (answer) g_bytes_unref(answer);
    g_object_unref(msg);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: upload_floor ORIGIN FILE TOKEN\n"); return 2; }
    const char *origin = argv[1], *path = argv[2], *token = argv[3];
    int fd = open(path, O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(path); return 1; }
    long rss0 = vm("VmRSS");
    SoupSession *session = soup_session_new();
    double t0 = now();
    char url[1024], answer[4096], json[512], offset[32];
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(json, sizeof json, "{\"filename\":\"%s\",\"mimeType\":\"video/mp4\",\"sizeBytes\":%lld}", name, (long long)st.st_size);
    GBytes *create = g_bytes_new(json, strlen(json));
    snprintf(url, sizeof url, "%s/api/v1/uploads", origin);
    if (send(session, "POST", url, token, create, "application/json", NULL, answer, sizeof answer) != 201) { fprintf(stderr, "create failed\n"); return 1; }
    g_bytes_unref(create);
    char *idp = strstr(answer, "\"id\":\""); if (!idp) return 1;
    char id[128]; sscanf(idp + 6, "%127[^\"]", id);
    char *buffer = g_malloc(CHUNK);
    for (off_t at = 0; at < st.st_size;) {
        ssize_t n = pread(fd, buffer, CHUNK, at); if (n <= 0) return 1;
        GBytes *chunk = g_bytes_new_static(buffer, n);
        snprintf(url, sizeof url, "%s/api/v1/uploads/%s", origin, id);
        snprintf(offset, sizeof offset, "%lld", (long long)at);
        if (send(session, "PATCH", url, token, chunk, "application/offset+octet-stream", offset, NULL, 0) != 204) { fprintf(stderr, "patch failed\n"); return 1; }
        g_bytes_unref(chunk);
        at += n;
    }
    snprintf(url, sizeof url, "%s/api/v1/uploads/%s/complete", origin, id);
    GBytes *empty = g_bytes_new("{}", 2);
    if (send(session, "POST", url, token, empty, "application/json", NULL, answer, sizeof answer) != 200) { fprintf(stderr, "complete failed\n"); return 1; }
    double seconds = now() - t0;
    printf("{\"seconds\":%.3f,\"mibPerSecond\":%.1f,\"rssGrowthKiB\":%ld}\n", seconds, st.st_size / 1048576.0 / seconds, vm("VmHWM") - rss0);
    return 0;
}
