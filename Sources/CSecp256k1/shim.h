#include <secp256k1.h>
#include <secp256k1_recovery.h>

// NB: the flags are macros built from other macros with `|`, which Swift does not import;
// these name them.
static inline unsigned int csecp256k1_context_none(void) { return SECP256K1_CONTEXT_NONE; }

static inline unsigned int csecp256k1_uncompressed(void) { return SECP256K1_EC_UNCOMPRESSED; }
