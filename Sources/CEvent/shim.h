// System headers first: libevent's event-config.h defines _GNU_SOURCE, and if glibc's headers
// were first read after that, fd_set (sys/select.h) would differ from SwiftGlibc's.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

// evsignal_new and evtimer_new are macros over event_new, which Swift cannot import.
static inline struct event *cevent_signal_new(struct event_base *base, int signum,
                                              event_callback_fn cb, void *arg) {
  return evsignal_new(base, signum, cb, arg);
}

// A timer, or a "user" event with no fd that another thread fires with event_active.
static inline struct event *cevent_timer_new(struct event_base *base, event_callback_fn cb,
                                             void *arg) {
  return evtimer_new(base, cb, arg);
}

static inline int cevent_add_ms(struct event *ev, long ms) {
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  return event_add(ev, &tv);
}

static inline int cevent_loopexit_ms(struct event_base *base, long ms) {
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  return event_base_loopexit(base, &tv);
}

// TAILQ_FIRST / TAILQ_NEXT over a header list (input headers, parsed query).
static inline struct evkeyval *cevent_header_first(struct evkeyvalq *headers) {
  return headers->tqh_first;
}
static inline struct evkeyval *cevent_header_next(struct evkeyval *header) {
  return header->next.tqe_next;
}

// A listening socket on a numeric IPv4 or IPv6 address (never a host name: a static executable
// has no NSS for getaddrinfo). Returns NULL with errno set (EINVAL for a non-numeric address).
static inline struct evconnlistener *cevent_listen_numeric(struct event_base *base,
                                                           const char *address,
                                                           unsigned short port, int backlog) {
  unsigned flags = LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC | LEV_OPT_REUSEABLE;
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    return evconnlistener_new_bind(base, NULL, NULL, flags, backlog, (struct sockaddr *)&v4,
                                   sizeof v4);
  }
  if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    return evconnlistener_new_bind(base, NULL, NULL, flags | LEV_OPT_BIND_IPV6ONLY, backlog,
                                   (struct sockaddr *)&v6, sizeof v6);
  }
  errno = EINVAL;
  return NULL;
}

// The port a listener is bound to (after binding port 0), or -1.
static inline int cevent_listener_port(struct evconnlistener *listener) {
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  if (getsockname(evconnlistener_get_fd(listener), (struct sockaddr *)&ss, &len) != 0) return -1;
  if (ss.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&ss)->sin_port);
  if (ss.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
  return -1;
}

// The evhttp_connection a bufferevent belongs to: evhttp installs its callbacks with the
// connection as their argument. NULL once the bufferevent was freed (bufferevent_free clears
// the callbacks), so hold a reference (bufferevent_incref) between the two calls.
static inline struct evhttp_connection *cevent_bufferevent_connection(struct bufferevent *bev) {
  void *arg = NULL;
  bufferevent_getcb(bev, NULL, NULL, NULL, &arg);
  return (struct evhttp_connection *)arg;
}

// The peer address of a server-side connection: its numeric host written into `host` (at least
// INET6_ADDRSTRLEN bytes) and its port into `port`. evhttp records the accepted address on the
// bufferevent (bufferevent_socket_set_conn_address_), and inet_ntop needs no name service.
// Returns 4 or 6 (the IP version), or -1 when the address is unknown.
static inline int cevent_connection_peer(struct evhttp_connection *evcon, char *host,
                                         socklen_t size, unsigned short *port) {
  const struct sockaddr *address = evhttp_connection_get_addr(evcon);
  if (address == NULL) return -1;
  if (address->sa_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
    if (inet_ntop(AF_INET, &v4->sin_addr, host, size) == NULL) return -1;
    *port = ntohs(v4->sin_port);
    return 4;
  }
  if (address->sa_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
    if (inet_ntop(AF_INET6, &v6->sin6_addr, host, size) == NULL) return -1;
    *port = ntohs(v6->sin6_port);
    return 6;
  }
  return -1;
}

// Whether `address` is a numeric IPv4 or IPv6 address (what cevent_listen_numeric accepts).
static inline int cevent_is_numeric_address(const char *address) {
  struct in6_addr scratch;
  return inet_pton(AF_INET, address, &scratch) == 1 || inet_pton(AF_INET6, address, &scratch) == 1;
}

// An event base that reads the clock afresh for every timer it sets. With libevent's default
// cached time, a timer set late in a long pass of callbacks (a loaded machine can pause the
// loop's thread) would count from when the pass began, and fire early.
static inline struct event_base *cevent_base_new_uncached(void) {
  struct event_config *config = event_config_new();
  if (config == NULL) return NULL;
  event_config_set_flag(config, EVENT_BASE_FLAG_NO_CACHE_TIME);
  struct event_base *base = event_base_new_with_config(config);
  event_config_free(config);
  return base;
}
