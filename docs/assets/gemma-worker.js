/* Gemma 3 270M 을 웹 워커 안에서: 모델 파일 받기(브라우저에 저장), GGUF 블록 풀기, 프롬프트 읽기, 한 토큰씩 이어 쓰기.
 *
 * 계산은 snippets/lib/gemma_decoder.py 의 forward 를 그대로 옮긴 것입니다 (층마다):
 *   h → RMS 정규화 → q, k, v = x W → 쿼리·키의 RMS 정규화(QK-norm) → RoPE → 2장의 네 단계 (Q·Kᵀ, √d_k 로 나누기,
 *   인과 마스크(지역 층은 창 512)를 쓴 소프트맥스, V 와의 가중합; 쿼리 헤드 넷이 K·V 헤드 하나를 함께 씀) → W_O →
 *   정규화해서 더하기 → GeGLU 피드포워드 → 정규화해서 더하기. 마지막에 RMS 정규화와 임베딩 표(부분 어휘)로 로짓.
 * 프롬프트는 한 번에 행렬로 읽고(가중치 한 행을 풀어 모든 토큰에 씁니다), 그 뒤로는 KV 캐시에 한 토큰씩 더합니다.
 *
 * 행렬 곱: 워커는 GGUF 블록(Q4_K, Q5_0, Q6_K, Q8_0)을 받아 8비트 정수와 묶음마다의 배율(Q4_K 는 최솟값도)로 폅니다
 * (unpack…). 곱은 브라우저가 WebAssembly SIMD 를 쓸 수 있으면 gemma-matmul.wat(빌드가 matmul.wasm 으로), 아니면
 * matmulJs() 가 합니다. 둘은 같은 값을 같은 차례로 곱하고, WebAssembly 는 float32 로, JavaScript 는 float64 로 더합니다.
 * 나머지(정규화, RoPE, 어텐션, 소프트맥스)는 float64 로 계산해 float32 로 저장합니다. numpy 와의 차이는 테스트가 잽니다
 * (tests/test_own_prompt_browser.py).
 *
 * 페이지와 주고받는 말 (postMessage)
 *   → {type: "load", manifest, base, cache[, wasm: false]}
 *        ← {type: "progress", loaded, total} … {type: "phase", phase: "check" | "prepare", name}
 *          … {type: "ready", cached, kernel, saved, held, vocab: {ids, pieces}}   saved: false 이면 저장하지 못했습니다
 *            (storeError: "quota" | "error"). vocab: 부분 어휘의 원래 id 와 조각 (행 순서, 로짓의 차례)
 *          또는 {type: "load-error", kind: "network" | "cut" | "corrupt" | "memory" | "error", message}
 *   → {type: "start", id, text}   프롬프트를 새로 읽습니다 (KV 캐시를 비우고)
 *   → {type: "next", id, token}   고른 토큰(원래 id) 하나를 더 읽습니다
 *        ← {type: "step", id, ids, tokens, logits (Float32Array, 부분 어휘의 행 순서), order (Int32Array, 로짓이 큰 행부터),
 *           attention (Float32Array, (층, 헤드, 키):
 *           마지막 자리의 쿼리 한 행), ms, kernel}  또는 {type: "step", id, error: {kind, message}}
 *   → {type: "lens", id}          마지막 자리의 로짓 렌즈 ← {type: "lens", id, probs (Float32Array, (층, 부분 어휘)), ms}
 */
/* global GemmaTokenizer */
"use strict";

var IN_WORKER = typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope;
if (IN_WORKER && typeof GemmaTokenizer === "undefined") importScripts("gemma-tokenizer.js");

var model = null;  // {config, layers, normOut, embed, tokenizer, kernel, rows}
var run = null;  // 지금 읽고 있는 글: {ids, K: [층마다 Float32Array], V, length, stream (층마다 마지막 자리의 잔차)}

/* ---- GGUF 블록 풀기: 가중치마다 8비트 정수 q, 묶음마다 float32 배율 s (와 최솟값 m) ----------------------------
   값은 q × s − m 이고 gguf.quants.dequantize 가 푼 float32 와 비트까지 같습니다 (각 형식의 주석). */

/* float16 (비트 16개) → 수. 모든 float16 은 float32 로 정확히 나타낼 수 있습니다. */
function half(bits) {
  var sign = bits & 0x8000 ? -1 : 1, exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * Math.pow(2, -24);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1024 + frac) * Math.pow(2, exp - 25);
}
function half16(b, p) { return half(b[p] | (b[p + 1] << 8)); }

/* Q8_0 (34바이트: float16 d, int8 32개): 값 = q × d. 묶음 32. */
function unpackQ8_0(b, at, blocks, q, s) {
  for (var k = 0; k < blocks; k++) {
    var p = at + 34 * k;
    s[k] = half16(b, p);
    for (var j = 0; j < 32; j++) q[32 * k + j] = (b[p + 2 + j] << 24) >> 24;
  }
}

/* Q5_0 (22바이트: float16 d, 높은 비트 32개 qh, 낮은 4비트 qs 16바이트): 값 = (낮은 4비트 | 높은 비트 << 4) − 16, × d.
   바이트 j 의 아래 4비트가 j번째, 위 4비트가 j+16번째 가중치이고, qh 의 비트 i 가 i번째 가중치의 다섯째 비트입니다. 묶음 32. */
function unpackQ5_0(b, at, blocks, q, s) {
  for (var k = 0; k < blocks; k++) {
    var p = at + 22 * k, qh = (b[p + 2] | (b[p + 3] << 8) | (b[p + 4] << 16) | (b[p + 5] << 24)) >>> 0;
    s[k] = half16(b, p);
    for (var j = 0; j < 16; j++) {
      var v = b[p + 6 + j];
      q[32 * k + j] = ((v & 0x0f) | (((qh >>> j) & 1) << 4)) - 16;
      q[32 * k + j + 16] = ((v >> 4) | (((qh >>> (j + 16)) & 1) << 4)) - 16;
    }
  }
}

/* Q6_K (210바이트 = 가중치 256개: 낮은 4비트 ql 128, 높은 2비트 qh 64, int8 배율 16개, float16 d): 값 = d × sc × (q − 32).
   묶음 16 (배율이 16개마다). 비트의 자리는 gguf.quants.Q6_K.dequantize_blocks 와 같습니다. */
function unpackQ6_K(b, at, blocks, q, s) {
  for (var k = 0; k < blocks; k++) {
    var p = at + 210 * k, d = half16(b, p + 208), o = 256 * k;
    for (var g = 0; g < 16; g++) s[16 * k + g] = Math.fround(d * ((b[p + 192 + g] << 24) >> 24));
    for (var i = 0; i < 256; i++) {
      // ql: 64바이트씩 두 반쪽, 반쪽마다 아래 4비트(0..63)와 위 4비트(64..127). qh: 32바이트씩, 2비트 넷
      var h = i >> 7, r = i & 127, quarter = r >> 5, lane = r & 31;
      var low = b[p + 64 * h + lane + (quarter & 1) * 32] >> ((quarter >> 1) * 4) & 0x0f;
      var high = (b[p + 128 + 32 * h + lane] >> (2 * quarter)) & 3;
      q[o + i] = (low | (high << 4)) - 32;
    }
  }
}

/* Q4_K (144바이트 = 가중치 256개: float16 d, dmin, 6비트로 묶은 배율·최솟값 8쌍 12바이트, 4비트 128바이트):
   값 = (d × sc) × q − (dmin × mn), 묶음 32. 배율을 푸는 자리는 gguf.quants.Q4_K.get_scale_min 과 같습니다. */
function unpackQ4_K(b, at, blocks, q, s, m) {
  for (var k = 0; k < blocks; k++) {
    var p = at + 144 * k, d = half16(b, p), dmin = half16(b, p + 2), sc = p + 4;
    for (var g = 0; g < 8; g++) {
      var scale = g < 4 ? b[sc + g] & 63 : (b[sc + 4 + g] & 15) | ((b[sc + g - 4] >> 6) << 4);
      var mn = g < 4 ? b[sc + 4 + g] & 63 : (b[sc + 4 + g] >> 4) | ((b[sc + g] >> 6) << 4);
      s[8 * k + g] = Math.fround(d * scale);
      m[8 * k + g] = Math.fround(dmin * mn);
    }
    for (var c = 0; c < 4; c++) {  // 32바이트마다: 아래 4비트가 묶음 2c, 위 4비트가 묶음 2c+1
      for (var j = 0; j < 32; j++) {
        var v = b[p + 16 + 32 * c + j];
        q[256 * k + 64 * c + j] = v & 0x0f;
        q[256 * k + 64 * c + 32 + j] = v >> 4;
      }
    }
  }
}

/* 형식마다: 블록 하나의 가중치 수와 바이트, 묶음 크기(gshift = log2), 최솟값이 있는지, 푸는 함수 */
var FORMATS = {
  Q8_0: { weights: 32, bytes: 34, gshift: 5, min: false, unpack: unpackQ8_0 },
  Q5_0: { weights: 32, bytes: 22, gshift: 5, min: false, unpack: unpackQ5_0 },
  Q6_K: { weights: 256, bytes: 210, gshift: 4, min: false, unpack: unpackQ6_K },
  Q4_K: { weights: 256, bytes: 144, gshift: 5, min: true, unpack: unpackQ4_K }
};

/* ---- 메모리: 행렬들을 한 버퍼에 차례로 (WebAssembly 커널이 복사 없이 읽게) --------------------------------- */

function roundUp(n) { return 16 * Math.ceil(n / 16); }

/* 행렬 하나가 차지하는 바이트: 정수 q + 배율 s (+ 최솟값 m), 각각 16바이트 경계에서 */
function matrixBytes(kind, rows, cols) {
  var f = FORMATS[kind], groups = rows * cols >> f.gshift;
  return roundUp(rows * cols) + roundUp(4 * groups) * (f.min ? 2 : 1);
}

/* 버퍼에서 자리를 차례로 내주는 것 */
function arena(buffer) {
  var used = 0;
  return {
    take: function (Type, count) {
      var at = used;
      used += roundUp(count * Type.BYTES_PER_ELEMENT);
      if (used > buffer.byteLength) throw new Error("모델을 둘 메모리가 모자랍니다");
      return new Type(buffer, at, count);
    },
    used: function () { return used; }
  };
}

/* 텐서 목록의 행렬 하나를 풀어 {q, s, m, gshift, rows, cols} 로. bytes: 그 텐서가 든 파일의 Uint8Array */
function unpackMatrix(t, bytes, room) {
  var f = FORMATS[t.kind];
  if (!f) throw new LoadError("corrupt", "모델 파일에 모르는 형식 " + t.kind + " 이 있습니다.");
  var rows = t.shape[0], cols = t.shape[1], count = rows * cols;
  if (t.bytes !== count / f.weights * f.bytes) throw new LoadError("corrupt", "텐서 " + t.name + " 의 크기가 목록과 다릅니다.");
  var M = { rows: rows, cols: cols, gshift: f.gshift, q: room.take(Int8Array, count), s: room.take(Float32Array, count >> f.gshift),
            m: f.min ? room.take(Float32Array, count >> f.gshift) : null };
  f.unpack(bytes, t.offset, count / f.weights, M.q, M.s, M.m);
  return M;
}

/* ---- 행렬 곱 y (n × rows) = x (n × cols) Wᵀ ---------------------------------------------------------- */

/* 가중치 행 하나를 float32 로 (q × s − m: 곱은 정확하고 뺄셈에서 한 번 반올림, numpy 와 같은 값) */
function unpackRow(M, o, out) {
  var at = o * M.cols, shift = M.gshift;
  for (var i = 0; i < M.cols; i++) {
    var g = (at + i) >> shift;
    out[i] = Math.fround(Math.fround(M.q[at + i] * M.s[g]) - (M.m ? M.m[g] : 0));
  }
}

/* JavaScript 의 길: 가중치 한 행을 풀어 두고 모든 토큰과 곱합니다 (float64 로 더함). */
function matmulJs(x, n, M) {
  var y = new Float32Array(n * M.rows), w = new Float32Array(M.cols), cols = M.cols;
  for (var o = 0; o < M.rows; o++) {
    unpackRow(M, o, w);
    for (var t = 0; t < n; t++) {
      var a = t * cols, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (var i = 0; i < cols; i += 4) {
        s0 += x[a + i] * w[i]; s1 += x[a + i + 1] * w[i + 1]; s2 += x[a + i + 2] * w[i + 2]; s3 += x[a + i + 3] * w[i + 3];
      }
      y[t * M.rows + o] = (s0 + s1) + (s2 + s3);
    }
  }
  return y;
}

/* WebAssembly 의 길: x 를 커널의 입력 자리에 옮기고 matmul.wasm 을 부릅니다. */
function matmulWasm(x, n, M) {
  var k = model.kernel, need = n * Math.max(M.cols, M.rows);
  if (need > k.x.length || M.cols % 16) return matmulJs(x, n, M);
  k.x.set(x.subarray(0, n * M.cols));
  k.matmul(k.x.byteOffset, n, M.cols, M.q.byteOffset, M.s.byteOffset, M.m ? M.m.byteOffset : 0, M.gshift, M.rows,
           k.y.byteOffset, k.scratch.byteOffset);
  return k.y.slice(0, n * M.rows);
}

function matmul(x, n, M) { return model.kernel ? matmulWasm(x, n, M) : matmulJs(x, n, M); }

/* ---- 층의 작은 조각들 (gemma_decoder 의 rms_norm, gelu_tanh, rotate) ------------------------------------ */

/* 행마다 x / √(평균(x²) + eps) × scale. rows 개의 행, 폭 d. */
function rmsNorm(x, rows, d, scale, eps) {
  var y = new Float32Array(rows * d);
  for (var r = 0; r < rows; r++) {
    var a = r * d, ss = 0;
    for (var i = 0; i < d; i++) ss += x[a + i] * x[a + i];
    var inv = 1 / Math.sqrt(Math.fround(ss / d) + eps);
    for (var j = 0; j < d; j++) y[a + j] = Math.fround(x[a + j] * inv) * scale[j];
  }
  return y;
}

var GELU_C = Math.sqrt(2 / Math.PI);
function geluTanh(x) { return 0.5 * x * (1 + Math.tanh(GELU_C * (x + 0.044715 * x * x * x))); }

/* RoPE: 성분 i 와 i + d/2 를 한 쌍으로, 자리 × base^(−2i/d) 만큼 돌립니다 (v 는 한 헤드의 벡터 d 개, at 에서 시작). */
function rotate(v, at, d, pos, base) {
  var h = d / 2;
  for (var i = 0; i < h; i++) {
    var angle = pos * Math.pow(base, -2 * i / d), c = Math.cos(angle), s = Math.sin(angle);
    var a = v[at + i], b = v[at + i + h];
    v[at + i] = a * c - b * s;
    v[at + i + h] = a * s + b * c;
  }
}

/* ---- 층 하나와 전체 (gemma_decoder.attention_block, forward) ---------------------------------------------- */

/* 층 l 의 셀프 어텐션: 정규화한 x (n × d_model) 의 새 토큰들을 KV 캐시(자리 first…)에 더하고, 캐시 전체로 계산합니다.
   반환: {out (n × d_model, W_O 뒤), last (헤드 × 자리: 마지막 새 토큰의 가중치)} */
function attentionBlock(x, n, l, first) {
  var c = model.config, L = model.layers[l], H = c.heads, dh = c.d_head, eps = c.eps;
  var local = c.global_layers.indexOf(l) < 0, base = local ? c.local_base : c.global_base;
  var q = rmsNorm(matmul(x, n, L.W_Q), n * H, dh, L.norm_q, eps);
  var k = rmsNorm(matmul(x, n, L.W_K), n, dh, L.norm_k, eps), v = matmul(x, n, L.W_V);
  for (var t = 0; t < n; t++) {
    for (var h = 0; h < H; h++) rotate(q, (t * H + h) * dh, dh, first + t, base);
    rotate(k, t * dh, dh, first + t, base);
  }
  run.K[l].set(k, first * dh);
  run.V[l].set(v, first * dh);
  var mixed = new Float32Array(n * H * dh), total = first + n, last = new Float32Array(H * total);
  for (var r = 0; r < n; r++) {
    var from = local ? Math.max(0, first + r - c.window + 1) : 0;  // 지역 층은 창 안의 키만
    for (var hh = 0; hh < H; hh++) {
      var w = headWeights(q, (r * H + hh) * dh, run.K[l], from, first + r, dh);
      mixValues(w, run.V[l], from, dh, mixed, (r * H + hh) * dh);
      if (r === n - 1) for (var j = 0; j < w.length; j++) last[hh * total + from + j] = w[j];
    }
  }
  return { out: matmul(mixed, n, L.W_O), last: last };
}

/* 2장의 ①–③: 쿼리 한 행과 키 from…to 의 점수 q·k, √d_k 로 나누기 (float32, 코어처럼), 소프트맥스 (최댓값을 빼고) */
function headWeights(q, qa, K, from, to, dh) {
  var n = to - from + 1, w = new Float64Array(n), scale = Math.fround(Math.sqrt(dh)), max = -Infinity;
  for (var j = 0; j < n; j++) {
    var ka = (from + j) * dh, s = 0;
    for (var d = 0; d < dh; d++) s += q[qa + d] * K[ka + d];
    w[j] = Math.fround(Math.fround(s) / scale);
    if (w[j] > max) max = w[j];
  }
  var sum = 0;
  for (var i = 0; i < n; i++) { w[i] = Math.exp(w[i] - max); sum += w[i]; }
  for (var k = 0; k < n; k++) w[k] = Math.fround(w[k] / sum);
  return w;
}

/* ④ 가중치 × V 를 out[at…] 에 */
function mixValues(w, V, from, dh, out, at) {
  var acc = new Float64Array(dh);
  for (var j = 0; j < w.length; j++) {
    var va = (from + j) * dh;
    for (var d = 0; d < dh; d++) acc[d] += w[j] * V[va + d];
  }
  for (var e = 0; e < dh; e++) out[at + e] = acc[e];
}

function addInto(h, a) { for (var i = 0; i < h.length; i++) h[i] = h[i] + a[i]; }

/* 새 토큰들(부분 어휘의 행)을 캐시 뒤에 이어 읽습니다. 반환: 마지막 자리의 {logits, attention (층, 헤드, 자리)} */
function forward(rows) {
  var c = model.config, D = c.d_model, n = rows.length, first = run.length, eps = c.eps;
  var h = embedRows(rows), attention = [];
  run.stream = [h.slice((n - 1) * D)];
  for (var l = 0; l < c.layers; l++) {
    var L = model.layers[l];
    var a = attentionBlock(rmsNorm(h, n, D, L.norm_attn, eps), n, l, first);
    addInto(h, rmsNorm(a.out, n, D, L.norm_attn_out, eps));
    var f = rmsNorm(h, n, D, L.norm_ffn, eps), gate = matmul(f, n, L.W_gate), up = matmul(f, n, L.W_up);
    for (var i = 0; i < gate.length; i++) gate[i] = Math.fround(geluTanh(gate[i])) * up[i];
    addInto(h, rmsNorm(matmul(gate, n, L.W_down), n, D, L.norm_ffn_out, eps));
    run.stream.push(h.slice((n - 1) * D));
    attention.push(a.last);
  }
  run.length += n;
  return { logits: logitsOf(run.stream[c.layers]), attention: joinLayers(attention) };
}

/* 마지막 은닉 상태 하나 → 부분 어휘의 로짓 (최종 RMS 정규화 + 임베딩 표와의 내적) */
function logitsOf(hLast) {
  var c = model.config;
  return matmul(rmsNorm(hLast, 1, c.d_model, model.normOut, c.eps), 1, model.embed);
}

function joinLayers(parts) {
  var size = parts[0].length, out = new Float32Array(parts.length * size);
  parts.forEach(function (p, l) { out.set(p, l * size); });
  return out;
}

/* 임베딩: 부분 어휘의 행을 풀어 √d_model (float32) 를 곱합니다 (gemma_file.EmbeddingTable.rows × np.float32(√640)) */
function embedRows(rows) {
  var D = model.config.d_model, h = new Float32Array(rows.length * D), w = new Float32Array(D), k = Math.fround(Math.sqrt(D));
  rows.forEach(function (r, t) {
    unpackRow(model.embed, r, w);
    for (var i = 0; i < D; i++) h[t * D + i] = w[i] * k;
  });
  return h;
}

/* ---- 한 걸음: 프롬프트 읽기와 토큰 하나 더 읽기 ----------------------------------------------------------- */

function newRun() {
  var c = model.config, capacity = c.max_prompt + c.max_new, K = [], V = [];
  for (var l = 0; l < c.layers; l++) { K.push(new Float32Array(capacity * c.d_head)); V.push(new Float32Array(capacity * c.d_head)); }
  return { ids: [], rows: [], K: K, V: V, length: 0, capacity: capacity, stream: null };
}

function start(msg) {
  var t0 = performance.now(), enc = model.tokenizer.encode(msg.text);
  if (enc.error) return { type: "step", id: msg.id, error: enc.error };
  run = newRun();
  return step(msg.id, enc.rows, t0);
}

function next(msg) {
  var t0 = performance.now(), r = model.rowOf.get(msg.token);
  if (!run || !run.length) return { type: "step", id: msg.id, error: { kind: "no_prompt", message: "먼저 프롬프트를 계산해 주세요." } };
  if (r === undefined) return { type: "step", id: msg.id, error: { kind: "bad_token", message: "토큰 " + msg.token + " 은 이 도구의 어휘에 없습니다." } };
  if (run.length >= run.capacity) {
    return { type: "step", id: msg.id, error: { kind: "full", message: "더 이어 쓸 수 없습니다: 이 도구는 프롬프트 뒤로 " +
      model.config.max_new + "토큰까지 계산합니다." } };
  }
  return step(msg.id, [r], t0);
}

function step(id, rows, t0) {
  var out = forward(rows);
  rows.forEach(function (r) { run.rows.push(r); run.ids.push(model.tokenizer.ids[r]); });
  return { type: "step", id: id, ids: run.ids.slice(), tokens: run.rows.map(function (r) { return model.tokenizer.pieces[r]; }),
           logits: out.logits, order: orderOf(out.logits), attention: out.attention, ms: performance.now() - t0,
           kernel: model.kernel ? "wasm" : "js" };
}

/* 행 번호를 로짓이 큰 차례로 (같으면 행 번호, 곧 id 가 작은 것부터). 페이지가 확률을 셀 때 쓰는 차례를 여기서 정렬해
   보냅니다: 부분 어휘 9,500여 개를 정렬하는 일이 페이지의 주 스레드에 남지 않게. */
function orderOf(logits) {
  var order = new Int32Array(logits.length);
  for (var i = 0; i < order.length; i++) order[i] = i;
  return order.sort(function (a, b) { return logits[b] - logits[a] || a - b; });
}

/* 로짓 렌즈: 층마다 마지막 자리의 잔차 흐름에 최종 정규화와 임베딩 표를 써서 부분 어휘의 확률 (T = 1) */
function lens(msg) {
  var t0 = performance.now(), c = model.config, V = model.embed.rows, probs = new Float32Array(c.layers * V);
  if (!run || !run.stream) return { type: "lens", id: msg.id, error: { kind: "no_prompt", message: "먼저 프롬프트를 계산해 주세요." } };
  for (var l = 1; l <= c.layers; l++) {
    var z = logitsOf(run.stream[l]), max = -Infinity, sum = 0;
    for (var i = 0; i < V; i++) if (z[i] > max) max = z[i];
    for (var j = 0; j < V; j++) sum += Math.exp(z[j] - max);
    for (var k = 0; k < V; k++) probs[(l - 1) * V + k] = Math.exp(z[k] - max) / sum;
  }
  return { type: "lens", id: msg.id, probs: probs, ms: performance.now() - t0 };
}

/* ---- 파일 받기, 확인, 저장 ----------------------------------------------------------------------------- */

function LoadError(kind, message) { this.kind = kind; this.message = message; }

function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
}

async function verified(buffer, entry) {
  if (buffer.byteLength !== entry.bytes) return false;
  if (!(self.crypto && crypto.subtle)) return true;  // 보안 출처(https, localhost)가 아니면 크기만 봅니다
  return hexOf(await crypto.subtle.digest("SHA-256", buffer)) === entry.sha256;
}

/* 받는 중의 바이트를 모아 하나로 (받다가 끊기면 "cut") */
async function download(url, name, entry, progress) {
  var response;
  try { response = await fetch(url, { cache: "no-cache" }); } catch (err) {
    throw new LoadError("network", "모델 파일 " + name + " 을 받지 못했습니다. 네트워크에 연결돼 있는지 확인하고 다시 눌러 주세요.");
  }
  if (!response.ok) {
    throw new LoadError("network", "모델 파일 " + name + " 을 받지 못했습니다 (서버 응답 " + response.status + "). 잠시 뒤 다시 눌러 주세요.");
  }
  var reader = response.body.getReader(), buffer = new Uint8Array(entry.bytes), got = 0;
  try {
    for (;;) {
      var part = await reader.read();
      if (part.done) break;
      if (got + part.value.length > buffer.length) throw new Error("too long");
      buffer.set(part.value, got);
      got += part.value.length;
      progress(part.value.length, false);
    }
  } catch (err) {
    throw new LoadError("cut", "모델 파일 " + name + " 을 받다가 연결이 끊겼습니다 (" + (got / 1e6).toFixed(1) + " / " +
                        (entry.bytes / 1e6).toFixed(1) + " MB). 다시 누르면 받지 못한 파일만 다시 받습니다.");
  }
  if (got !== entry.bytes) {
    throw new LoadError("cut", "모델 파일 " + name + " 이 " + (got / 1e6).toFixed(1) + " MB 에서 끊겼습니다 (" +
                        (entry.bytes / 1e6).toFixed(1) + " MB 여야 합니다). 다시 누르면 받지 못한 파일만 다시 받습니다.");
  }
  return buffer.buffer;
}

/* 파일 하나: 저장소에 맞는 것이 있으면 그것을, 없으면 받아 확인하고 저장합니다. 저장이 안 되면(자리 없음) store.failed 에 적고 계속합니다. */
async function getFile(name, entry, base, store, progress, say) {
  var url = new URL(name, base).href;
  if (store.cache) {
    var hit = await store.cache.match(url);
    if (hit) {
      var saved = await hit.arrayBuffer();
      say({ type: "phase", phase: "check", name: name });
      if (await verified(saved, entry)) { progress(entry.bytes, true); return saved; }
    }
  }
  var buffer = await download(url, name, entry, progress);
  say({ type: "phase", phase: "check", name: name });
  if (!(await verified(buffer, entry))) {
    throw new LoadError("corrupt", "받은 모델 파일 " + name + " 이 이 사이트가 만든 파일과 다릅니다 (sha256). 다시 눌러 주세요.");
  }
  await keep(store, url, buffer);
  return buffer;
}

async function keep(store, url, buffer) {
  if (!store.cache || store.failed) return;
  try {
    await store.cache.put(url, new Response(buffer, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch (err) {
    store.failed = err && err.name === "QuotaExceededError" ? "quota" : "error";  // 이번 계산은 그대로 합니다
  }
}

/* ---- 모델 열기 --------------------------------------------------------------------------------------- */

async function load(msg) {
  var manifest = msg.manifest, say = msg.onProgress || postMessage;
  if (!manifest || manifest.format !== "gemma-browser/1") throw new LoadError("corrupt", "모델 목록(manifest.json)의 형식이 다릅니다.");
  var store = { cache: null, failed: null };
  if (msg.cache && self.caches) { try { store.cache = await caches.open(msg.cache); } catch (err) { store.failed = "error"; } }
  var names = manifest.packs.ko, total = names.reduce(function (s, n) { return s + manifest.files[n].bytes; }, 0);
  var loaded = 0, fromCache = true, last = 0, files = {};
  function progress(bytes, cached) {
    loaded += bytes;
    if (!cached) fromCache = false;
    if (Date.now() - last > 100 || loaded === total) { last = Date.now(); say({ type: "progress", loaded: loaded, total: total }); }
  }
  for (var f = 0; f < names.length; f++) files[names[f]] = await getFile(names[f], manifest.files[names[f]], msg.base, store, progress, say);
  say({ type: "phase", phase: "prepare" });
  var kernel = msg.wasm === false ? null : await loadKernel(manifest, msg.base, store);
  model = build(manifest, files, kernel);
  run = null;
  if (store.cache && !store.failed) {
    try {
      await store.cache.put(new URL("manifest.json", msg.base).href,
                            new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/json" } }));
    } catch (err) { store.failed = err && err.name === "QuotaExceededError" ? "quota" : "error"; }
  }
  return { cached: fromCache, kernel: kernel ? "wasm" : "js", saved: !!store.cache && !store.failed, storeError: store.failed,
           held: model.bytes, vocab: { ids: model.tokenizer.ids, pieces: model.tokenizer.pieces } };
}

/* 받은 파일들 → 모델: 행렬을 모두 한 버퍼(커널이 있으면 그 메모리)에 풀어 둡니다. 받은 파일은 버립니다. */
function build(manifest, files, kernel) {
  var c = manifest.config, vocab = JSON.parse(new TextDecoder().decode(files["vocab.json"]));
  if (c.kv_heads !== 1) throw new LoadError("corrupt", "이 워커는 키·밸류 헤드가 하나인 모델만 계산합니다 (kv_heads=" + c.kv_heads + ").");
  var room = kernel ? kernel.room : arena(new ArrayBuffer(modelBytes(manifest)));
  var m = { config: c, layers: [], tokenizer: new GemmaTokenizer(vocab, c.max_prompt, manifest.prompt_chars), kernel: kernel, rowOf: new Map() };
  vocab.ids.forEach(function (id, r) { m.rowOf.set(id, r); });
  var names = {};
  manifest.tensors.forEach(function (t) { names[t.name] = t; });
  var short = { attn_norm: "norm_attn", attn_q: "W_Q", attn_k: "W_K", attn_v: "W_V", attn_q_norm: "norm_q", attn_k_norm: "norm_k",
                attn_output: "W_O", post_attention_norm: "norm_attn_out", ffn_norm: "norm_ffn", ffn_gate: "W_gate",
                ffn_up: "W_up", ffn_down: "W_down", post_ffw_norm: "norm_ffn_out" };
  for (var l = 0; l < c.layers; l++) {
    var layer = {};
    Object.keys(short).forEach(function (s) { layer[short[s]] = tensor(names["blk." + l + "." + s + ".weight"], files, room); });
    m.layers.push(layer);
  }
  m.normOut = tensor(names["output_norm.weight"], files, room);
  var embedTable = { kind: "Q8_0", shape: [vocab.count, c.d_model], offset: 0, bytes: files["embed.bin"].byteLength, name: "embed" };
  m.embed = unpackMatrix(embedTable, new Uint8Array(files["embed.bin"]), room);
  m.bytes = room.used();
  return m;
}

function tensor(t, files, room) {
  if (!t) throw new LoadError("corrupt", "모델 목록에 있어야 할 텐서가 없습니다.");
  if (t.kind === "F32") return new Float32Array(files[t.file], t.offset, t.bytes / 4).slice();
  return unpackMatrix(t, new Uint8Array(files[t.file]), room);
}

/* 풀어 둔 모델이 차지할 바이트 (행렬마다 matrixBytes, 임베딩 표까지) */
function modelBytes(manifest) {
  var total = 0;
  manifest.tensors.forEach(function (t) { if (t.kind !== "F32") total += matrixBytes(t.kind, t.shape[0], t.shape[1]); });
  return total + matrixBytes("Q8_0", manifest.vocab.count, manifest.config.d_model);
}

/* ---- WebAssembly 커널 ------------------------------------------------------------------------------ */

/* SIMD 를 쓸 수 있는지: v128 값 하나를 만드는 가장 작은 모듈을 이 브라우저가 받아들이는지 봅니다 (e5-worker.js 와 같은 것). */
var SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
function simdAvailable() {
  try { return typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE); } catch (err) { return false; }
}

/* 커널(목록의 kernels.matmul, 2 KB 남짓)을 받아 메모리를 한 번에 만들고 붙입니다: 모델 + 입력·출력·풀어 둔 두 행의 자리.
   받지 못하거나 붙이지 못하면 null (JavaScript 로 계산합니다). 메모리를 만들지 못하면 (기기의 메모리) 그것도 null. */
async function loadKernel(manifest, base, store) {
  var name = manifest.kernels && manifest.kernels.matmul;
  if (!name || !manifest.files[name] || !simdAvailable()) return null;
  try {
    var bytes = await getFile(name, manifest.files[name], base, store, function () {}, function () {});
    var c = manifest.config, width = (c.max_prompt + c.max_new) * Math.max(c.d_ff, manifest.vocab.count, c.heads * c.d_head);
    var size = modelBytes(manifest) + roundUp(4 * width) * 2 + roundUp(8 * Math.max(c.d_ff, c.heads * c.d_head)) + 65536;
    var pages = Math.ceil(size / 65536), memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    var instance = (await WebAssembly.instantiate(bytes, { env: { memory: memory } })).instance;
    var room = arena(memory.buffer), io = { x: null, y: null, scratch: null };
    io.x = room.take(Float32Array, width);
    io.y = room.take(Float32Array, width);
    io.scratch = room.take(Float32Array, 2 * Math.max(c.d_ff, c.heads * c.d_head));
    return { memory: memory, room: room, matmul: instance.exports.matmul, x: io.x, y: io.y, scratch: io.scratch };
  } catch (err) {
    return null;
  }
}

/* 벤치마크(.ci/bench_browser_model.py)는 같은 코드를 페이지의 주 스레드에 붙여 CPU 를 4배 느리게 한 채로 잽니다
   (Chromium 의 CPU 느리게 하기는 워커에는 걸리지 않습니다). 그래서 계산 함수를 이름으로도 내놓습니다. */
self.GemmaModel = { load: load, start: start, next: next, lens: lens, matmulJs: matmulJs, unpackRow: unpackRow,
                    FORMATS: FORMATS, half: half, simdAvailable: simdAvailable };

function answer(msg) {
  if (!model) return { type: msg.type === "lens" ? "lens" : "step", id: msg.id, error: { kind: "not_ready", message: "모델을 아직 받지 않았습니다." } };
  try {
    return msg.type === "start" ? start(msg) : msg.type === "next" ? next(msg) : lens(msg);
  } catch (err) {
    return { type: msg.type === "lens" ? "lens" : "step", id: msg.id, error: { kind: "error", message: "계산하지 못했습니다: " + err.message } };
  }
}

if (IN_WORKER) onmessage = function (ev) {
  var msg = ev.data;
  if (msg.type === "load") {
    load(msg).then(function (info) {
      postMessage({ type: "ready", cached: info.cached, kernel: info.kernel, saved: info.saved, storeError: info.storeError,
                    held: info.held, vocab: info.vocab });
    }, function (err) {
      var kind = err instanceof LoadError ? err.kind : err instanceof RangeError ? "memory" : "error";
      var message = kind === "memory" ? "이 기기에서 모델을 둘 메모리를 얻지 못했습니다. 다른 탭을 닫고 다시 눌러 주세요." : err.message || String(err);
      postMessage({ type: "load-error", kind: kind, message: message });
    });
  } else if (msg.type === "start" || msg.type === "next" || msg.type === "lens") {
    var out = answer(msg);
    postMessage(out, out.error ? [] : out.type === "lens" ? [out.probs.buffer] : [out.logits.buffer, out.order.buffer, out.attention.buffer]);
  }
};
