// Only the Keccak-f[1600] permutation: OpenSSL 3.0 has no Keccak-256 (Ethereum's hash, SHA-3
// before its padding changed), and nettle exposes the permutation SHA-3 is built on.
#include <nettle/sha3.h>
