/* The crypto example's kernels (portable C, no intrinsics). */
#ifndef MLGO_CRYPTO_H
#define MLGO_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

/* XORs data with the ChaCha20 key stream of key, nonce and counter (RFC 8439). */
void chacha20_xor(uint8_t *data, size_t len, const uint32_t key[8], const uint32_t nonce[3],
                  uint32_t counter);

/* SHA-256 of data (FIPS 180-4). */
void sha256(const uint8_t *data, size_t len, uint8_t digest[32]);

/* CRC-32 (IEEE, reflected), bytewise with a table. */
uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len);

#endif
