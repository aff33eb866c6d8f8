// A Q4_0 quant word times x, bias included, with few integer instructions: the decode, not
// memory, bounds the kernel on NVIDIA otherwise (integer instructions issue at half the FP32
// rate there, and an integer-to-float conversion at a quarter).
//
// A nibble n at bit offset o < 23 ORed into the float 2^23 (whose ulp is 1) reads as
// 2^23 + n 2^o; subtracting 2^23 + 8 2^o leaves (n - 8) 2^o exactly. So the word q (and q >> 16)
// are decoded in place at offsets 0, 4, 8, 12, one AND-OR per nibble and no shift, and each
// offset's products are scaled back by 2^-o once, exactly, at the end.
//
// Byte j of q holds elements 4i + j (low nibble) and 16 + 4i + j (high nibble); xa holds x of
// elements 4i..4i+3 and xb of 16+4i..19+4i.
float nibble_at(uint q, uint offset) {
  return uintBitsToFloat((q & (0xfu << offset)) | 0x4b000000u) - (8388608.0 + float(8u << offset));
}

float quant_word_dot(uint q, vec4 xa, vec4 xb) {
  const uint r = q >> 16;
  const float at0 = nibble_at(q, 0) * xa.x + nibble_at(r, 0) * xa.z;    // low nibbles, bytes 0, 2
  const float at4 = nibble_at(q, 4) * xb.x + nibble_at(r, 4) * xb.z;    // high nibbles, bytes 0, 2
  const float at8 = nibble_at(q, 8) * xa.y + nibble_at(r, 8) * xa.w;    // low nibbles, bytes 1, 3
  const float at12 = nibble_at(q, 12) * xb.y + nibble_at(r, 12) * xb.w; // high nibbles, bytes 1, 3
  return at0 + at4 * (1.0 / 16.0) + at8 * (1.0 / 256.0) + at12 * (1.0 / 4096.0);
}
