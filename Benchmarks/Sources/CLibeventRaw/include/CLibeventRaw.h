// Plain libevent in C: the reference for per-event dispatch cost.
#ifndef CLIBEVENT_RAW_H
#define CLIBEVENT_RAW_H
#include <stdint.h>

/// Registers EV_READ|EV_PERSIST on each descriptor (all readable), runs `passes` non-blocking loop
/// iterations and returns the number of callbacks; `elapsed_ns` receives the time taken.
uint64_t raw_libevent_dispatch(const int *fds, int count, int passes, uint64_t *elapsed_ns);
#endif
