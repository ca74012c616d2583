;; The WebAssembly SIMD kernels of the Jaro-Winkler index, three algorithms: `scan` counts the query's letters each
;; string lacks, 128 strings per operation (`LackCounter.survivors`); `reach` tells whether survivors' LCS with the
;; query reaches what their Jaro-Winkler bound needs, and `jaro` counts their Jaro matches and transpositions
;; (`SurvivorCheck`).
;; Compiled by `pnpm --filter @pf/provider wasm` into kernels-wasm.ts; a test keeps the two in step.
;;
;; Memory: as kernel-layout.ts states, once. The regions' addresses come as parameters; a literal that is part of
;; the layout carries the table's name for it in a comment, `(; RECORD_SHIFT ;)`, and a test holds the two equal.
;;
;; Counters start at 63 − allowed (`start`): one lack more than allowed carries out of the top plane. Two tokens
;; are added at a time (a half adder, then a full adder on plane 1 and a ripple above), and a block is left as
;; soon as every one of its strings has overflowed, as in lack-counter.ts's description.
(module
  (memory (export "memory") 1)

  ;; Scans blocks [from, to) with `count` tokens whose row offsets are at `rows`; writes a record per block
  ;; with a survivor, at most `cap`, and returns the block it stopped at (`to` when all were scanned).
  (func (export "scan")
    (param $rows i32) (param $count i32) (param $from i32) (param $to i32) (param $start i32)
    (param $out i32) (param $cap i32) (result i32)
    (local $block i32) (local $at i32) (local $k i32) (local $n i32) (local $record i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $s4 v128) (local $s5 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $c4 v128) (local $c5 v128)
    (local $over v128) (local $x v128) (local $y v128) (local $ones v128) (local $twos v128)
    (local $carry v128) (local $sum v128) (local $next v128)
    (local.set $s0 (i32x4.splat (i32.sub (i32.const 0) (i32.and (local.get $start) (i32.const 1)))))
    (local.set $s1 (i32x4.splat (i32.sub (i32.const 0) (i32.and (i32.shr_u (local.get $start) (i32.const 1)) (i32.const 1)))))
    (local.set $s2 (i32x4.splat (i32.sub (i32.const 0) (i32.and (i32.shr_u (local.get $start) (i32.const 2)) (i32.const 1)))))
    (local.set $s3 (i32x4.splat (i32.sub (i32.const 0) (i32.and (i32.shr_u (local.get $start) (i32.const 3)) (i32.const 1)))))
    (local.set $s4 (i32x4.splat (i32.sub (i32.const 0) (i32.and (i32.shr_u (local.get $start) (i32.const 4)) (i32.const 1)))))
    (local.set $s5 (i32x4.splat (i32.sub (i32.const 0) (i32.and (i32.shr_u (local.get $start) (i32.const 5)) (i32.const 1)))))
    (local.set $block (local.get $from))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $block) (local.get $to)))
        (br_if $done (i32.ge_u (local.get $n) (local.get $cap)))
        (local.set $at (i32.shl (local.get $block) (i32.const 4)))
        (local.set $c0 (local.get $s0))
        (local.set $c1 (local.get $s1))
        (local.set $c2 (local.get $s2))
        (local.set $c3 (local.get $s3))
        (local.set $c4 (local.get $s4))
        (local.set $c5 (local.get $s5))
        (local.set $over (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $overflowed
          (block $pairs_done
            (loop $pairs
              (br_if $pairs_done (i32.ge_s (i32.add (local.get $k) (i32.const 1)) (local.get $count)))
              (local.set $x (v128.not (v128.load (i32.add (local.get $at)
                (i32.load (i32.add (local.get $rows) (i32.shl (local.get $k) (i32.const 2))))))))
              (local.set $y (v128.not (v128.load (i32.add (local.get $at)
                (i32.load offset=4 (i32.add (local.get $rows) (i32.shl (local.get $k) (i32.const 2))))))))
              (local.set $ones (v128.xor (local.get $x) (local.get $y)))
              (local.set $twos (v128.and (local.get $x) (local.get $y)))
              (local.set $carry (v128.and (local.get $c0) (local.get $ones)))
              (local.set $c0 (v128.xor (local.get $c0) (local.get $ones)))
              (local.set $sum (v128.xor (local.get $c1) (local.get $carry)))
              (local.set $carry (v128.or (v128.and (local.get $c1) (local.get $carry))
                (v128.and (local.get $sum) (local.get $twos))))
              (local.set $c1 (v128.xor (local.get $sum) (local.get $twos)))
              (local.set $next (v128.and (local.get $c2) (local.get $carry)))
              (local.set $c2 (v128.xor (local.get $c2) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c3) (local.get $carry)))
              (local.set $c3 (v128.xor (local.get $c3) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c4) (local.get $carry)))
              (local.set $c4 (v128.xor (local.get $c4) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c5) (local.get $carry)))
              (local.set $c5 (v128.xor (local.get $c5) (local.get $carry)))
              (local.set $over (v128.or (local.get $over) (local.get $next)))
              (br_if $overflowed (i32.eqz (v128.any_true (v128.not (local.get $over)))))
              (local.set $k (i32.add (local.get $k) (i32.const 2)))
              (br $pairs)))
          ;; The odd token left: an increment by one.
          (if (i32.lt_s (local.get $k) (local.get $count))
            (then
              (local.set $carry (v128.not (v128.load (i32.add (local.get $at)
                (i32.load (i32.add (local.get $rows) (i32.shl (local.get $k) (i32.const 2))))))))
              (local.set $next (v128.and (local.get $c0) (local.get $carry)))
              (local.set $c0 (v128.xor (local.get $c0) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c1) (local.get $carry)))
              (local.set $c1 (v128.xor (local.get $c1) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c2) (local.get $carry)))
              (local.set $c2 (v128.xor (local.get $c2) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c3) (local.get $carry)))
              (local.set $c3 (v128.xor (local.get $c3) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c4) (local.get $carry)))
              (local.set $c4 (v128.xor (local.get $c4) (local.get $carry)))
              (local.set $carry (local.get $next))
              (local.set $next (v128.and (local.get $c5) (local.get $carry)))
              (local.set $c5 (v128.xor (local.get $c5) (local.get $carry)))
              (local.set $over (v128.or (local.get $over) (local.get $next)))))
          (br_if $overflowed (i32.eqz (v128.any_true (v128.not (local.get $over)))))
          (local.set $record (i32.add (i32.add (local.get $out) (i32.const 16 (; RECORDS_FROM ;)))
            (i32.shl (local.get $n) (i32.const 7 (; RECORD_SHIFT ;)))))
          (i32.store (local.get $record) (local.get $block))
          (v128.store offset=16 (; RECORD_SURVIVORS ;) (local.get $record) (v128.not (local.get $over)))
          (v128.store offset=32 (; RECORD_PLANES ;) (local.get $record) (local.get $c0))
          (v128.store offset=48 (; RECORD_PLANES + PLANE_BYTES ;) (local.get $record) (local.get $c1))
          (v128.store offset=64 (; RECORD_PLANES + 2 * PLANE_BYTES ;) (local.get $record) (local.get $c2))
          (v128.store offset=80 (; RECORD_PLANES + 3 * PLANE_BYTES ;) (local.get $record) (local.get $c3))
          (v128.store offset=96 (; RECORD_PLANES + 4 * PLANE_BYTES ;) (local.get $record) (local.get $c4))
          (v128.store offset=112 (; RECORD_PLANES + 5 * PLANE_BYTES ;) (local.get $record) (local.get $c5))
          (local.set $n (i32.add (local.get $n) (i32.const 1))))
        (local.set $block (i32.add (local.get $block) (i32.const 1)))
        (br $blocks)))
    (i32.store (local.get $out) (local.get $n))
    (local.get $block))
  ;; For each of the `count` (start, end, need) triples at `batch`, whether the longest common subsequence of the
  ;; query with the string codes[start .. end) reaches need: writes over need the LCS of the string's first
  ;; characters, as far as it takes to tell, so a number at least need exactly when the whole LCS is; −1 for a
  ;; string starting with the symbol `excluded` (−1: none), whatever its need. The bit-parallel row of Allison
  ;; and Dix (Hyyrö 2004) in one i64, for a query of `a` characters (1 to 64). The strings' first symbols are all
  ;; read first: loads that do not wait on one another, so that their cache misses overlap instead of coming one
  ;; by one.
  (func (export "reach")
    (param $batch i32) (param $count i32) (param $masks i32) (param $codes i32) (param $wide i32) (param $a i32)
    (param $excluded i32)
    (local $i i32) (local $item i32) (local $j i32) (local $end i32) (local $touched i32) (local $first i32)
    (local $row i64) (local $u i64) (local $top i64) (local $need i32) (local $lcs i32) (local $stop i32)
    (local.set $top (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (local.get $a)))))
    (block $touched_all
      (loop $touch
        (br_if $touched_all (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $j (i32.load (i32.add (local.get $batch) (i32.mul (local.get $i) (i32.const 12 (; TRIPLE_BYTES ;))))))
        (local.set $touched (i32.or (local.get $touched)
          (i32.load8_u (i32.add (local.get $codes) (i32.shl (local.get $j) (local.get $wide))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $touch)))
    (i32.store (i32.const 4 (; TOUCHED_AT ;)) (local.get $touched))
    (local.set $i (i32.const 0))
    (block $done
      (loop $items
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $item (i32.add (local.get $batch) (i32.mul (local.get $i) (i32.const 12 (; TRIPLE_BYTES ;)))))
        (local.set $j (i32.load (local.get $item)))
        (local.set $end (i32.load offset=4 (; TRIPLE_END ;) (local.get $item)))
        (local.set $row (i64.const -1))
        (local.set $need (i32.load offset=8 (; TRIPLE_NEED ;) (local.get $item)))
        (local.set $lcs (i32.const 0))
        (if (i32.lt_u (local.get $j) (local.get $end))
          (then
            (local.set $first (if (result i32) (local.get $wide)
              (then (i32.load16_u (i32.add (local.get $codes) (i32.shl (local.get $j) (i32.const 1)))))
              (else (i32.load8_u (i32.add (local.get $codes) (local.get $j))))))
            (if (i32.eq (local.get $first) (local.get $excluded))
              (then
                (local.set $lcs (i32.const -1))
                (local.set $need (i32.const -1))))))
        ;; The LCS grows by at most one per character: with `lcs` so far and end − j characters to go, the answer
        ;; is not known before min(lcs + end − j − need + 1, need − lcs) more, so the row is counted only then.
        (block $known
          (loop $steps
            (br_if $known (i32.ge_s (local.get $lcs) (local.get $need)))
            (br_if $known (i32.lt_s (i32.add (local.get $lcs) (i32.sub (local.get $end) (local.get $j))) (local.get $need)))
            (local.set $stop (i32.add (i32.add (local.get $lcs) (i32.sub (local.get $end) (local.get $j)))
              (i32.sub (i32.const 1) (local.get $need))))
            (if (i32.gt_s (local.get $stop) (i32.sub (local.get $need) (local.get $lcs)))
              (then (local.set $stop (i32.sub (local.get $need) (local.get $lcs)))))
            (local.set $stop (i32.add (local.get $j) (local.get $stop)))
            ;; One loop per symbol size: the size is known for the whole layout, not tested per character.
            (if (local.get $wide)
              (then
                (block $wide_done
                  (loop $wide_row
                    (br_if $wide_done (i32.ge_u (local.get $j) (local.get $stop)))
                    (local.set $u (i64.and (local.get $row) (i64.load (i32.add (local.get $masks)
                      (i32.shl (i32.load16_u (i32.add (local.get $codes) (i32.shl (local.get $j) (i32.const 1)))) (i32.const 3))))))
                    (local.set $row (i64.or (i64.add (local.get $row) (local.get $u))
                      (i64.and (local.get $row) (i64.xor (local.get $u) (i64.const -1)))))
                    (local.set $j (i32.add (local.get $j) (i32.const 1)))
                    (br $wide_row))))
              (else
                (block $narrow_done
                  (loop $narrow_row
                    (br_if $narrow_done (i32.ge_u (local.get $j) (local.get $stop)))
                    (local.set $u (i64.and (local.get $row) (i64.load (i32.add (local.get $masks)
                      (i32.shl (i32.load8_u (i32.add (local.get $codes) (local.get $j))) (i32.const 3))))))
                    (local.set $row (i64.or (i64.add (local.get $row) (local.get $u))
                      (i64.and (local.get $row) (i64.xor (local.get $u) (i64.const -1)))))
                    (local.set $j (i32.add (local.get $j) (i32.const 1)))
                    (br $narrow_row)))))
            (local.set $lcs (i32.wrap_i64 (i64.popcnt (i64.and (i64.xor (local.get $row) (i64.const -1)) (local.get $top)))))
            (br $steps)))
        (i32.store offset=8 (; TRIPLE_NEED ;) (local.get $item) (local.get $lcs))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $items))))
  ;; The symbol at index k of `codes` (one byte each, or two when `wide`).
  (func $symbolAt (param $codes i32) (param $wide i32) (param $k i32) (result i32)
    (if (result i32) (local.get $wide)
      (then (i32.load16_u (i32.add (local.get $codes) (i32.shl (local.get $k) (i32.const 1)))))
      (else (i32.load8_u (i32.add (local.get $codes) (local.get $k))))))
  ;; Jaro's matching characters and transpositions of the query (its `a` symbols at `query`, −1 for one no string
  ;; holds) with the string codes[start .. end), as `jaroAtLeast` counts them: each query character in turn takes
  ;; the first free equal character of the string within the window, found from the string's positions of each
  ;; symbol (`positions`: one i64 per symbol, set here and cleared before returning; `matched`: the query's
  ;; matched symbols in order). Both at most 64 long. Returns matches + 256 × transpositions, or −1 as soon as
  ;; fewer than `least` can still match.
  (func (export "jaro")
    (param $start i32) (param $end i32) (param $query i32) (param $a i32) (param $positions i32)
    (param $matched i32) (param $codes i32) (param $wide i32) (param $least i32) (result i32)
    (local $b i32) (local $j i32) (local $i i32) (local $at i32) (local $window i32) (local $lo i32) (local $hi i32)
    (local $used i64) (local $found i64) (local $m i32) (local $t i32) (local $symbol i32) (local $result i32)
    (local.set $b (i32.sub (local.get $end) (local.get $start)))
    (block $set
      (loop $each
        (br_if $set (i32.ge_u (local.get $j) (local.get $b)))
        (local.set $at (i32.add (local.get $positions) (i32.shl (call $symbolAt (local.get $codes) (local.get $wide)
          (i32.add (local.get $start) (local.get $j))) (i32.const 3))))
        (i64.store (local.get $at) (i64.or (i64.load (local.get $at))
          (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $j)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $each)))
    ;; max(0, floor(max(a, b) / 2) − 1)
    (local.set $window (i32.sub (i32.shr_u
      (select (local.get $a) (local.get $b) (i32.gt_u (local.get $a) (local.get $b))) (i32.const 1)) (i32.const 1)))
    (if (i32.lt_s (local.get $window) (i32.const 0)) (then (local.set $window (i32.const 0))))
    (local.set $result (i32.const -1))
    (block $gave_up
      (block $counted
        (loop $each_query
          (br_if $counted (i32.ge_u (local.get $i) (local.get $a)))
          (local.set $symbol (i32.load (i32.add (local.get $query) (i32.shl (local.get $i) (i32.const 2)))))
          (local.set $lo (i32.sub (local.get $i) (local.get $window)))
          (if (i32.lt_s (local.get $lo) (i32.const 0)) (then (local.set $lo (i32.const 0))))
          (local.set $hi (i32.add (i32.add (local.get $i) (local.get $window)) (i32.const 1)))
          (if (i32.gt_s (local.get $hi) (local.get $b)) (then (local.set $hi (local.get $b))))
          (if (i32.and (i32.ge_s (local.get $symbol) (i32.const 0)) (i32.lt_s (local.get $lo) (local.get $hi)))
            (then
              (local.set $found (i64.and
                (i64.and (i64.load (i32.add (local.get $positions) (i32.shl (local.get $symbol) (i32.const 3))))
                  (i64.xor (local.get $used) (i64.const -1)))
                (i64.and
                  (if (result i64) (i32.eq (local.get $hi) (i32.const 64))
                    (then (i64.const -1))
                    (else (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $hi))) (i64.const 1))))
                  (i64.xor (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $lo))) (i64.const 1))
                    (i64.const -1)))))
              (if (i64.ne (local.get $found) (i64.const 0))
                (then
                  (local.set $used (i64.or (local.get $used)
                    (i64.and (local.get $found) (i64.sub (i64.const 0) (local.get $found)))))
                  (i32.store (i32.add (local.get $matched) (i32.shl (local.get $m) (i32.const 2))) (local.get $symbol))
                  (local.set $m (i32.add (local.get $m) (i32.const 1)))))))
          ;; Even if every later character of the query matched, too few would.
          (br_if $gave_up (i32.lt_s
            (i32.add (local.get $m) (i32.sub (i32.sub (local.get $a) (i32.const 1)) (local.get $i)))
            (local.get $least)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each_query)))
      ;; The string's matched positions in order against the query's matched symbols in order.
      (local.set $i (i32.const 0))
      (block $compared
        (loop $each_match
          (br_if $compared (i64.eqz (local.get $used)))
          (if (i32.ne
                (call $symbolAt (local.get $codes) (local.get $wide)
                  (i32.add (local.get $start) (i32.wrap_i64 (i64.ctz (local.get $used)))))
                (i32.load (i32.add (local.get $matched) (i32.shl (local.get $i) (i32.const 2)))))
            (then (local.set $t (i32.add (local.get $t) (i32.const 1)))))
          (local.set $used (i64.and (local.get $used) (i64.sub (local.get $used) (i64.const 1))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $each_match)))
      (local.set $result (i32.add (local.get $m) (i32.shl (local.get $t) (i32.const 8)))))
    (local.set $j (i32.const 0))
    (block $cleared
      (loop $clear
        (br_if $cleared (i32.ge_u (local.get $j) (local.get $b)))
        (i64.store (i32.add (local.get $positions) (i32.shl (call $symbolAt (local.get $codes) (local.get $wide)
          (i32.add (local.get $start) (local.get $j))) (i32.const 3))) (i64.const 0))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $clear)))
    (local.get $result))
)
