// Debian's libxml2-dev puts libxml2's headers in their own folder (pkg-config's cflags name it).
#include <libxml/parser.h>
#include <libxml/tree.h>

// NB: xmlFree is a global function pointer in libxml2 2.9, which Swift imports as a mutable
// global (not concurrency-safe); this calls it.
static inline void cxml2_free(void *pointer) { xmlFree(pointer); }
