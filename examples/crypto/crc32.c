/* CRC-32 with a 256-entry table built on first use. */
#include "crypto.h"

static uint32_t table[256];

uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len) {
  if (!table[1])
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
  crc = ~crc;
  for (size_t i = 0; i < len; ++i)
    crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}
