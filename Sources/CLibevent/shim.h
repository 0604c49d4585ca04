#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H
#include <event2/event.h>
#include <event2/thread.h>
#include <event2/util.h>
#include <event2/dns.h>
#endif
