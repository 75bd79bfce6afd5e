// ICU's converters for the static release's libxml2: a converter that never opens.
//
// Debian's libxml2.a is built with ICU, which it asks for a converter only when the system's
// iconv does not know a document's declared encoding. Linking ICU statically would bring its
// data (some 30 MB) into the executable for that alone, so the static authflow is linked with
// these instead, and only it is (scripts/libxml2-static-flags compiles this file for that link
// alone, with ICU_SUFFIX set to the version suffix libxml2.a names, such as _72; anywhere else
// libxml2 keeps the system's ICU). libxml2 then behaves as one built without ICU: an encoding
// iconv does not know is unsupported, and the document is refused. authflow reads XML only as
// SAML metadata, which must be UTF-8 (GoTrue's decoder reads nothing else).

#include <stddef.h>
#include <stdint.h>

#ifndef ICU_SUFFIX
#error "ICU_SUFFIX must name ICU's version suffix (such as _72)"
#endif

#define ICU_JOIN(name, suffix) name##suffix
#define ICU_NAME(name, suffix) ICU_JOIN(name, suffix)
#define ICU(name) ICU_NAME(name, ICU_SUFFIX)

typedef int UErrorCode;
enum { U_FILE_ACCESS_ERROR = 4 };

// ucnv_open: no converter, with the error ICU gives for one whose data is missing.
void *ICU(ucnv_open)(const char *name, UErrorCode *error) {
  (void)name;
  if (error) *error = U_FILE_ACCESS_ERROR;
  return NULL;
}

// What libxml2 calls only on a converter that opened, which none does.
void ICU(ucnv_close)(void *converter) { (void)converter; }

void ICU(ucnv_setToUCallBack)(void *converter, void *action, const void *context,
                              void **old_action, const void **old_context, UErrorCode *error) {
  (void)converter, (void)action, (void)context, (void)old_action, (void)old_context;
  if (error) *error = U_FILE_ACCESS_ERROR;
}

void ICU(ucnv_setFromUCallBack)(void *converter, void *action, const void *context,
                                void **old_action, const void **old_context, UErrorCode *error) {
  (void)converter, (void)action, (void)context, (void)old_action, (void)old_context;
  if (error) *error = U_FILE_ACCESS_ERROR;
}

void ICU(ucnv_convertEx)(void *target_converter, void *source_converter, char **target,
                         const char *target_limit, const char **source, const char *source_limit,
                         uint16_t *pivot_start, uint16_t **pivot_source, uint16_t **pivot_target,
                         const uint16_t *pivot_limit, int8_t reset, int8_t flush,
                         UErrorCode *error) {
  (void)target_converter, (void)source_converter, (void)target, (void)target_limit;
  (void)source, (void)source_limit, (void)pivot_start, (void)pivot_source, (void)pivot_target;
  (void)pivot_limit, (void)reset, (void)flush;
  if (error) *error = U_FILE_ACCESS_ERROR;
}

// The callbacks libxml2 passes to the two above, by address only.
void ICU(UCNV_TO_U_CALLBACK_STOP)(void) {}
void ICU(UCNV_FROM_U_CALLBACK_STOP)(void) {}
