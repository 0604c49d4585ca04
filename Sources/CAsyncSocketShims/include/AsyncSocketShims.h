// C helpers for what Swift cannot import directly: macros, GNU extensions and
// variadic or thread-identity calls. Every name starts with `ask_`.
#ifndef ASYNCSOCKET_SHIMS_H
#define ASYNCSOCKET_SHIMS_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

/// The pthread of the process's main thread (recorded by a load-time constructor).
pthread_t ask_main_pthread(void);

/// Whether the calling thread is the process's main thread.
int ask_is_main_thread(void);

/// The kernel thread id of the calling thread.
int32_t ask_gettid(void);

/// Writes the name of `thread` (at most 15 characters) into `buffer`; "" when unknown.
void ask_thread_name(pthread_t thread, char *buffer, size_t length);

/// Names the calling thread (Linux keeps at most 15 characters).
void ask_set_thread_name(const char *name);

/// A non-blocking, close-on-exec eventfd with a zero counter, or -1 with errno set.
int ask_eventfd_create(void);

/// Adds one to an eventfd's counter (wakes a poller); never blocks.
void ask_eventfd_signal(int fd);

/// Resets an eventfd's counter to zero; never blocks.
void ask_eventfd_drain(int fd);

/// A non-blocking, close-on-exec CLOCK_MONOTONIC timerfd, or -1 with errno set.
int ask_timerfd_create(void);

/// Arms a timerfd to expire once at the absolute CLOCK_MONOTONIC time `deadline_ns` (a time in the
/// past expires at once).
void ask_timerfd_arm(int fd, uint64_t deadline_ns);

/// A close-on-exec epoll instance, or -1 with errno set.
int ask_epoll_create(void);

/// Watches `fd` in `epoll_fd` for the peer's close, a hang-up or an error (EPOLLRDHUP, EPOLLHUP,
/// EPOLLERR; level-triggered, never for readable bytes), reporting `token`; 0 or -1 with errno set.
int ask_epoll_watch_close(int epoll_fd, int fd, uint64_t token);

/// Stops watching `fd` in `epoll_fd`; 0 or -1 with errno set.
int ask_epoll_unwatch(int epoll_fd, int fd);

/// Without waiting, stores up to `capacity` tokens of ready descriptors; their number, or -1.
int ask_epoll_ready(int epoll_fd, uint64_t *tokens, int capacity);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC; -1 with errno set on failure.
int ask_accept(int fd, void *address, uint32_t *length);

/// A non-blocking, close-on-exec socket; -1 with errno set on failure.
int ask_socket(int family, int type);

/// The current value of errno (for call sites where Swift's `errno` is awkward).
int ask_errno(void);

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t ask_monotonic_ns(void);

/// The socket queue whose work the calling thread is running (an opaque identity; 0 when none).
uintptr_t ask_current_socket_queue(void);

/// Sets what ask_current_socket_queue returns on the calling thread.
void ask_set_current_socket_queue(uintptr_t queue);

struct sockaddr;
struct sockaddr_storage;

/// (Lengths are `uint32_t`, which `socklen_t` is on Linux: including <sys/socket.h> here would make this
/// module the owner of the socket declarations Swift files see.)
/// The most datagrams one ask_recv_datagrams call takes.
#define ASK_MAX_RECEIVE_BATCH 16

/// One datagram of an ask_recv_datagrams batch. In: `capacity` bytes at `buffer`, and where the sender
/// and the local address go. Out: `size`, the datagram's real size (MSG_TRUNC: it may exceed
/// `capacity`, and the bytes beyond it are gone); the sender and its length; when the socket has
/// IP_PKTINFO / IPV6_RECVPKTINFO on, the local address the datagram was sent to (port 0) and its
/// interface, with `has_destination` set to 1.
struct ask_incoming_datagram {
    void *buffer;
    size_t capacity;
    struct sockaddr_storage *source;
    struct sockaddr_storage *destination;
    size_t size;
    uint32_t source_length;
    int has_destination;
    unsigned int interface_index;
    /// With UDP_GRO on: the size of each datagram the kernel coalesced into this buffer (the last one
    /// may be shorter); 0 for a buffer that holds one datagram.
    uint16_t segment_size;
};

/// Receives up to `count` (at most ASK_MAX_RECEIVE_BATCH) datagrams waiting on a non-blocking socket with
/// one recvmmsg (EINTR retried). Returns how many were received, in order of arrival, or -1 with errno
/// set when none was (EAGAIN: none waits); an error met after the first datagram stays pending for the
/// next call.
int ask_recv_datagrams(int fd, struct ask_incoming_datagram *datagrams, unsigned int count);

/// Turns UDP_GRO on or off on `fd` (Linux 5.0 and later): the kernel may then coalesce datagrams of one
/// sender, of one size, into one buffer, whose segment size ask_recv_datagrams reports. Returns 0, or -1
/// with errno set.
int ask_set_receive_coalescing(int fd, int enabled);

/// Sends one datagram to `to` (NULL: the connected peer) without SIGPIPE; with `from`, from that local
/// address (IP_PKTINFO's ipi_spec_dst, or IPV6_PKTINFO with `interface_index`); with `segment_size` > 0,
/// the bytes leave as datagrams of that size, the last one shorter, cut by the kernel (UDP_SEGMENT,
/// Linux 4.18 and later). Returns the bytes sent, or -1 with errno set (EINTR retried).
ssize_t ask_send_datagram(int fd, const void *bytes, size_t count, const struct sockaddr *to, uint32_t to_length,
                          const struct sockaddr *from, unsigned int interface_index, uint16_t segment_size);

/// The most datagrams one ask_send_datagrams call takes.
#define ASK_MAX_SEND_BATCH 64

/// One datagram of an ask_send_datagrams batch: `count` bytes to `to` (NULL: the connected peer).
struct ask_outgoing_datagram {
    const void *bytes;
    size_t count;
    const struct sockaddr *to;
    uint32_t to_length;
};

/// Sends up to ASK_MAX_SEND_BATCH datagrams with one sendmmsg, without SIGPIPE (EINTR retried). Returns
/// how many were sent, in order, or -1 with errno set when the first one could not be; the first one
/// not sent was not tried, or failed with an error sendmmsg does not report (send it alone to learn it).
int ask_send_datagrams(int fd, const struct ask_outgoing_datagram *datagrams, unsigned int count);

#endif
