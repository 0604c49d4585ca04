#include "CLibeventRaw.h"
#include <event2/event.h>
#include <stdlib.h>
#include <time.h>

static void on_event(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    (void)what;
    (*(uint64_t *)arg)++;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t raw_libevent_dispatch(const int *fds, int count, int passes, uint64_t *elapsed_ns) {
    struct event_config *config = event_config_new();
    event_config_set_flag(config, EVENT_BASE_FLAG_NOLOCK);
    struct event_base *base = event_base_new_with_config(config);
    event_config_free(config);
    uint64_t calls = 0;
    struct event **events = calloc((size_t)count, sizeof *events);
    for (int i = 0; i < count; i++) {
        events[i] = event_new(base, fds[i], EV_READ | EV_PERSIST, on_event, &calls);
        event_add(events[i], NULL);
    }
    uint64_t start = now_ns();
    for (int p = 0; p < passes; p++) event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
    *elapsed_ns = now_ns() - start;
    for (int i = 0; i < count; i++) event_free(events[i]);
    free(events);
    event_base_free(base);
    return calls;
}
