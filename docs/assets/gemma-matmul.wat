;; Gemma 3 270M 의 행렬 곱 y = x Wᵀ 하나만 WebAssembly SIMD 로 (gemma-worker.js 의 matmulJs 와 같은 계산).
;;
;; gemma-worker.js 의 matmulJs() 가 읽기 위한 완전한 구현이고, 이 파일은 같은 고리를 수 네 개씩 한 번에 계산합니다.
;; 빌드가 이 글(WAT)을 wasmtime.wat2wasm 으로 바꿔 models/gemma-ko/matmul.wasm 에 둡니다
;; (overrides/hooks/sitebuild/modelfiles.py). 브라우저가 WebAssembly SIMD 를 못 쓰면 워커는 matmulJs() 를 씁니다.
;;
;; 가중치 W (out × inp) 는 워커가 GGUF 블록(Q4_K, Q5_0, Q6_K, Q8_0)을 풀어 둔 모양입니다: 가중치마다 8비트 정수 q 하나,
;; 묶음(group, 16개나 32개)마다 float32 배율 s 하나, Q4_K 는 묶음마다 float32 최솟값 m 도 하나.
;;   W[o][i] = q[o][i] × s[g] − m[g]      g = (o × inp + i) >> gshift  (gshift 4 = 묶음 16개, 5 = 32개)
;; 곱 q × s 는 float32 에서 반올림 없이 정확하고, 뺄셈은 gguf.quants.dequantize 처럼 한 번 반올림합니다: 그래서 푼 가중치는
;; numpy 가 푼 float32 와 비트까지 같습니다.
;;
;; 고리의 모양 (e5-linear.wat 과 같은 생각):
;;   1. 출력 두 행(o, o+1)의 가중치를 scratch 에 float32 로 풉니다 (행 하나에 한 번: 토큰이 여럿이어도 다시 풀지 않습니다).
;;   2. 토큰 네 개씩, 그 두 행과의 내적 여덟 개를 f32x4 로 함께 쌓습니다 (칸 k 에는 i ≡ k (mod 4) 인 곱).
;;   프롬프트를 한 번에 읽을 때(토큰 16개) 가중치를 푸는 일은 한 번, 곱은 토큰 수만큼입니다: 토큰 하나씩 16번 하는 것보다 훨씬 쌉니다.
;;   곱과 합은 float32 이고 마지막에 네 칸을 더합니다 ($hsum). JavaScript 의 matmulJs() 는 float64 로 더하므로 반올림만큼 다릅니다.
;;
;; 메모리는 워커가 만들어 넘깁니다 (import "env" "memory"). 인자는 모두 그 메모리 안의 바이트 위치와 크기입니다.
;;   x (n × inp float32)  q (out × inp int8)  s, m (묶음마다 float32; m = 0 이면 최솟값 없음)
;;   y (n × out float32, 결과를 씁니다)  scratch (2 × inp float32, 푼 가중치 두 행)
;; 약속: inp 는 16의 배수, n ≥ 1, out ≥ 1 (out 이 홀수면 마지막 행은 혼자 계산합니다). 워커가 부르기 전에 확인합니다.
(module
  (memory (import "env" "memory") 1)

  (func (export "matmul")
        (param $x i32) (param $n i32) (param $inp i32) (param $q i32) (param $s i32) (param $m i32) (param $gshift i32)
        (param $out i32) (param $y i32) (param $scratch i32)
    (local $o i32) (local $o1 i32) (local $t i32)
    (local.set $o (i32.const 0))
    (block $rows_done (loop $rows                         ;; 출력 두 행씩
      (br_if $rows_done (i32.ge_u (local.get $o) (local.get $out)))
      ;; 마지막 행이 혼자 남으면 둘째 행 자리에 같은 행을 다시 풉니다 (결과는 한 번만 씁니다)
      (local.set $o1 (select (i32.add (local.get $o) (i32.const 1)) (local.get $o)
                             (i32.lt_u (i32.add (local.get $o) (i32.const 1)) (local.get $out))))
      (call $unpack (local.get $q) (local.get $s) (local.get $m) (local.get $gshift) (local.get $inp) (local.get $o)
                    (local.get $scratch))
      (call $unpack (local.get $q) (local.get $s) (local.get $m) (local.get $gshift) (local.get $inp) (local.get $o1)
                    (i32.add (local.get $scratch) (i32.shl (local.get $inp) (i32.const 2))))
      (local.set $t (i32.const 0))
      (block $tokens_done (loop $tokens                   ;; 토큰 네 개씩
        (br_if $tokens_done (i32.ge_u (local.get $t) (local.get $n)))
        (call $dots (local.get $x) (local.get $n) (local.get $inp) (local.get $t) (local.get $scratch)
                    (local.get $o) (local.get $o1) (local.get $out) (local.get $y))
        (local.set $t (i32.add (local.get $t) (i32.const 4)))
        (br $tokens)))
      (local.set $o (i32.add (local.get $o) (i32.const 2)))
      (br $rows))))

  ;; 행 o 의 가중치 inp 개를 float32 로 풀어 dst 에: 16개씩 (정수 16개 → 넷씩 float32 → × 배율 − 최솟값)
  (func $unpack (param $q i32) (param $s i32) (param $m i32) (param $gshift i32) (param $inp i32) (param $o i32)
                (param $dst i32)
    (local $i i32) (local $at i32) (local $g i32) (local $v v128) (local $half v128) (local $sc v128) (local $mn v128)
    (local.set $at (i32.mul (local.get $o) (local.get $inp)))   ;; 행의 첫 가중치의 번호
    (local.set $i (i32.const 0))
    (loop $groups
      (local.set $g (i32.shl (i32.shr_u (i32.add (local.get $at) (local.get $i)) (local.get $gshift)) (i32.const 2)))
      (local.set $sc (f32x4.splat (f32.load (i32.add (local.get $s) (local.get $g)))))
      (local.set $mn (if (result v128) (local.get $m)
                       (then (f32x4.splat (f32.load (i32.add (local.get $m) (local.get $g)))))
                       (else (v128.const f32x4 0 0 0 0))))
      (local.set $v (v128.load (i32.add (local.get $q) (i32.add (local.get $at) (local.get $i)))))
      (local.set $half (i16x8.extend_low_i8x16_s (local.get $v)))
      (v128.store (local.get $dst) (call $scaled (i32x4.extend_low_i16x8_s (local.get $half)) (local.get $sc) (local.get $mn)))
      (v128.store offset=16 (local.get $dst) (call $scaled (i32x4.extend_high_i16x8_s (local.get $half)) (local.get $sc) (local.get $mn)))
      (local.set $half (i16x8.extend_high_i8x16_s (local.get $v)))
      (v128.store offset=32 (local.get $dst) (call $scaled (i32x4.extend_low_i16x8_s (local.get $half)) (local.get $sc) (local.get $mn)))
      (v128.store offset=48 (local.get $dst) (call $scaled (i32x4.extend_high_i16x8_s (local.get $half)) (local.get $sc) (local.get $mn)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      (br_if $groups (i32.lt_u (local.get $i) (local.get $inp)))))

  ;; 정수 네 개 → float32 × 배율 − 최솟값 (최솟값이 없는 형식은 0 을 빼서 값이 그대로입니다)
  (func $scaled (param $k v128) (param $sc v128) (param $mn v128) (result v128)
    (f32x4.sub (f32x4.mul (f32x4.convert_i32x4_s (local.get $k)) (local.get $sc)) (local.get $mn)))

  ;; 토큰 t … t+3 과 풀어 둔 두 행(scratch)의 내적 여덟 개를 y 에 씁니다. 토큰이 모자라면 마지막 토큰을 다시 읽고 버립니다.
  (func $dots (param $x i32) (param $n i32) (param $inp i32) (param $t i32) (param $w0 i32) (param $o i32) (param $o1 i32)
              (param $out i32) (param $y i32)
    (local $row i32) (local $i i32) (local $w1 i32)
    (local $a0 i32) (local $a1 i32) (local $a2 i32) (local $a3 i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128)
    (local $u v128) (local $v v128) (local $xv v128)
    (local.set $row (i32.shl (local.get $inp) (i32.const 2)))
    (local.set $w1 (i32.add (local.get $w0) (local.get $row)))
    (local.set $a0 (i32.add (local.get $x) (i32.mul (local.get $t) (local.get $row))))
    (local.set $a1 (select (i32.add (local.get $a0) (local.get $row)) (local.get $a0)
                           (i32.lt_u (i32.add (local.get $t) (i32.const 1)) (local.get $n))))
    (local.set $a2 (select (i32.add (local.get $a1) (local.get $row)) (local.get $a1)
                           (i32.lt_u (i32.add (local.get $t) (i32.const 2)) (local.get $n))))
    (local.set $a3 (select (i32.add (local.get $a2) (local.get $row)) (local.get $a2)
                           (i32.lt_u (i32.add (local.get $t) (i32.const 3)) (local.get $n))))
    (local.set $i (i32.const 0))
    (loop $inputs                                          ;; 입력 네 개(16바이트)씩
      (local.set $u (v128.load (i32.add (local.get $w0) (local.get $i))))
      (local.set $v (v128.load (i32.add (local.get $w1) (local.get $i))))
      (local.set $xv (v128.load (i32.add (local.get $a0) (local.get $i))))
      (local.set $s0 (f32x4.add (local.get $s0) (f32x4.mul (local.get $xv) (local.get $u))))
      (local.set $r0 (f32x4.add (local.get $r0) (f32x4.mul (local.get $xv) (local.get $v))))
      (local.set $xv (v128.load (i32.add (local.get $a1) (local.get $i))))
      (local.set $s1 (f32x4.add (local.get $s1) (f32x4.mul (local.get $xv) (local.get $u))))
      (local.set $r1 (f32x4.add (local.get $r1) (f32x4.mul (local.get $xv) (local.get $v))))
      (local.set $xv (v128.load (i32.add (local.get $a2) (local.get $i))))
      (local.set $s2 (f32x4.add (local.get $s2) (f32x4.mul (local.get $xv) (local.get $u))))
      (local.set $r2 (f32x4.add (local.get $r2) (f32x4.mul (local.get $xv) (local.get $v))))
      (local.set $xv (v128.load (i32.add (local.get $a3) (local.get $i))))
      (local.set $s3 (f32x4.add (local.get $s3) (f32x4.mul (local.get $xv) (local.get $u))))
      (local.set $r3 (f32x4.add (local.get $r3) (f32x4.mul (local.get $xv) (local.get $v))))
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      (br_if $inputs (i32.lt_u (local.get $i) (local.get $row))))
    (call $put (local.get $y) (local.get $out) (local.get $t) (local.get $o) (local.get $o1) (local.get $s0) (local.get $r0))
    (if (i32.lt_u (i32.add (local.get $t) (i32.const 1)) (local.get $n)) (then
      (call $put (local.get $y) (local.get $out) (i32.add (local.get $t) (i32.const 1)) (local.get $o) (local.get $o1)
                 (local.get $s1) (local.get $r1))))
    (if (i32.lt_u (i32.add (local.get $t) (i32.const 2)) (local.get $n)) (then
      (call $put (local.get $y) (local.get $out) (i32.add (local.get $t) (i32.const 2)) (local.get $o) (local.get $o1)
                 (local.get $s2) (local.get $r2))))
    (if (i32.lt_u (i32.add (local.get $t) (i32.const 3)) (local.get $n)) (then
      (call $put (local.get $y) (local.get $out) (i32.add (local.get $t) (i32.const 3)) (local.get $o) (local.get $o1)
                 (local.get $s3) (local.get $r3)))))

  ;; y[t][o] = 칸의 합(s), y[t][o1] = 칸의 합(r) (o1 = o 이면 한 번만)
  (func $put (param $y i32) (param $out i32) (param $t i32) (param $o i32) (param $o1 i32) (param $s v128) (param $r v128)
    (local $at i32)
    (local.set $at (i32.add (local.get $y) (i32.shl (i32.add (i32.mul (local.get $t) (local.get $out)) (local.get $o)) (i32.const 2))))
    (f32.store (local.get $at) (call $hsum (local.get $s)))
    (if (i32.ne (local.get $o1) (local.get $o)) (then
      (f32.store offset=4 (local.get $at) (call $hsum (local.get $r))))))

  ;; 네 칸의 합: (칸 0 + 칸 1) + (칸 2 + 칸 3)
  (func $hsum (param $s v128) (result f32)
    (f32.add (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
             (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))
)
