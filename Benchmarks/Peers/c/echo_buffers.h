/* The echo servers' buffer and line logic, shared by echo_epoll.c and echo_libevent_ev.c, which differ
 * only in how they wait for events. The including file defines first: BUFSZ, `conn` (with fd, line, in,
 * inlen, out, outoff, outlen, outcap), `static char rbuf[BUFSZ]`, `set_events(conn *, int out)` (watch
 * for writability, or for readability again) and `conn_close(conn *)`.
 */
static void out_append(conn *c, const char *p, size_t n) {
    if (c->outlen + n > c->outcap) {
        if (c->outoff) { memmove(c->out, c->out + c->outoff, c->outlen - c->outoff); c->outlen -= c->outoff; c->outoff = 0; }
        if (c->outlen + n > c->outcap) {
            size_t cap = c->outcap ? c->outcap : BUFSZ;
            while (cap < c->outlen + n) cap *= 2;
            c->out = realloc(c->out, cap);
            c->outcap = cap;
        }
    }
    memcpy(c->out + c->outlen, p, n);
    c->outlen += n;
}

/* returns -1 on fatal error */
static int flush_out(conn *c) {
    while (c->outoff < c->outlen) {
        ssize_t w = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
        if (w > 0) { c->outoff += (size_t)w; continue; }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) { set_events(c, 1); return 0; }
        return -1;
    }
    c->outoff = c->outlen = 0;
    set_events(c, 0);
    return 0;
}

static void on_readable(conn *c) {
    ssize_t n = recv(c->fd, rbuf, BUFSZ, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) { conn_close(c); return; }
    if (n < 0) return;
    if (!c->line) {
        /* fast path: write straight from rbuf, keep only the remainder */
        size_t off = 0;
        while (off < (size_t)n) {
            ssize_t w = send(c->fd, rbuf + off, (size_t)n - off, MSG_NOSIGNAL);
            if (w > 0) { off += (size_t)w; continue; }
            if (w < 0 && errno == EINTR) continue;
            if (w < 0 && errno == EAGAIN) break;
            conn_close(c); return;
        }
        if (off < (size_t)n) { out_append(c, rbuf + off, (size_t)n - off); set_events(c, 1); }
        return;
    }
    /* line mode */
    const char *p = rbuf, *end = rbuf + n;
    if (c->inlen) { /* complete the carried-over partial line first */
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            c->in = realloc(c->in, c->inlen + (size_t)n);
            memcpy(c->in + c->inlen, p, (size_t)n); c->inlen += (size_t)n;
            return;
        }
        size_t k = (size_t)(nl - p) + 1;
        out_append(c, c->in, c->inlen);
        out_append(c, p, k);
        c->inlen = 0;
        p += k;
    }
    const char *nl;
    while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        size_t k = (size_t)(nl - p) + 1;
        out_append(c, p, k); /* one line */
        p += k;
    }
    if (p < end) {
        c->in = realloc(c->in, (size_t)(end - p));
        memcpy(c->in, p, (size_t)(end - p));
        c->inlen = (size_t)(end - p);
    }
    if (flush_out(c) < 0) conn_close(c);
}
