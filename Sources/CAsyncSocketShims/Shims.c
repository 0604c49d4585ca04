#define _GNU_SOURCE
#include "AsyncSocketShims.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static pthread_t main_pthread;

// Runs on the main thread while the binary loads, before any Swift code.
__attribute__((constructor)) static void ask_record_main_thread(void) { main_pthread = pthread_self(); }

pthread_t ask_main_pthread(void) { return main_pthread; }

int ask_is_main_thread(void) { return pthread_equal(pthread_self(), main_pthread) != 0; }

int32_t ask_gettid(void) { return (int32_t)syscall(SYS_gettid); }

void ask_thread_name(pthread_t thread, char *buffer, size_t length) {
    if (length == 0) return;
    if (pthread_getname_np(thread, buffer, length) != 0) buffer[0] = 0;
}

void ask_set_thread_name(const char *name) { pthread_setname_np(pthread_self(), name); }

int ask_eventfd_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void ask_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t rc;
    do { rc = write(fd, &one, sizeof one); } while (rc < 0 && errno == EINTR);
}

void ask_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t rc;
    do { rc = read(fd, &value, sizeof value); } while (rc < 0 && errno == EINTR);
}

int ask_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

void ask_timerfd_arm(int fd, uint64_t deadline_ns) {
    struct itimerspec spec = {0};
    // An all-zero it_value would disarm the timer; 1 ns is long past, so it expires at once.
    if (deadline_ns == 0) deadline_ns = 1;
    spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000ull);
    spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000ull);
    timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int ask_accept(int fd, void *address, uint32_t *length) {
    return accept4(fd, (struct sockaddr *)address, (socklen_t *)length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int ask_socket(int family, int type) { return socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }

int ask_errno(void) { return errno; }

uint64_t ask_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static _Thread_local uintptr_t current_socket_queue;

uintptr_t ask_current_socket_queue(void) { return current_socket_queue; }

void ask_set_current_socket_queue(uintptr_t queue) { current_socket_queue = queue; }

int ask_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int ask_epoll_watch_close(int epoll_fd, int fd, uint64_t token) {
    struct epoll_event event = {0};
    event.events = EPOLLRDHUP;  // EPOLLHUP and EPOLLERR are always reported
    event.data.u64 = token;
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
}

int ask_epoll_unwatch(int epoll_fd, int fd) {
    struct epoll_event event = {0};
    return epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, &event);
}

int ask_epoll_ready(int epoll_fd, uint64_t *tokens, int capacity) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int n;
    do {
        n = epoll_wait(epoll_fd, events, capacity, 0);
    } while (n < 0 && errno == EINTR);
    for (int i = 0; i < n; i++) tokens[i] = events[i].data.u64;
    return n;
}
