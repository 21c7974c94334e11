;; 선형층의 행렬 곱 y = x Wᵀ + b 하나만 WebAssembly SIMD 로 (e5-worker.js 의 linear 와 같은 계산).
;;
;; e5-worker.js 의 linear() 가 읽기 위한 완전한 구현이고, 이 파일은 그 가장 안쪽 고리만 빠르게 한 것입니다.
;; 빌드가 이 글(WAT)을 wasmtime.wat2wasm 으로 바꿔 models/e5-ko/linear.wasm 에 둡니다
;; (overrides/hooks/sitebuild/modelfiles.py). 브라우저가 WebAssembly SIMD 를 못 쓰면 워커는 JavaScript 의 linear() 를 씁니다.
;;
;; 무엇이 다른가요?
;;   - f32x4: 수 네 개를 한 번에 곱하고 더합니다. 입력 차원 i 를 넷씩 묶어, 칸(lane) k 에는 i ≡ k (mod 4) 인 곱이 쌓이고,
;;     마지막에 네 칸을 더합니다 ($hsum).
;;   - 곱과 합은 float32 입니다 (numpy 의 float32 행렬 곱처럼). JavaScript 의 linear() 는 float64 로 더하므로 둘은
;;     반올림만큼 다릅니다: tests/test_own_sentence_browser.py 가 두 길을 모두 numpy 와 견줍니다.
;;   - 묶는 방식은 JavaScript 와 같습니다: 가중치 두 행(출력 o, o+1)을 읽는 동안 토큰 네 개의 합 여덟 개를 함께 쌓습니다.
;;     토큰 수가 4의 배수가 아니면 마지막 묶음은 마지막 토큰을 되풀이해 읽고, 그 결과는 쓰지 않습니다.
;;
;; 메모리는 워커가 만들어 넘깁니다 (import "env" "memory"). 워커는 풀어 둔 가중치를 처음부터 이 메모리에 두므로
;; 가중치를 복사하지 않습니다. 인자는 모두 그 메모리 안의 바이트 위치와 크기입니다.
;;   x    (n × inp float32, 토큰마다 한 행)      w    (out × inp float32, 출력마다 한 행: torch 의 Linear 와 같은 순서)
;;   bias (out float32)                          y    (n × out float32, 결과를 씁니다)
;; 약속: inp 는 4의 배수, out 은 짝수, n ≥ 1 (e5 의 384 와 1,536). 워커가 부르기 전에 확인합니다.
(module
  (memory (import "env" "memory") 1)

  (func (export "linear")
        (param $x i32) (param $n i32) (param $inp i32) (param $w i32) (param $bias i32) (param $out i32) (param $y i32)
    (local $t i32) (local $o i32) (local $i i32)
    (local $row i32)                                      ;; 입력 한 행의 바이트 수 = 4 × inp
    (local $a0 i32) (local $a1 i32) (local $a2 i32) (local $a3 i32)  ;; 토큰 t … t+3 의 x 행
    (local $w0 i32) (local $w1 i32)                       ;; 가중치 행 o, o+1
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)  ;; 행 o 의 합 (토큰 넷)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128)  ;; 행 o+1 의 합
    (local $u v128) (local $v v128) (local $xv v128)      ;; 가중치 네 개씩 (행 o, o+1), 입력 네 개
    (local $at i32) (local $b f32) (local $c f32)
    (local.set $row (i32.shl (local.get $inp) (i32.const 2)))

    (local.set $t (i32.const 0))
    (block $tokens_done (loop $tokens                    ;; 토큰 네 개씩
      (br_if $tokens_done (i32.ge_u (local.get $t) (local.get $n)))
      ;; 토큰 t+1 … t+3 이 없으면 앞 토큰의 행을 다시 가리킵니다 (읽기만 하고 결과는 버립니다)
      (local.set $a0 (i32.add (local.get $x) (i32.mul (local.get $t) (local.get $row))))
      (local.set $a1 (select (i32.add (local.get $a0) (local.get $row)) (local.get $a0)
                             (i32.lt_u (i32.add (local.get $t) (i32.const 1)) (local.get $n))))
      (local.set $a2 (select (i32.add (local.get $a1) (local.get $row)) (local.get $a1)
                             (i32.lt_u (i32.add (local.get $t) (i32.const 2)) (local.get $n))))
      (local.set $a3 (select (i32.add (local.get $a2) (local.get $row)) (local.get $a2)
                             (i32.lt_u (i32.add (local.get $t) (i32.const 3)) (local.get $n))))

      (local.set $o (i32.const 0))
      (block $outputs_done (loop $outputs                ;; 출력 두 개씩
        (br_if $outputs_done (i32.ge_u (local.get $o) (local.get $out)))
        (local.set $w0 (i32.add (local.get $w) (i32.mul (local.get $o) (local.get $row))))
        (local.set $w1 (i32.add (local.get $w0) (local.get $row)))
        (local.set $s0 (v128.const f32x4 0 0 0 0)) (local.set $s1 (v128.const f32x4 0 0 0 0))
        (local.set $s2 (v128.const f32x4 0 0 0 0)) (local.set $s3 (v128.const f32x4 0 0 0 0))
        (local.set $r0 (v128.const f32x4 0 0 0 0)) (local.set $r1 (v128.const f32x4 0 0 0 0))
        (local.set $r2 (v128.const f32x4 0 0 0 0)) (local.set $r3 (v128.const f32x4 0 0 0 0))

        ;; 가장 안쪽 고리: 입력 네 개(16바이트)씩. 가중치 두 묶음을 읽어 두고 토큰 넷에 씁니다.
        (local.set $i (i32.const 0))
        (loop $inputs
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

        ;; 네 칸을 더하고 편향을 더해 y[t][o], y[t][o+1] … 에 씁니다 (없는 토큰의 줄은 건너뜁니다)
        (local.set $b (f32.load (i32.add (local.get $bias) (i32.shl (local.get $o) (i32.const 2)))))
        (local.set $c (f32.load offset=4 (i32.add (local.get $bias) (i32.shl (local.get $o) (i32.const 2)))))
        (local.set $at (i32.add (local.get $y)
                                (i32.shl (i32.add (i32.mul (local.get $t) (local.get $out)) (local.get $o)) (i32.const 2))))
        (f32.store (local.get $at) (f32.add (call $hsum (local.get $s0)) (local.get $b)))
        (f32.store offset=4 (local.get $at) (f32.add (call $hsum (local.get $r0)) (local.get $c)))
        (if (i32.lt_u (i32.add (local.get $t) (i32.const 1)) (local.get $n)) (then
          (local.set $at (i32.add (local.get $at) (i32.shl (local.get $out) (i32.const 2))))
          (f32.store (local.get $at) (f32.add (call $hsum (local.get $s1)) (local.get $b)))
          (f32.store offset=4 (local.get $at) (f32.add (call $hsum (local.get $r1)) (local.get $c)))))
        (if (i32.lt_u (i32.add (local.get $t) (i32.const 2)) (local.get $n)) (then
          (local.set $at (i32.add (local.get $at) (i32.shl (local.get $out) (i32.const 2))))
          (f32.store (local.get $at) (f32.add (call $hsum (local.get $s2)) (local.get $b)))
          (f32.store offset=4 (local.get $at) (f32.add (call $hsum (local.get $r2)) (local.get $c)))))
        (if (i32.lt_u (i32.add (local.get $t) (i32.const 3)) (local.get $n)) (then
          (local.set $at (i32.add (local.get $at) (i32.shl (local.get $out) (i32.const 2))))
          (f32.store (local.get $at) (f32.add (call $hsum (local.get $s3)) (local.get $b)))
          (f32.store offset=4 (local.get $at) (f32.add (call $hsum (local.get $r3)) (local.get $c)))))

        (local.set $o (i32.add (local.get $o) (i32.const 2)))
        (br $outputs)))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br $tokens))))

  ;; 네 칸의 합: (칸 0 + 칸 1) + (칸 2 + 칸 3)
  (func $hsum (param $s v128) (result f32)
    (f32.add (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
             (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))
)
