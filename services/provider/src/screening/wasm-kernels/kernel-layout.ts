/**
 * The memory of the WebAssembly kernels, stated once. `WasmKernels` places the regions below; kernels.wat takes
 * their addresses as parameters, and marks each literal it holds of this table with the name it has here
 * (`(i32.const 7 (; RECORD_SHIFT ;))`): a test fails while one differs. In byte addresses:
 * - `OUT`: the record count of the last `scan` (i32); at `TOUCHED_AT` what `reach` touched (kept, so that its
 *   first reads are not optimized away); from `OUT + RECORDS_FROM`, up to `RECORDS` records of
 *   `1 << RECORD_SHIFT` bytes, one per block of 128 strings with a survivor: the block (i32), at
 *   `RECORD_SURVIVORS` the survivors (v128: bit i of lane j set when string 128 block + 32 j + i lacks no more
 *   than allowed), from `RECORD_PLANES` the `PLANES` bit planes of the counters, `PLANE_BYTES` apart (v128 each,
 *   bit i of lane j of plane p: bit p of that string's counter);
 * - `ROWS_AT`: one i32 per query token, the byte address of its row; a row holds one v128 per block, bit i of
 *   lane j set when the string at 128 block + 32 j + i holds the token;
 * - `BATCH_AT`: `BATCH` (start, end, need) triples of i32 for `reach`, `TRIPLE_BYTES` each (end at `TRIPLE_END`,
 *   need at `TRIPLE_NEED`), which writes over each need a number at least need exactly when the LCS of
 *   codes[start .. end) reaches it;
 * - `MASKS_AT`: one i64 per symbol, bit i set where the query holds it at position i (the query's symbols only);
 * - then, sized by what a kernel holds (`WasmKernels`): `jaro`'s positions (one i64 per symbol, zero between
 *   calls), query and matched symbols (`MAX_REACH_QUERY` i32 each); the strings' `starts` (read by `LackCounter`
 *   only) and `codes`, codes[starts[p] .. starts[p + 1]) for position p, one byte a symbol or two (`wide`); the
 *   token rows, 16-byte aligned.
 */
export const OUT = 0
export const TOUCHED_AT = 4
export const RECORDS_FROM = 16
/** Blocks with a survivor written per `scan` call: 8 KB of records. */
export const RECORDS = 64
export const RECORD_SHIFT = 7
export const RECORD_SURVIVORS = 16
export const RECORD_PLANES = 32
export const PLANE_BYTES = 16
/** Counter planes: up to 62 missing characters are told apart. */
export const PLANES = 6
/** Room for the rows of 1024 tokens. */
export const ROWS_AT = OUT + RECORDS_FROM + (RECORDS << RECORD_SHIFT)
/** (start, end, need) triples per `reach` call. */
export const BATCH = 64
export const TRIPLE_BYTES = 12
export const TRIPLE_END = 4
export const TRIPLE_NEED = 8
export const BATCH_AT = ROWS_AT + 4096
export const MASKS_AT = BATCH_AT + BATCH * TRIPLE_BYTES
/** Query characters `reach` and `jaro` take: a row, or a string's positions of a symbol, is one i64. */
export const MAX_REACH_QUERY = 64

/** Fields in 32-bit words, as `WasmKernels.words` and `batch` are read. */
export const RECORD_SURVIVORS_WORD = RECORD_SURVIVORS / 4
export const RECORD_PLANES_WORD = RECORD_PLANES / 4
export const PLANE_WORDS = PLANE_BYTES / 4
export const TRIPLE_WORDS = TRIPLE_BYTES / 4
export const TRIPLE_END_WORD = TRIPLE_END / 4
export const TRIPLE_NEED_WORD = TRIPLE_NEED / 4

/** The names kernels.wat may mark its literals with. */
export const KERNEL_LAYOUT: Readonly<Record<string, number>> = {
  OUT,
  TOUCHED_AT,
  RECORDS_FROM,
  RECORDS,
  RECORD_SHIFT,
  RECORD_SURVIVORS,
  RECORD_PLANES,
  PLANE_BYTES,
  PLANES,
  ROWS_AT,
  BATCH,
  TRIPLE_BYTES,
  TRIPLE_END,
  TRIPLE_NEED,
  BATCH_AT,
  MASKS_AT,
  MAX_REACH_QUERY,
}
