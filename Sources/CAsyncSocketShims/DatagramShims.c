// Datagram calls with ancillary data: the CMSG macros that find the packet-information header are not
// importable into Swift.
#define _GNU_SOURCE
#include "AsyncSocketShims.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/socket.h>

_Static_assert(sizeof(socklen_t) == sizeof(uint32_t), "socklen_t is 32 bits on Linux");

union ask_packet_info_space {
    char bytes[CMSG_SPACE(sizeof(struct in6_pktinfo)) + CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
};

// The local address a datagram was sent to, from its packet-information header, and the size of the
// datagrams the kernel coalesced into it (UDP_GRO), 0 when it is one datagram.
static void ask_read_destination(struct msghdr *message, struct ask_incoming_datagram *datagram) {
    datagram->has_destination = 0;
    datagram->segment_size = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(message); header; header = CMSG_NXTHDR(message, header)) {
        if (header->cmsg_level == SOL_UDP && header->cmsg_type == UDP_GRO) {
            int segment = 0;
            memcpy(&segment, CMSG_DATA(header), sizeof(segment));
            datagram->segment_size = segment > 0 && segment <= 65535 ? (uint16_t)segment : 0;
        } else if (header->cmsg_level == IPPROTO_IP && header->cmsg_type == IP_PKTINFO) {
            struct in_pktinfo info;
            memcpy(&info, CMSG_DATA(header), sizeof(info));
            struct sockaddr_in *address = (struct sockaddr_in *)datagram->destination;
            memset(datagram->destination, 0, sizeof(*datagram->destination));
            address->sin_family = AF_INET;
            address->sin_addr = info.ipi_addr;
            datagram->interface_index = (unsigned int)info.ipi_ifindex;
            datagram->has_destination = 1;
        } else if (header->cmsg_level == IPPROTO_IPV6 && header->cmsg_type == IPV6_PKTINFO) {
            struct in6_pktinfo info;
            memcpy(&info, CMSG_DATA(header), sizeof(info));
            struct sockaddr_in6 *address = (struct sockaddr_in6 *)datagram->destination;
            memset(datagram->destination, 0, sizeof(*datagram->destination));
            address->sin6_family = AF_INET6;
            address->sin6_addr = info.ipi6_addr;
            datagram->interface_index = info.ipi6_ifindex;
            datagram->has_destination = 1;
        }
    }
}

int ask_recv_datagrams(int fd, struct ask_incoming_datagram *datagrams, unsigned int count) {
    struct mmsghdr messages[ASK_MAX_RECEIVE_BATCH];
    struct iovec vectors[ASK_MAX_RECEIVE_BATCH];
    union ask_packet_info_space control[ASK_MAX_RECEIVE_BATCH];
    if (count > ASK_MAX_RECEIVE_BATCH) {
        count = ASK_MAX_RECEIVE_BATCH;
    }
    memset(messages, 0, sizeof(messages[0]) * count);
    for (unsigned int index = 0; index < count; index++) {
        vectors[index].iov_base = datagrams[index].buffer;
        vectors[index].iov_len = datagrams[index].capacity;
        struct msghdr *message = &messages[index].msg_hdr;
        message->msg_name = datagrams[index].source;
        message->msg_namelen = sizeof(*datagrams[index].source);
        message->msg_iov = &vectors[index];
        message->msg_iovlen = 1;
        message->msg_control = control[index].bytes;
        message->msg_controllen = sizeof(control[index].bytes);
    }
    int received;
    do {
        // MSG_TRUNC: each message's length is the datagram's real size, however small the buffer.
        received = recvmmsg(fd, messages, count, MSG_TRUNC, NULL);
    } while (received < 0 && errno == EINTR);
    for (int index = 0; index < received; index++) {
        datagrams[index].size = messages[index].msg_len;
        datagrams[index].source_length = messages[index].msg_hdr.msg_namelen;
        ask_read_destination(&messages[index].msg_hdr, &datagrams[index]);
    }
    return received;
}

ssize_t ask_send_datagram(int fd, const void *bytes, size_t count, const struct sockaddr *to, uint32_t to_length,
                          const struct sockaddr *from, unsigned int interface_index, uint16_t segment_size) {
    struct iovec vector = {.iov_base = (void *)bytes, .iov_len = count};
    union {
        char bytes[CMSG_SPACE(sizeof(struct in6_pktinfo)) + CMSG_SPACE(sizeof(uint16_t))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr message = {0};
    message.msg_name = (void *)to;
    message.msg_namelen = to ? to_length : 0;
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    size_t used = 0;
    struct cmsghdr *header = (struct cmsghdr *)control.bytes;
    if (from && from->sa_family == AF_INET) {
        header->cmsg_level = IPPROTO_IP;
        header->cmsg_type = IP_PKTINFO;
        header->cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo));
        struct in_pktinfo info = {0};
        info.ipi_spec_dst = ((const struct sockaddr_in *)from)->sin_addr;
        memcpy(CMSG_DATA(header), &info, sizeof(info));
        used += CMSG_SPACE(sizeof(struct in_pktinfo));
    } else if (from && from->sa_family == AF_INET6) {
        header->cmsg_level = IPPROTO_IPV6;
        header->cmsg_type = IPV6_PKTINFO;
        header->cmsg_len = CMSG_LEN(sizeof(struct in6_pktinfo));
        struct in6_pktinfo info = {0};
        info.ipi6_addr = ((const struct sockaddr_in6 *)from)->sin6_addr;
        info.ipi6_ifindex = interface_index;
        memcpy(CMSG_DATA(header), &info, sizeof(info));
        used += CMSG_SPACE(sizeof(struct in6_pktinfo));
    }
    if (segment_size > 0) {
        header = (struct cmsghdr *)(control.bytes + used);
        header->cmsg_level = SOL_UDP;
        header->cmsg_type = UDP_SEGMENT;
        header->cmsg_len = CMSG_LEN(sizeof(uint16_t));
        memcpy(CMSG_DATA(header), &segment_size, sizeof(segment_size));
        used += CMSG_SPACE(sizeof(uint16_t));
    }
    message.msg_controllen = used;
    if (used == 0) {
        message.msg_control = NULL;
    }
    ssize_t sent;
    do {
        sent = sendmsg(fd, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

int ask_send_datagrams(int fd, const struct ask_outgoing_datagram *datagrams, unsigned int count) {
    struct mmsghdr messages[ASK_MAX_SEND_BATCH];
    struct iovec vectors[ASK_MAX_SEND_BATCH];
    if (count > ASK_MAX_SEND_BATCH) {
        count = ASK_MAX_SEND_BATCH;
    }
    memset(messages, 0, sizeof(messages[0]) * count);
    for (unsigned int index = 0; index < count; index++) {
        vectors[index].iov_base = (void *)datagrams[index].bytes;
        vectors[index].iov_len = datagrams[index].count;
        messages[index].msg_hdr.msg_name = (void *)datagrams[index].to;
        messages[index].msg_hdr.msg_namelen = datagrams[index].to ? datagrams[index].to_length : 0;
        messages[index].msg_hdr.msg_iov = &vectors[index];
        messages[index].msg_hdr.msg_iovlen = 1;
    }
    int sent;
    do {
        sent = sendmmsg(fd, messages, count, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

int ask_set_receive_coalescing(int fd, int enabled) {
    int value = enabled ? 1 : 0;
    return setsockopt(fd, SOL_UDP, UDP_GRO, &value, sizeof(value));
}
