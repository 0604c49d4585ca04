/* UDP echo peers for the datagram rows: every datagram is sent back to its sender.
 *
 *   echo_udp PORT            one recvfrom and one sendto per datagram (epoll, drained to EAGAIN)
 *   echo_udp PORT --mmsg     recvmmsg and sendmmsg, up to 64 datagrams per system call
 *
 * Bound to 127.0.0.1:PORT; runs until killed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define BATCH 64
#define MAXDG 65536

static char buffers[BATCH][MAXDG];

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: echo_udp PORT [--mmsg]\n"); return 2; }
    int mmsg = argc > 2 && !strcmp(argv[2], "--mmsg");
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[1]))};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("bind"); return 1; }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    struct mmsghdr messages[BATCH];
    struct iovec vectors[BATCH];
    struct sockaddr_in peers[BATCH];
    for (;;) {
        struct epoll_event got;
        if (epoll_wait(ep, &got, 1, -1) < 0) {
            if (errno == EINTR) continue;
            perror("epoll_wait");
            return 1;
        }
        if (!mmsg) {
            for (;;) {
                struct sockaddr_in peer;
                socklen_t length = sizeof peer;
                ssize_t n = recvfrom(fd, buffers[0], MAXDG, 0, (struct sockaddr *)&peer, &length);
                if (n < 0) break;
                sendto(fd, buffers[0], (size_t)n, 0, (struct sockaddr *)&peer, length);
            }
            continue;
        }
        for (;;) {
            for (int i = 0; i < BATCH; i++) {
                vectors[i] = (struct iovec){.iov_base = buffers[i], .iov_len = MAXDG};
                messages[i].msg_hdr = (struct msghdr){
                    .msg_name = &peers[i], .msg_namelen = sizeof peers[i], .msg_iov = &vectors[i], .msg_iovlen = 1};
            }
            int n = recvmmsg(fd, messages, BATCH, 0, NULL);
            if (n <= 0) break;
            for (int i = 0; i < n; i++) vectors[i].iov_len = messages[i].msg_len;
            int sent = 0;
            while (sent < n) {
                int r = sendmmsg(fd, messages + sent, (unsigned)(n - sent), 0);
                if (r <= 0) break;
                sent += r;
            }
        }
    }
}
