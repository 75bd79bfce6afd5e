#include <openssl/crypto.h>
#include <openssl/evp.h>

// NB: EVP_CIPHER_CTX_ctrl takes a void pointer argument that Swift sees as optional raw memory;
// these keep the GCM tag handling in one readable place.
static inline int copenssl_gcm_get_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
  return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, length, tag);
}

static inline int copenssl_gcm_set_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
  return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, length, tag);
}
