// GSSAPI and LDAP for the static release's libpq: functions that always fail.
//
// Debian's libpq.a calls MIT Kerberos' GSSAPI (GSS encryption and authentication) and
// OpenLDAP (service names looked up in LDAP), and neither can be linked statically: libkrb5-dev
// ships no static archives, and libldap.a needs GnuTLS, whose static archive needs p11-kit,
// which ships none. So the static authflow is linked with these instead, and only it is
// (scripts/libpq-static-flags compiles this file for that link alone; anywhere else libpq
// keeps the system's libraries). libpq then behaves as a libpq built without them:
// - gssencmode=prefer (the default) finds no credentials and goes on without GSS encryption;
//   gssencmode=require fails to connect, saying GSSAPI encryption was impossible;
// - a server that asks for GSSAPI authentication gets a failed connection whose message says
//   GSSAPI is not available;
// - a service file entry that names an ldap:// URL fails with "could not create LDAP
//   structure".
// Nothing here returns success for a security decision, and nothing crashes.

#include <stddef.h>
#include <stdint.h>

typedef uint32_t OM_uint32;
typedef struct {
  size_t length;
  void *value;
} gss_buffer_desc;

enum { GSS_S_COMPLETE = 0, GSS_S_FAILURE = 13 << 16 };

static const char gss_unavailable[] = "GSSAPI is not available in the static authflow";

void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

static OM_uint32 gss_fail(OM_uint32 *minor) {
  if (minor) *minor = 0;
  return GSS_S_FAILURE;
}

static OM_uint32 gss_done(OM_uint32 *minor) {
  if (minor) *minor = 0;
  return GSS_S_COMPLETE;
}

OM_uint32 gss_acquire_cred(OM_uint32 *minor, void *name, OM_uint32 time, void *mechanisms,
                           int usage, void **credential, void **actual, OM_uint32 *time_left) {
  (void)name, (void)time, (void)mechanisms, (void)usage, (void)actual, (void)time_left;
  if (credential) *credential = NULL;
  return gss_fail(minor);
}

OM_uint32 gss_import_name(OM_uint32 *minor, gss_buffer_desc *input, void *type, void **name) {
  (void)input, (void)type;
  if (name) *name = NULL;
  return gss_fail(minor);
}

OM_uint32 gss_init_sec_context(OM_uint32 *minor, void *credential, void **context, void *target,
                               void *mechanism, OM_uint32 flags, OM_uint32 time, void *bindings,
                               gss_buffer_desc *input, void **actual, gss_buffer_desc *output,
                               OM_uint32 *returned_flags, OM_uint32 *time_left) {
  (void)credential, (void)context, (void)target, (void)mechanism, (void)flags, (void)time;
  (void)bindings, (void)input, (void)actual, (void)returned_flags, (void)time_left;
  if (output) *output = (gss_buffer_desc){0, NULL};
  return gss_fail(minor);
}

OM_uint32 gss_wrap(OM_uint32 *minor, void *context, int confidential, OM_uint32 quality,
                   gss_buffer_desc *input, int *state, gss_buffer_desc *output) {
  (void)context, (void)confidential, (void)quality, (void)input, (void)state;
  if (output) *output = (gss_buffer_desc){0, NULL};
  return gss_fail(minor);
}

OM_uint32 gss_unwrap(OM_uint32 *minor, void *context, gss_buffer_desc *input,
                     gss_buffer_desc *output, int *state, OM_uint32 *quality) {
  (void)context, (void)input, (void)state, (void)quality;
  if (output) *output = (gss_buffer_desc){0, NULL};
  return gss_fail(minor);
}

OM_uint32 gss_wrap_size_limit(OM_uint32 *minor, void *context, int confidential,
                              OM_uint32 quality, OM_uint32 size, OM_uint32 *maximum) {
  (void)context, (void)confidential, (void)quality, (void)size;
  if (maximum) *maximum = 0;
  return gss_fail(minor);
}

// One message, which libpq appends to its error; the text is static, so nothing is freed.
OM_uint32 gss_display_status(OM_uint32 *minor, OM_uint32 status, int type, void *mechanism,
                             OM_uint32 *context, gss_buffer_desc *message) {
  (void)status, (void)type, (void)mechanism;
  if (context) *context = 0;
  if (message) *message = (gss_buffer_desc){sizeof gss_unavailable - 1, (void *)gss_unavailable};
  return gss_done(minor);
}

OM_uint32 gss_release_buffer(OM_uint32 *minor, gss_buffer_desc *buffer) {
  if (buffer) *buffer = (gss_buffer_desc){0, NULL};
  return gss_done(minor);
}

OM_uint32 gss_release_cred(OM_uint32 *minor, void **credential) {
  if (credential) *credential = NULL;
  return gss_done(minor);
}

OM_uint32 gss_release_name(OM_uint32 *minor, void **name) {
  if (name) *name = NULL;
  return gss_done(minor);
}

OM_uint32 gss_delete_sec_context(OM_uint32 *minor, void **context, gss_buffer_desc *output) {
  if (context) *context = NULL;
  if (output) *output = (gss_buffer_desc){0, NULL};
  return gss_done(minor);
}

// LDAP: no handle is ever made, so libpq stops at ldap_init; the rest fail as well.
enum { LDAP_OTHER = 0x50 };

static char ldap_unavailable[] = "LDAP is not available in the static authflow";

void *ldap_init(const char *host, int port) {
  (void)host, (void)port;
  return NULL;
}

int ldap_set_option(void *ld, int option, const void *value) {
  (void)ld, (void)option, (void)value;
  return -1;
}

int ldap_simple_bind(void *ld, const char *who, const char *password) {
  (void)ld, (void)who, (void)password;
  return -1;
}

int ldap_result(void *ld, int id, int all, void *timeout, void **result) {
  (void)ld, (void)id, (void)all, (void)timeout;
  if (result) *result = NULL;
  return -1;
}

int ldap_search_st(void *ld, const char *base, int scope, const char *filter, char **attributes,
                   int names_only, void *timeout, void **result) {
  (void)ld, (void)base, (void)scope, (void)filter, (void)attributes, (void)names_only;
  (void)timeout;
  if (result) *result = NULL;
  return LDAP_OTHER;
}

int ldap_count_entries(void *ld, void *chain) {
  (void)ld, (void)chain;
  return -1;
}

void *ldap_first_entry(void *ld, void *chain) {
  (void)ld, (void)chain;
  return NULL;
}

void **ldap_get_values_len(void *ld, void *entry, const char *attribute) {
  (void)ld, (void)entry, (void)attribute;
  return NULL;
}

void ldap_value_free_len(void **values) { (void)values; }

int ldap_msgfree(void *message) {
  (void)message;
  return 0;
}

int ldap_unbind(void *ld) {
  (void)ld;
  return 0;
}

char *ldap_err2string(int error) {
  (void)error;
  return ldap_unavailable;
}
