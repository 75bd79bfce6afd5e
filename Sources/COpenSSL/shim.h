#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

// NB: EVP_CIPHER_CTX_ctrl takes a void pointer argument that Swift sees as optional raw memory;
// these keep the GCM tag handling in one readable place.
static inline int copenssl_gcm_get_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
  return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, length, tag);
}

static inline int copenssl_gcm_set_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
  return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, length, tag);
}

// NB: the key selections are macros built from other macros with `|`, which Swift does not
// import; these name them.
static inline int copenssl_selection_keypair(void) { return EVP_PKEY_KEYPAIR; }

static inline int copenssl_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }
