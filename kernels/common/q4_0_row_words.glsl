// A Q4_0 row's words staged in shared memory by its workgroup, for the workgroup-per-row
// shaders: the row's blocks are 18 bytes apart, so per-thread block loads would be strided and
// narrow; the workgroup copies the row with coalesced loads (ITEMS per thread, all in flight
// together) instead. Needs the buffer w[], the constants ITEMS and ROW_WORDS and row_prologue.glsl
// (ROW_ITEMS) first.
shared uint row_words[ROW_WORDS + 1];

void stage_row(uint base) {
  const uint lid = gl_LocalInvocationID.x;
  ROW_ITEMS(uint, staged, w, base, ROW_WORDS, lid, 0u);
  for (uint j = 0; j < ITEMS; ++j) {
    const uint i = lid + j * gl_WorkGroupSize.x;
    if (i < ROW_WORDS) row_words[i] = staged[j];
  }
  if (lid == 0) row_words[ROW_WORDS] = 0u;  // word_at may read one past a block's end
  barrier();
}

// The 32 bits at a byte offset of the row that is a multiple of 2.
uint word_at(uint byte_offset) {
  const uint i = byte_offset / 4;
  return (byte_offset & 2u) == 0u ? row_words[i] : (row_words[i] >> 16) | (row_words[i + 1] << 16);
}
