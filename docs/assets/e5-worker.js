/* multilingual-e5-small 을 웹 워커 안에서: 모델 파일 받기(브라우저에 저장), 4비트 가중치 풀기, 토큰 나누기, 12층 계산.
 *
 * 계산은 snippets/lib/bert_numpy.py 의 encode 를 그대로 옮긴 것입니다. 2장의 네 단계가 attention() 안에 차례로 있습니다.
 *   임베딩: 단어 + 위치 + 종류 0, 그리고 층 정규화
 *   층마다: Q, K, V = x W + b → 헤드마다 ① Q·Kᵀ ② ÷ √d_k ③ 소프트맥스 ④ × V → 헤드를 이어 붙여 W_O
 *           → 더하고 층 정규화 → GELU FFN → 더하고 층 정규화
 * 모든 값은 Float32Array 에 두고, 곱과 합은 JavaScript 의 수(float64)로 계산합니다. numpy(float32 행렬 곱)와는
 * 반올림만큼 다릅니다: 가중치는 1e-4 안, 은닉 상태는 코사인 0.99999 이상 (tests/test_own_sentence_browser.py).
 *
 * 빠르게 하려고 한 일은 둘입니다.
 *   1. 행렬 곱(linear)에서 가중치 두 행을 읽을 때 토큰 네 개에 함께 씁니다. 가중치 행렬(층마다 7 MB)이 CPU 캐시에
 *      들어가지 않으므로, 같은 행을 토큰마다 다시 읽는 것이 가장 비쌉니다.
 *   2. 계산 시간의 대부분인 그 행렬 곱의 가장 안쪽 고리만, 브라우저가 WebAssembly SIMD 를 쓸 수 있으면 e5-linear.wat
 *      (수 네 개씩 한 번에 곱하는 같은 고리, 빌드가 linear.wasm 으로 바꿉니다)로 돌립니다. 그쪽은 numpy 처럼 float32 로
 *      더합니다. 쓸 수 없으면 아래의 linear() 그대로입니다. 두 길 모두 같은 테스트로 numpy 와 견줍니다.
 *
 * 페이지와 주고받는 말 (postMessage)
 *   → {type: "load", manifest, base, packs, cache[, wasm: false][, palette]}
 *                                 ← {type: "progress", loaded, total} … {type: "phase", phase: "check", name} (파일마다
 *                                   sha256 을 확인하기 전) … {type: "phase", phase: "prepare"} (4비트 풀기, 받은 뒤)
 *                                   … {type: "ready", packs, cached, kernel}
 *                                   또는 {type: "load-error", kind, message}
 *     wasm: false 이면 WebAssembly 를 쓰지 않습니다 (SIMD 가 없는 브라우저와 같은 길: 테스트가 두 길을 견줍니다).
 *     kernel: 행렬 곱을 도는 길, "wasm" 또는 "js".
 *     palette: 헤드 탐색기의 색표 (Uint8ClampedArray, 0..1 을 1,024 단계로 나눈 RGB). 주면 결과에 작은 히트맵의 화소(atlas)도
 *     담습니다: 페이지의 주 스레드가 64토큰 문장에서 화소 36만 개를 칠하지 않게.
 *   → {type: "run", id, text}     ← {type: "result", id, tokens, ids, queries, scores, q, k, weights, qweights, hidden, ms, kernel}
 *                                   (qweights: 쿼리 행의 가중치만 (층, 헤드, 쿼리, 키), 헤드 탐색기가 그대로 씁니다;
 *                                    atlas: palette 를 받았으면 작은 히트맵의 RGBA 화소, 아니면 null)
 *                                   또는 {type: "result", id, error}
 *   → {type: "ablate", id, text, off: {heads: [[층, 헤드], …], layers: [층, …]}[, ablation: "zero" | "uniform"]}
 *                                 ← {type: "ablated", id, text, tokens, ids, queries, off, ablation, weights, hidden,
 *                                    oneMinusCos, moved, ms}
 *                                   또는 {type: "ablated", id, error}
 *     헤드 끄기(어블레이션): bert_numpy 의 switch_off 와 encode(heads_off=…, ablation=…) 를 옮긴 것입니다. 번호는 0부터
 *     (페이지의 "7-11" = [6, 10]). off: 끈 헤드 (층 × 헤드, 1 = 끔), weights·hidden: 끈 모델의 값 (run 과 같은 모양),
 *     oneMinusCos: 끄기 전과 뒤의 문장 임베딩(토큰 평균을 길이 1 로)의 1 − cos, moved: 헤드마다 끄기 전과 뒤의 가중치의
 *     JS 거리(쿼리 행마다, 모든 행의 평균; 끈 헤드는 NaN). snippets/lib/ablation.py 의 pooled, moved 와 같은 값입니다.
 */
/* global E5Tokenizer, attentionExplorers */
"use strict";

var IN_WORKER = typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope;
if (IN_WORKER && typeof E5Tokenizer === "undefined") importScripts("e5-tokenizer.js");
// 작은 히트맵을 칠하는 paintAtlas (헤드 탐색기와 같은 함수). 페이지는 data-scripts 로 함께 붙여 보냅니다
if (IN_WORKER && typeof attentionExplorers === "undefined") importScripts("explorer-common.js");

var model = null;  // {config, tensors: {이름: Float32Array}, embed: [{rows, index}], tokenizer}
var files = {};  // 받은 파일 이름 → ArrayBuffer (묶음을 더할 때 다시 받지 않도록)
var peakHeld = 0;
var palette = null;  // 헤드 탐색기의 색표 (load 의 palette)  // 들고 있던 ArrayBuffer 바이트의 최댓값 (받는 동안 조각과 이어 붙인 파일이 잠깐 함께 있는 것까지)
var intact = [];  // 끄지 않고 계산한 최근 문장들 {key, res} (헤드를 끌 때 앞 층을 다시 계산하지 않으려고)
var INTACT_KEEP = 3;  // 페이지의 탐색기가 남겨 두는 문장 수와 같게

/* ---- 4비트 풀기 (e5_numpy.dequantize_q4_0 과 같은 값) ------------------------------------------------ */

/* float16 (비트 16개) → 수. 모든 float16 은 float32 로 정확히 나타낼 수 있습니다. */
function half(bits) {
  var sign = bits & 0x8000 ? -1 : 1, exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * Math.pow(2, -24);  // 버금 정규수(subnormal)
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1024 + frac) * Math.pow(2, exp - 25);
}

/* Q4_0 블록 (18바이트: float16 배율 d, 4비트 정수 32개) 을 count 개 풀어 out[at..] 에 씁니다.
   바이트 j 의 아래 4비트가 j번째, 위 4비트가 j+16번째 가중치이고, 값은 (정수 - 8) × d 입니다.
   정수 × d 는 float32 에서도 반올림 없이 정확하므로 numpy 의 float32 값과 비트까지 같습니다. */
function dequantize(bytes, offset, count, out, at) {
  for (var b = 0; b < count; b++) {
    var p = offset + 18 * b, d = half(bytes[p] | (bytes[p + 1] << 8)), o = at + 32 * b;
    for (var j = 0; j < 16; j++) {
      var v = bytes[p + 2 + j];
      out[o + j] = ((v & 0x0f) - 8) * d;
      out[o + j + 16] = ((v >> 4) - 8) * d;
    }
  }
}

/* encoder.bin 의 텐서들 → {이름: Float32Array}. alloc(크기) 가 float32 자리를 줍니다: 보통은 새 Float32Array,
   WebAssembly 로 곱할 때는 그 메모리 안의 자리 (아래 makeKernel). */
function readTensors(buffer, table, alloc) {
  var bytes = new Uint8Array(buffer), out = {};
  table.forEach(function (t) {
    var size = t.shape.reduce(function (a, b) { return a * b; }, 1);
    if (t.bytes !== (t.kind === "f32" ? 4 * size : 18 * size / 32)) throw new Error("텐서 " + t.name + " 의 크기가 목록과 다릅니다");
    var w = alloc(size);
    if (t.kind === "f32") w.set(new Float32Array(buffer, t.offset, size));  // 텐서는 4바이트 경계에서 시작합니다
    else dequantize(bytes, t.offset, size / 32, w, 0);
    out[t.name] = w;
  });
  return out;
}

/* ---- 계산 블록 (bert_numpy 의 linear, layer_norm, gelu) --------------------------------------------- */

/* y (n × out) = x (n × inp) Wᵀ + b. W 는 (출력, 입력) 순서로 저장돼 있어(torch 의 Linear 와 같게) 행 o 가 출력 o 의
   가중치입니다. 가중치 두 행을 읽는 동안 토큰 네 개의 합 여덟 개를 함께 쌓습니다: 같은 가중치를 메모리에서 읽는
   횟수가 토큰 수의 1/4 이 되고, 서로 기다리지 않는 덧셈이 여덟 줄이라 CPU 가 나란히 계산합니다.
   토큰 수가 4의 배수가 아니면 마지막 묶음은 마지막 토큰을 되풀이해 계산하고 버립니다. out 은 짝수입니다. */
function linear(x, n, inp, W, bias, out) {
  var y = new Float32Array(n * out);
  for (var t = 0; t < n; t += 4) {
    var a0 = t * inp, a1 = Math.min(t + 1, n - 1) * inp, a2 = Math.min(t + 2, n - 1) * inp, a3 = Math.min(t + 3, n - 1) * inp;
    for (var o = 0; o < out; o += 2) {
      var w0 = o * inp, w1 = w0 + inp;
      var s0 = 0, s1 = 0, s2 = 0, s3 = 0, r0 = 0, r1 = 0, r2 = 0, r3 = 0;  // s: 행 o, r: 행 o + 1
      for (var i = 0; i < inp; i++) {
        var u = W[w0 + i], v = W[w1 + i], x0 = x[a0 + i], x1 = x[a1 + i], x2 = x[a2 + i], x3 = x[a3 + i];
        s0 += x0 * u; s1 += x1 * u; s2 += x2 * u; s3 += x3 * u;
        r0 += x0 * v; r1 += x1 * v; r2 += x2 * v; r3 += x3 * v;
      }
      var b = bias[o], c = bias[o + 1], at = t * out + o;
      y[at] = s0 + b; y[at + 1] = r0 + c;
      if (t + 1 < n) { y[at + out] = s1 + b; y[at + out + 1] = r1 + c; }
      if (t + 2 < n) { y[at + 2 * out] = s2 + b; y[at + 2 * out + 1] = r2 + c; }
      if (t + 3 < n) { y[at + 3 * out] = s3 + b; y[at + 3 * out + 1] = r3 + c; }
    }
  }
  return y;
}

/* 토큰마다 평균을 빼고 표준편차로 나눈 뒤 배율 g 를 곱하고 이동 b 를 더합니다 (분산은 n 으로 나눈 것). */
function layerNorm(x, n, d, g, b, eps) {
  var y = new Float32Array(n * d);
  for (var t = 0; t < n; t++) {
    var a = t * d, mean = 0, v = 0;
    for (var i = 0; i < d; i++) mean += x[a + i];
    mean /= d;
    for (var j = 0; j < d; j++) { var c = x[a + j] - mean; v += c * c; }
    var inv = 1 / Math.sqrt(v / d + eps);
    for (var k = 0; k < d; k++) y[a + k] = (x[a + k] - mean) * inv * g[k] + b[k];
  }
  return y;
}

/* 정확한 GELU x·Φ(x). erfc 는 bert_numpy 와 같은 유리 근사 (Numerical Recipes erfcc, 상대 오차 1.2e-7 미만). */
var ERFC = [0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
            -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223];
function gelu(x) {
  var z = Math.abs(x) / Math.SQRT2, t = 1 / (1 + 0.5 * z), p = ERFC[0];
  for (var i = 1; i < ERFC.length; i++) p = p * t + ERFC[i];
  var tail = 0.5 * t * Math.exp(p - z * z);  // Φ(-|x|)
  return x >= 0 ? x - x * tail : -Math.abs(x) * tail;
}

/* ---- 어텐션: 2장의 네 단계 ------------------------------------------------------------------------- */

/* q, k, v (n × d_model) → (헤드를 이어 붙인 출력 (n × d_model), 점수 q·kᵀ (헤드, n, n), 가중치 (헤드, n, n)).
   헤드 h 는 열 h·d_head … (h+1)·d_head - 1 을 씁니다 (split_heads 와 같은 나누기).
   off: 이 층에서 끈 헤드 (헤드 수만큼, 1 = 끔) 또는 null. bert_numpy 의 _self_attention 과 같게
     "zero": 끈 헤드의 가중치와 출력이 0 (W_O 에 0 을 넘깁니다). "uniform": 쿼리를 0 으로 둔 것처럼 점수가 모두 0 이라
     가중치가 키마다 1/n. 두 경우 모두 점수 q·k 는 그대로 적습니다 (numpy 의 return_qk 처럼 실제 q, k 의 곱). */
function attention(q, k, v, n, dModel, heads, off, ablation) {
  var dh = dModel / heads, scale = Math.sqrt(dh);
  var out = new Float32Array(n * dModel), scores = new Float32Array(heads * n * n), weights = new Float32Array(heads * n * n);
  var row = new Float64Array(n), acc = new Float64Array(dh);
  for (var h = 0; h < heads; h++) {
    var c = h * dh;
    for (var i = 0; i < n; i++) {
      var qi = i * dModel + c, max = -Infinity, at = (h * n + i) * n;
      for (var j = 0; j < n; j++) {  // ① 내적 q·k: 차원을 네 줄로 나눠 더하고 마지막에 합칩니다 (서로 기다리지 않는 덧셈)
        var kj = j * dModel + c, s0 = 0, s1 = 0, s2 = 0, s3 = 0, d = 0;
        for (; d + 3 < dh; d += 4) {
          s0 += q[qi + d] * k[kj + d];
          s1 += q[qi + d + 1] * k[kj + d + 1];
          s2 += q[qi + d + 2] * k[kj + d + 2];
          s3 += q[qi + d + 3] * k[kj + d + 3];
        }
        for (; d < dh; d++) s0 += q[qi + d] * k[kj + d];
        var s = (s0 + s1) + (s2 + s3);
        scores[at + j] = s;
        row[j] = Math.fround(s) / scale;  // ② √d_k 로 나누기
        if (row[j] > max) max = row[j];
      }
      if (off && off[h]) {
        if (ablation === "zero") continue;  // 가중치와 출력은 0 그대로 (Float32Array 는 0 으로 시작합니다)
        row.fill(0);  // "uniform": 모든 점수 0 → 소프트맥스가 키마다 1/n
        max = 0;
      }
      var sum = 0;
      for (var j2 = 0; j2 < n; j2++) { row[j2] = Math.exp(row[j2] - max); sum += row[j2]; }  // ③ 소프트맥스
      acc.fill(0);
      for (var j3 = 0; j3 < n; j3++) {
        var w = row[j3] / sum;
        weights[at + j3] = w;
        var vj = j3 * dModel + c;
        for (var d2 = 0; d2 < dh; d2++) acc[d2] += w * v[vj + d2];  // ④ 가중치 × V (float64 로 더한 뒤 한 번에 씁니다)
      }
      var o = i * dModel + c;
      for (var d3 = 0; d3 < dh; d3++) out[o + d3] = acc[d3];
    }
  }
  return { out: out, scores: scores, weights: weights };
}

function add(a, b) {
  var y = new Float32Array(a.length);
  for (var i = 0; i < a.length; i++) y[i] = a[i] + b[i];
  return y;
}

/* ---- 같은 행렬 곱을 WebAssembly SIMD 로 (e5-linear.wat → linear.wasm) ----------------------------------- */

/* SIMD 를 쓸 수 있는지: v128 값 하나를 만드는 가장 작은 모듈 (func (result v128) i32.const 0 i8x16.splat) 을
   이 브라우저가 받아들이는지 봅니다. */
var SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
function simdAvailable() {
  try { return typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE); } catch (err) { return false; }
}

/* 커널이 쓰는 메모리의 float32 개수: 텐서마다 (16바이트 경계로 올림) + 입력 x 와 출력 y 의 자리 (토큰 max_tokens × 가장 넓은 행). */
function kernelFloats(manifest) {
  var cfg = manifest.config, width = cfg.max_tokens * Math.max(cfg.hidden_size, cfg.intermediate_size);
  return manifest.tensors.reduce(function (s, t) {
    return s + 4 * Math.ceil(t.shape.reduce(function (a, b) { return a * b; }, 1) / 4);
  }, 2 * width);
}

/* 메모리를 한 번에 필요한 만큼 만들고 linear.wasm 을 붙입니다. 가중치는 alloc 으로 이 메모리에 차례로 놓습니다:
   커널이 가중치를 복사하지 않고 읽고, JavaScript 쪽 계산(층 정규화 …)도 같은 Float32Array 를 씁니다.
   메모리는 다시 키우지 않습니다 (키우면 앞서 만든 Float32Array 들이 떨어져 나갑니다). */
async function makeKernel(bytes, manifest) {
  var floats = kernelFloats(manifest), pages = Math.ceil(4 * floats / 65536);
  var memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  var instance = (await WebAssembly.instantiate(bytes, { env: { memory: memory } })).instance;
  var used = 0, width = manifest.config.max_tokens * Math.max(manifest.config.hidden_size, manifest.config.intermediate_size);
  function alloc(size) {
    var at = used;
    used += 4 * Math.ceil(size / 4);  // 다음 자리는 16바이트 경계에서 (v128 읽기)
    if (used > floats) throw new Error("WebAssembly 메모리가 모자랍니다");
    return new Float32Array(memory.buffer, 4 * at, size);
  }
  return { memory: memory, alloc: alloc, linear: instance.exports.linear, x: alloc(width), y: alloc(width) };
}

/* linear() 와 같은 값 (float32 로 더하는 것만 다릅니다): x 를 커널의 입력 자리에 옮기고, 커널이 메모리 안의 가중치
   W, 편향과 곱해 출력 자리에 쓴 것을 새 Float32Array 로 돌려줍니다. 커널의 약속(inp 는 4의 배수, out 은 짝수,
   가중치가 그 메모리 안)에 맞지 않으면 linear() 로 계산합니다. */
function kernelLinear(x, n, inp, W, bias, out) {
  var k = model.kernel;
  if (inp % 4 || out % 2 || n * Math.max(inp, out) > k.x.length || W.buffer !== k.memory.buffer || bias.buffer !== k.memory.buffer) {
    return linear(x, n, inp, W, bias, out);
  }
  k.x.set(x.subarray(0, n * inp));
  k.linear(k.x.byteOffset, n, inp, W.byteOffset, bias.byteOffset, out, k.y.byteOffset);
  return k.y.slice(0, n * out);
}

/* ---- 인코더 (bert_numpy.encode) ------------------------------------------------------------------- */

function embedRow(id, x, at) {
  for (var e = 0; e < model.embed.length; e++) {
    var pack = model.embed[e], r = pack.index.get(id);
    if (r !== undefined) {
      dequantize(pack.bytes, r * pack.rowBytes, pack.rowBytes / 18, x, at);
      return;
    }
  }
  throw new Error("단어 임베딩에 id " + id + " 가 없습니다");
}

/* ids → {hidden, layers: [{input, q, k, scores, weights}]}. input 은 그 층에 들어간 은닉 상태입니다.
   off (층 × 헤드, 1 = 끔) 와 ablation 은 헤드 끄기 (bert_numpy.encode 의 heads_off, ablation).
   from: 끄지 않은 계산(from.layers)에서 이어서 계산합니다. 첫 끈 층보다 앞의 층은 입력이 같아 값도 같으므로
   (run_layers 처럼) 그 층의 input 에서 시작하고, 앞 층의 값은 from 의 것을 그대로 씁니다. */
function encode(ids, off, ablation, from) {
  var cfg = model.config, T = model.tensors, n = ids.length, D = cfg.hidden_size, H = cfg.heads;
  var F = cfg.intermediate_size, eps = cfg.layer_norm_eps;
  var lin = model.kernel ? kernelLinear : linear;  // 같은 행렬 곱: WebAssembly 가 있으면 그쪽으로
  var start = 0, x, layers = [];
  if (off && from) {
    while (start < cfg.layers && !off.subarray(start * H, (start + 1) * H).some(Boolean)) start++;
    layers = from.layers.slice(0, start);
    x = start < cfg.layers ? from.layers[start].input : from.hidden;
  } else {
    x = new Float32Array(n * D);
    for (var t = 0; t < n; t++) {
      embedRow(ids[t], x, t * D);
      for (var i = 0; i < D; i++) x[t * D + i] += T["emb.pos"][t * D + i] + T["emb.type"][i];
    }
    x = layerNorm(x, n, D, T["emb.ln.w"], T["emb.ln.b"], eps);
  }
  for (var l = start; l < cfg.layers; l++) {
    var p = "l" + l + ".", input = x;
    var q = lin(x, n, D, T[p + "q.w"], T[p + "q.b"], D);
    var k = lin(x, n, D, T[p + "k.w"], T[p + "k.b"], D);
    var v = lin(x, n, D, T[p + "v.w"], T[p + "v.b"], D);
    var a = attention(q, k, v, n, D, H, off ? off.subarray(l * H, (l + 1) * H) : null, ablation);
    var attn = lin(a.out, n, D, T[p + "ao.w"], T[p + "ao.b"], D);
    x = layerNorm(add(x, attn), n, D, T[p + "aln.w"], T[p + "aln.b"], eps);
    var inner = lin(x, n, D, T[p + "fi.w"], T[p + "fi.b"], F);
    for (var g = 0; g < inner.length; g++) inner[g] = gelu(inner[g]);
    var ffn = lin(inner, n, F, T[p + "fo.w"], T[p + "fo.b"], D);
    x = layerNorm(add(x, ffn), n, D, T[p + "oln.w"], T[p + "oln.b"], eps);
    layers.push({ input: input, q: q, k: k, scores: a.scores, weights: a.weights });
  }
  return { hidden: x, layers: layers };
}

/* 헤드 탐색기가 읽는 모양으로: 점수 (층, 헤드, 쿼리, 키), q (층, 헤드, 쿼리, d_head), k (층, 헤드, 키, d_head),
   가중치 (층, 헤드, n, n), 쿼리 행의 가중치 (층, 헤드, 쿼리, 키). 쿼리는 문장의 조각만 (queries = [처음, 끝)).
   쿼리 행의 가중치는 탐색기의 작은 히트맵과 선에 씁니다: 페이지의 주 스레드가 지수를 다시 계산하지 않게. */
function explorerArrays(res, n, queries) {
  var cfg = model.config, L = cfg.layers, H = cfg.heads, D = cfg.hidden_size, dh = D / H;
  var q0 = queries[0], nq = queries[1] - queries[0];
  var scores = new Float32Array(L * H * nq * n), q = new Float32Array(L * H * nq * dh), k = new Float32Array(L * H * n * dh);
  var weights = new Float32Array(L * H * n * n), qweights = new Float32Array(L * H * nq * n);
  res.layers.forEach(function (layer, l) {
    weights.set(layer.weights, l * H * n * n);
    for (var h = 0; h < H; h++) {
      qweights.set(layer.weights.subarray((h * n + q0) * n, (h * n + q0 + nq) * n), (l * H + h) * nq * n);
      for (var i = 0; i < nq; i++) {
        scores.set(layer.scores.subarray((h * n + q0 + i) * n, (h * n + q0 + i + 1) * n), ((l * H + h) * nq + i) * n);
        for (var d = 0; d < dh; d++) q[((l * H + h) * nq + i) * dh + d] = layer.q[(q0 + i) * D + h * dh + d];
      }
      for (var j = 0; j < n; j++) {
        for (var d2 = 0; d2 < dh; d2++) k[((l * H + h) * n + j) * dh + d2] = layer.k[j * D + h * dh + d2];
      }
    }
  });
  return { scores: scores, q: q, k: k, weights: weights, qweights: qweights };
}

/* 헤드 탐색기의 작은 히트맵 L × H 개를 이어 붙인 그림의 RGBA 화소: 가로 (헤드, 키), 세로 (층, 쿼리), 화소 하나 = 가중치 하나.
   head-explorer.js 의 atlas() 와 같은 함수(explorer-common.js 의 paintAtlas)와 같은 색표(palette)로 칠합니다. */
function atlasPixels(qweights, n, nq) {
  var L = model.config.layers, H = model.config.heads;
  return attentionExplorers.paintAtlas(new Uint8ClampedArray(4 * n * H * nq * L), qweights, L, H, n, nq, palette);
}

/* ---- 파일 받기와 저장 ----------------------------------------------------------------------------- */

function LoadError(kind, message) {
  this.kind = kind;
  this.message = message;
}

function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
}

async function verified(name, buffer, entry) {
  if (buffer.byteLength !== entry.bytes) return false;
  if (!(self.crypto && crypto.subtle)) return true;  // 보안 출처(https, localhost)가 아니면 크기만 봅니다
  return hexOf(await crypto.subtle.digest("SHA-256", buffer)) === entry.sha256;
}

/* 파일 하나: 저장소(Cache Storage)에 맞는 것이 있으면 그것을, 없으면 받아서 확인한 뒤 저장합니다.
   checking(name): sha256 을 확인하기 직전에 부릅니다 (큰 파일은 확인이 눈에 띄게 걸려, 페이지가 그동안 그렇다고 적습니다). */
async function getFile(name, entry, base, store, progress, checking) {
  var url = new URL(name, base).href;
  checking = checking || function () {};
  if (store) {
    var hit = await store.match(url);
    if (hit) {
      var saved = await hit.arrayBuffer();
      checking(name);
      if (await verified(name, saved, entry)) {
        progress(entry.bytes, true);
        return saved;
      }
    }
  }
  var response;
  try {
    response = await fetch(url, { cache: "no-cache" });
  } catch (err) {
    throw new LoadError("network", "모델 파일 " + name + " 을 받지 못했습니다. 네트워크에 연결돼 있는지 확인하고 다시 눌러 주세요.");
  }
  if (!response.ok) {
    throw new LoadError("network", "모델 파일 " + name + " 을 받지 못했습니다 (서버 응답 " + response.status + "). 잠시 뒤 다시 눌러 주세요.");
  }
  var reader = response.body.getReader(), chunks = [], got = 0;
  try {
    for (;;) {
      var part = await reader.read();
      if (part.done) break;
      chunks.push(part.value);
      got += part.value.length;
      progress(part.value.length, false);
    }
  } catch (err) {
    throw new LoadError("cut", "모델 파일 " + name + " 을 받다가 연결이 끊겼습니다 (" + (got / 1e6).toFixed(1) + " / " +
                        (entry.bytes / 1e6).toFixed(1) + " MB). 다시 누르면 처음부터 받습니다.");
  }
  var buffer = new Uint8Array(got), at = 0;
  chunks.forEach(function (c) { buffer.set(c, at); at += c.length; });
  peakHeld = Math.max(peakHeld, heldBytes() + 2 * got);
  if (got !== entry.bytes) {
    throw new LoadError("cut", "모델 파일 " + name + " 이 " + (got / 1e6).toFixed(1) + " MB 에서 끊겼습니다 (" +
                        (entry.bytes / 1e6).toFixed(1) + " MB 여야 합니다). 다시 누르면 처음부터 받습니다.");
  }
  checking(name);
  if (!(await verified(name, buffer.buffer, entry))) {
    throw new LoadError("corrupt", "받은 모델 파일 " + name + " 이 이 사이트가 만든 파일과 다릅니다 (sha256). 다시 눌러 주세요.");
  }
  if (store) {
    try {
      await store.put(url, new Response(buffer.buffer, { headers: { "Content-Type": "application/octet-stream" } }));
    } catch (err) { /* 저장할 자리가 없으면 저장만 건너뜁니다: 이번 계산에는 상관없습니다 */ }
  }
  return buffer.buffer;
}

async function load(msg) {
  var manifest = msg.manifest, base = msg.base;
  if (msg.palette) palette = msg.palette;
  if (!manifest || manifest.format !== "e5-browser/1") throw new LoadError("corrupt", "모델 목록(manifest.json)의 형식이 다릅니다.");
  var store = null;
  if (msg.cache && self.caches) {
    try { store = await caches.open(msg.cache); } catch (err) { store = null; }
  }
  var wanted = [];
  msg.packs.forEach(function (pack) {
    manifest.packs[pack].forEach(function (name) { if (!files[name] && wanted.indexOf(name) < 0) wanted.push(name); });
  });
  var total = wanted.reduce(function (s, name) { return s + manifest.files[name].bytes; }, 0), loaded = 0, fromCache = true;
  var last = 0, say = msg.onProgress || postMessage;
  function progress(bytes, cached) {
    loaded += bytes;
    if (!cached) fromCache = false;
    var now = Date.now();
    if (now - last > 100 || loaded === total) {  // 열 번에 한 번쯤만 알립니다
      last = now;
      say({ type: "progress", loaded: loaded, total: total });
    }
  }
  function checking(name) { say({ type: "phase", phase: "check", name: name }); }
  for (var f = 0; f < wanted.length; f++) {
    files[wanted[f]] = await getFile(wanted[f], manifest.files[wanted[f]], base, store, progress, checking);
  }
  say({ type: "phase", phase: "prepare" });
  if (store) {
    try {
      await store.put(new URL("manifest.json", base).href,
                      new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/json" } }));
    } catch (err) { /* 위와 같이 건너뜁니다 */ }
  }
  var text = function (name) { return JSON.parse(new TextDecoder().decode(files[name])); };
  if (!model) {
    var tokenizer = new E5Tokenizer(text("tokenizer.json"), manifest.config.max_tokens);
    var kernel = msg.wasm === false ? null : await loadKernel(manifest, base, store);
    var alloc = kernel ? kernel.alloc : function (size) { return new Float32Array(size); };
    model = { config: manifest.config, tensors: readTensors(files["encoder.bin"], manifest.tensors, alloc), embed: [],
              tokenizer: tokenizer, kernel: kernel };
    peakHeld = Math.max(peakHeld, heldBytes());
    delete files["encoder.bin"];  // 풀어 둔 float32 만 남깁니다
  }
  msg.packs.forEach(function (pack) {
    if (model.tokenizer.hasPack(pack)) return;
    var vocab = text("vocab-" + pack + ".json"), index = new Map();
    vocab.ids.forEach(function (id, r) { index.set(id, r); });
    var bytes = new Uint8Array(files["embed-" + pack + ".bin"]), rowBytes = 18 * model.config.hidden_size / 32;
    if (bytes.length !== rowBytes * vocab.count) throw new LoadError("corrupt", "단어 임베딩 파일의 크기가 어휘와 맞지 않습니다.");
    model.tokenizer.addVocab(vocab);
    model.embed.push({ bytes: bytes, rowBytes: rowBytes, index: index });
  });
  return { packs: model.tokenizer.packs.slice(), cached: fromCache, kernel: model.kernel ? "wasm" : "js" };
}

/* 행렬 곱 커널 (목록의 kernels.linear, 2 KB 남짓): SIMD 를 쓸 수 있을 때만 받습니다 (다른 파일처럼 확인하고 저장).
   받지 못하거나 붙이지 못하면 null: 계산은 JavaScript 의 linear() 로 그대로 됩니다. */
async function loadKernel(manifest, base, store) {
  var name = manifest.kernels && manifest.kernels.linear;
  if (!name || !manifest.files[name] || !simdAvailable()) return null;
  try {
    return await makeKernel(await getFile(name, manifest.files[name], base, store, function () {}), manifest);
  } catch (err) {
    return null;
  }
}

/* 워커가 들고 있는 ArrayBuffer 바이트 (풀어 둔 가중치, 4비트 단어 임베딩, 아직 남은 받은 파일). 벤치마크가 JS 힙과 함께 적습니다. */
function heldBytes() {
  var total = 0;
  if (model) {
    if (model.kernel) total += model.kernel.memory.buffer.byteLength;  // 가중치가 모두 이 메모리 안에 있습니다
    else Object.keys(model.tensors).forEach(function (k) { total += model.tensors[k].byteLength; });
    model.embed.forEach(function (e) { total += e.bytes.byteLength; });
  }
  Object.keys(files).forEach(function (k) { if (files[k]) total += files[k].byteLength; });
  return total;
}

function run(msg) {
  var t0 = performance.now();
  var enc = model.tokenizer.encode(msg.text, true);
  if (enc.error) return { type: "result", id: msg.id, error: enc.error };
  var res = encode(enc.ids);
  remember(enc.ids.join(","), res);  // 헤드를 끌 때 이 문장의 앞 층을 다시 쓰려고
  var arrays = explorerArrays(res, enc.ids.length, enc.queries);
  var atlas = palette ? atlasPixels(arrays.qweights, enc.ids.length, enc.queries[1] - enc.queries[0]) : null;
  return { type: "result", id: msg.id, text: msg.text, tokens: enc.tokens, ids: enc.ids, queries: enc.queries,
           scores: arrays.scores, q: arrays.q, k: arrays.k, weights: arrays.weights, qweights: arrays.qweights, atlas: atlas,
           hidden: res.hidden.slice(),  // 한 벌 더: 원본은 intact 에 남깁니다 (보낼 때 옮겨 가면 빈 배열이 됩니다)
           ms: performance.now() - t0, held: heldBytes(), peakHeld: Math.max(peakHeld, heldBytes()),
           kernel: model.kernel ? "wasm" : "js" };
}

/* ---- 헤드 끄기 (bert_numpy.switch_off 와 snippets/lib/ablation.py 의 pooled, moved) ------------------------------ */

var ABLATIONS = ["zero", "uniform"];

/* 잘못 적은 off·ablation: 다른 실패(코드의 잘못)와 가려 "bad_off" 로 알립니다. */
function BadArgument(message) {
  this.message = message;
}

/* {heads: [[층, 헤드], …], layers: [층, …]} (0부터) → 끌 헤드 (층 × 헤드, 1 = 끔). switch_off 와 같은 규칙: 범위 밖,
   정수가 아닌 번호, 같은 헤드·층을 두 번, 끈 층 안의 헤드는 오류입니다 (다른 헤드를 적으려다 잘못 적었을 수 있어서).
   오류는 인자의 이름과 값을 밝힙니다: 페이지가 그대로 독자에게 보여 줄 수 있게. */
function switchOff(off) {
  var L = model.config.layers, H = model.config.heads, mask = new Uint8Array(L * H);
  if (off === null || typeof off !== "object" || Array.isArray(off)) {
    throw new BadArgument("off 는 {heads: [[층, 헤드], …], layers: [층, …]} 이어야 합니다: off=" + JSON.stringify(off));
  }
  Object.keys(off).forEach(function (key) {
    if (key !== "heads" && key !== "layers") throw new BadArgument("off 에 모르는 이름 " + JSON.stringify(key) + " 이 있습니다 (heads, layers 만 씁니다)");
  });
  var heads = off.heads === undefined ? [] : off.heads, layers = off.layers === undefined ? [] : off.layers;
  [["layers", layers], ["heads", heads]].forEach(function (named) {
    if (!Array.isArray(named[1])) throw new BadArgument("off." + named[0] + " 는 목록이어야 합니다: " + JSON.stringify(named[1]));
  });
  function index(value, count, name, what) {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw new BadArgument(name + " 는 정수여야 합니다: " + name + "=" + JSON.stringify(value));
    }
    if (value < 0 || value >= count) {
      throw new BadArgument(name + "=" + value + " 는 0 이상 " + count + " 미만이어야 합니다 (이 모델의 " + what + " " + count + "개, 0부터 셉니다)");
    }
    return value;
  }
  var whole = {};
  layers.forEach(function (layer, i) {
    layer = index(layer, L, "off.layers[" + i + "]", "층은");
    if (whole[layer]) throw new BadArgument("off.layers[" + i + "]=" + layer + ": 같은 층(페이지의 " + (layer + 1) + "층)을 두 번 적었습니다");
    whole[layer] = true;
    mask.fill(1, layer * H, (layer + 1) * H);
  });
  heads.forEach(function (pair, i) {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new BadArgument("off.heads[" + i + "]=" + JSON.stringify(pair) + " 는 [층, 헤드] 정수 쌍이어야 합니다");
    }
    var layer = index(pair[0], L, "off.heads[" + i + "][0]", "층은"), head = index(pair[1], H, "off.heads[" + i + "][1]", "헤드는");
    if (whole[layer]) throw new BadArgument("off.heads[" + i + "]=[" + layer + ", " + head + "] 는 off.layers 로 이미 끈 층 " + layer + " 에 있습니다");
    if (mask[layer * H + head]) {
      throw new BadArgument("off.heads[" + i + "]=[" + layer + ", " + head + "]: 같은 헤드(페이지의 " + (layer + 1) + "-" + (head + 1) + ")를 두 번 적었습니다");
    }
    mask[layer * H + head] = 1;
  });
  if (!mask.some(Boolean)) throw new BadArgument("off 에 끌 헤드가 없습니다: heads 나 layers 에 하나 이상 적어 주세요");
  return mask;
}

/* 문장 임베딩: 모든 토큰의 은닉 상태 평균을 길이 1 로 (float64; ablation.pooled 와 같습니다). */
function pooled(hidden, n, d) {
  var mean = new Float64Array(d), norm = 0;
  for (var t = 0; t < n; t++) for (var i = 0; i < d; i++) mean[i] += hidden[t * d + i];
  for (var j = 0; j < d; j++) { mean[j] /= n; norm += mean[j] * mean[j]; }
  norm = Math.sqrt(norm);
  for (var k = 0; k < d; k++) mean[k] /= norm;
  return mean;
}

/* 두 분포(행)의 젠슨-섀넌 거리, 밑 2 (head_stats.js_distance: 0·log 0 = 0). */
function jsDistance(p, q, at, n) {
  var s = 0;
  for (var j = 0; j < n; j++) {
    var a = p[at + j], b = q[at + j], m = (a + b) / 2;
    if (a > 0) s += a * Math.log2(a / m);
    if (b > 0) s += b * Math.log2(b / m);
  }
  return Math.sqrt(Math.max(s / 2, 0));
}

/* 끄지 않은 계산: 최근 INTACT_KEEP 문장은 다시 쓰고, 없으면 계산해 넣습니다. */
function intactOf(ids) {
  var key = ids.join(",");
  for (var i = 0; i < intact.length; i++) if (intact[i].key === key) return intact[i].res;
  var res = encode(ids);
  remember(key, res);
  return res;
}
function remember(key, res) {
  intact = [{ key: key, res: res }].concat(intact.filter(function (e) { return e.key !== key; })).slice(0, INTACT_KEEP);
}

/* 문장 하나에서 헤드를 끄고 다시 계산한 값과, 끄기 전과 견준 값 (머리글의 "ablate"). */
function ablate(msg) {
  var t0 = performance.now();
  var ablation = msg.ablation === undefined ? "zero" : msg.ablation;
  if (ABLATIONS.indexOf(ablation) < 0) {
    throw new BadArgument("ablation=" + JSON.stringify(ablation) + " 는 \"zero\", \"uniform\" 중 하나여야 합니다");
  }
  var off = switchOff(msg.off);
  var enc = model.tokenizer.encode(msg.text, true);
  if (enc.error) return { type: "ablated", id: msg.id, error: enc.error };
  var cfg = model.config, L = cfg.layers, H = cfg.heads, D = cfg.hidden_size, n = enc.ids.length;
  var before = intactOf(enc.ids), after = encode(enc.ids, off, ablation, before);
  var a = pooled(before.hidden, n, D), b = pooled(after.hidden, n, D), dot = 0;
  for (var i = 0; i < D; i++) dot += a[i] * b[i];
  var moved = new Float64Array(L * H), weights = new Float32Array(L * H * n * n);
  for (var l = 0; l < L; l++) {
    var p = before.layers[l].weights, q = after.layers[l].weights;
    weights.set(q, l * H * n * n);
    for (var h = 0; h < H; h++) {
      if (off[l * H + h]) { moved[l * H + h] = NaN; continue; }
      var sum = 0;
      for (var r = 0; r < n; r++) sum += jsDistance(p, q, (h * n + r) * n, n);
      moved[l * H + h] = sum / n;  // 모든 토큰의 행 (<s>, 접두어, </s> 까지) 의 평균: 참고 데이터와 같은 행
    }
  }
  return { type: "ablated", id: msg.id, text: msg.text, tokens: enc.tokens, ids: enc.ids, queries: enc.queries,
           off: off, ablation: ablation, weights: weights, hidden: after.hidden, oneMinusCos: 1 - dot, moved: moved,
           ms: performance.now() - t0 };
}

/* 벤치마크(.ci/bench_browser_model.py)는 같은 코드를 페이지의 주 스레드에 붙여 CPU 를 4배 느리게 한 채로 잽니다
   (Chromium 의 CPU 느리게 하기는 워커에는 걸리지 않습니다). 그래서 계산 함수를 이름으로도 내놓습니다. */
self.E5Model = { load: load, run: run, ablate: ablate, heldBytes: heldBytes, encode: encode, linear: linear, kernelLinear: kernelLinear,
                 layerNorm: layerNorm, gelu: gelu, dequantize: dequantize, half: half, simdAvailable: simdAvailable };

if (IN_WORKER) onmessage = function (ev) {
  var msg = ev.data;
  if (msg.type === "load") {
    load(msg).then(function (info) {
      postMessage({ type: "ready", packs: info.packs, cached: info.cached, kernel: info.kernel });
    }, function (err) {
      postMessage({ type: "load-error", kind: err.kind || "error", message: err.message || String(err) });
    });
  } else if (msg.type === "run") {
    if (!model) {
      postMessage({ type: "result", id: msg.id, error: { kind: "not_ready", message: "모델을 아직 받지 않았습니다." } });
      return;
    }
    var out;
    try {
      out = run(msg);
    } catch (err) {
      out = { type: "result", id: msg.id, error: { kind: "error", message: "계산하지 못했습니다: " + err.message } };
    }
    var transfer = out.error ? [] : [out.scores.buffer, out.q.buffer, out.k.buffer, out.weights.buffer, out.qweights.buffer,
                                     out.hidden.buffer].concat(out.atlas ? [out.atlas.buffer] : []);
    postMessage(out, transfer);
  } else if (msg.type === "ablate") {
    var done;
    if (!model) {
      done = { type: "ablated", id: msg.id, error: { kind: "not_ready", message: "모델을 아직 받지 않았습니다." } };
    } else {
      try {
        done = ablate(msg);
      } catch (err) {
        // 잘못 적은 off·ablation 은 이름을 밝힌 그 글 그대로 (그 밖의 실패도 같은 모양으로)
        done = { type: "ablated", id: msg.id, error: { kind: err instanceof BadArgument ? "bad_off" : "error",
                                                       message: "헤드를 끄고 계산하지 못했습니다: " + err.message } };
      }
    }
    postMessage(done, done.error ? [] : [done.weights.buffer, done.hidden.buffer, done.moved.buffer]);
  }
};
