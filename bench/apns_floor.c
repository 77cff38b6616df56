/* The floor for the APNs stand-in's throughput: a bare HTTP/2 server on the same library
 * (nghttp2), cleartext prior knowledge (h2c) on 127.0.0.1, one thread with epoll — as the
 * stand-in runs on one main loop. Every request stream is answered 200 with an apns-id header,
 * without looking at its path, headers, provider token or payload.
 * Usage: apns_floor [PORT]   (prints the port it listens on, then serves until killed) */
#define _GNU_SOURCE
#include <nghttp2/nghttp2.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    int fd;
    nghttp2_session *session;
    uint8_t *out;
    size_t out_len, out_cap;
} conn;

static const char apns_id[] = "00000000-0000-4000-8000-000000000000";

static int on_frame_recv(nghttp2_session *session, const nghttp2_frame *frame, void *data) {
    (void)data;
    if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)) {
        nghttp2_nv nva[] = {
            {(uint8_t *)":status", (uint8_t *)"200", 7, 3, NGHTTP2_NV_FLAG_NONE},
            {(uint8_t *)"apns-id", (uint8_t *)apns_id, 7, sizeof apns_id - 1, NGHTTP2_NV_FLAG_NONE},
        };
        nghttp2_submit_response(session, frame->hd.stream_id, nva, 2, NULL);
    }
    return 0;
}

static void queue(conn *c, const uint8_t *bytes, size_t n) {
    if (c->out_len + n > c->out_cap) {
        c->out_cap = (c->out_len + n) * 2;
        c->out = realloc(c->out, c->out_cap);
    }
    memcpy(c->out + c->out_len, bytes, n);
    c->out_len += n;
}

/* Moves nghttp2's output to the socket; returns -1 when the connection is done. */
static int pump(conn *c) {
    for (;;) {
        const uint8_t *bytes;
        ssize_t n = nghttp2_session_mem_send(c->session, &bytes);
        if (n < 0) return -1;
        if (n == 0) break;
        queue(c, bytes, (size_t)n);
    }
    size_t sent = 0;
    while (sent < c->out_len) {
        ssize_t n = send(c->fd, c->out + sent, c->out_len - sent, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
        if (n <= 0) return -1;
        sent += (size_t)n;
    }
    memmove(c->out, c->out + sent, c->out_len - sent);
    c->out_len -= sent;
    if (c->out_len == 0 && !nghttp2_session_want_read(c->session) && !nghttp2_session_want_write(c->session)) return -1;
    return 0;
}

static void drop(int epoll, conn *c) {
    epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    nghttp2_session_del(c->session);
    free(c->out);
    free(c);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 0;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int yes = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 128) != 0) {
        perror("apns_floor: listen");
        return 1;
    }
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &length);
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);

    nghttp2_session_callbacks *callbacks;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame_recv);
    int epoll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
    uint8_t buffer[16384];
    struct epoll_event ready[64];
    for (;;) {
        int count = epoll_wait(epoll, ready, 64, -1);
        for (int i = 0; i < count; i++) {
            conn *c = ready[i].data.ptr;
            if (c == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
                    conn *n = calloc(1, sizeof *n);
                    n->fd = fd;
                    nghttp2_session_server_new(&n->session, callbacks, n);
                    nghttp2_settings_entry settings = {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1000};
                    nghttp2_submit_settings(n->session, NGHTTP2_FLAG_NONE, &settings, 1);
                    struct epoll_event e = {.events = EPOLLIN, .data.ptr = n};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
                }
                continue;
            }
            int done = 0;
            for (;;) {
                ssize_t n = read(c->fd, buffer, sizeof buffer);
                if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
                if (n <= 0 || nghttp2_session_mem_recv(c->session, buffer, (size_t)n) < 0) { done = 1; break; }
            }
            if (done || pump(c) < 0) { drop(epoll, c); continue; }
            struct epoll_event e = {.events = EPOLLIN | (c->out_len ? EPOLLOUT : 0), .data.ptr = c};
            epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &e);
        }
    }
}
