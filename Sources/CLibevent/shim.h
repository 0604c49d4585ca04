#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H
// libevent's event-config.h defines _GNU_SOURCE. System headers it reaches first would then be
// configured differently here than in every other C module (Glibc, Dispatch, our shims), and Clang
// rejects the differing definitions (fd_set). So the system headers come first, configured as
// everywhere else, and libevent's include guards find them already done.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <event2/util.h>
#include <event2/dns.h>
#endif
