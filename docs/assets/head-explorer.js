/* 헤드 탐색기: 실제 모델의 모든 층·헤드를 고르고, 헤드 하나의 가중치와 점수 하나의 네 단계를 봅니다.
 *
 * 페이지에 <div class="head-explorer" data-src="../data/head_explorer-minilm.json"></div> 를 두면
 * 이 스크립트가 빌드 때 스니펫(snippets/sitedata/head_explorer.py)이 만든 JSON 을 읽어 도구를 그립니다.
 * 페이지는 독자가 탐색기 가까이 내려올 때 이 스크립트를 붙입니다 (overrides/main.html).
 * JSON 에는 문장마다 모든 층·헤드의 점수 q·kᵀ 가 float32 그대로 들어 있고(형식은 스니펫의 설명),
 * 층 수·헤드 수·d_head·토큰도 JSON 에서 읽으므로 모델마다 다른 코드가 없습니다.
 * 2장의 네 단계 가운데 ②–④(√d_k 로 나누기, 소프트맥스, 가중치)는 여기서 float64 로 직접 계산합니다.
 * ①(내적)을 풀어 보일 q 와 k 벡터는 문장·층마다 작은 파일에 따로 있고(JSON 의 sentences[].qk), 독자가 그 층을
 * 볼 때 한 번만 받습니다. 받는 동안에도 ②–④ 는 바로 보이고, ① 의 풀이는 벡터가 오면 채웁니다.
 * JavaScript 가 꺼져 있으면 아무것도 그리지 않고(빈 상자는 CSS 가 숨깁니다), 페이지의 정적 그림이 남습니다.
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  var FORMAT = "head-explorer/2";
  var QK_FORMAT = "head-explorer-qk/1";
  var TOP = 3;  // 쿼리마다 보여 줄 "가장 많이 보는 키" 의 수
  var TOP_DIMS = 3;  // ① 에서 숫자로 적을 "곱의 절댓값이 가장 큰 차원" 의 수

  /* ---- 숫자 ------------------------------------------------------------------------------------- */

  /* base64 로 적은 float32(리틀 엔디언) 배열 → float64 배열. float32 → float64 는 값이 바뀌지 않습니다. */
  function decodeFloat32(text) {
    var bin = atob(text);
    var view = new DataView(new ArrayBuffer(bin.length));
    for (var i = 0; i < bin.length; i++) view.setUint8(i, bin.charCodeAt(i));
    var out = new Float64Array(bin.length / 4);
    for (var k = 0; k < out.length; k++) out[k] = view.getFloat32(4 * k, true);
    return out;
  }

  /* 2장의 ②–④: 점수 한 행(q·k, 키마다) → √d_k 로 나누고, 최댓값을 빼고 지수를 취해 합으로 나눕니다.
     numpy 코어의 softmax 와 같은 순서의 float64 계산입니다. */
  function rowSteps(row, dHead) {
    var sqrtD = Math.sqrt(dHead);
    var scaled = row.map(function (s) { return s / sqrtD; });
    var max = -Infinity, argmax = 0;
    scaled.forEach(function (v, j) { if (v > max) { max = v; argmax = j; } });
    var shifted = scaled.map(function (v) { return v - max; });
    var exps = shifted.map(Math.exp);
    var sum = exps.reduce(function (a, b) { return a + b; }, 0);
    var weights = exps.map(function (e) { return e / sum; });
    return { qk: row, sqrtD: sqrtD, scaled: scaled, max: max, argmax: argmax, shifted: shifted,
             exps: exps, sum: sum, weights: weights };
  }

  /* 소수점 아래 digits 자리로 반올림한 글자. 정확히 한가운데(이진수 값 그대로 …5000…)이면 짝수 쪽으로
     보냅니다: 파이썬의 format(x, ".3f") 와 같은 규칙입니다 (toFixed 는 한가운데에서 0 에서 먼 쪽으로 갑니다).
     0 으로 반올림된 음수는 "-0.00" 대신 "0.00" 으로 적습니다. */
  function fixed(x, digits) {
    var s = x.toFixed(digits);
    var a = Math.abs(x);
    var scaled = a * Math.pow(10, digits);
    // 한가운데일 수 있는 값만 정확히 봅니다: 곱셈의 반올림 오차(상대 2^-52)는 여기 나오는 크기에서 1e-6 보다 훨씬 작습니다.
    if (a >= 0.5 * Math.pow(10, -digits) && scaled < 1e9 && Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) {
      // |x| ≥ 2^-15 인 float64 는 소수 부분이 67자리 안에서 끝나므로 toFixed(100) 은 정확한 값입니다.
      var exact = a.toFixed(100).split(".");
      var tail = exact[1].slice(digits);
      if (/^50*$/.test(tail)) {
        var kept = digits ? exact[0] + "." + exact[1].slice(0, digits) : exact[0];  // 0 쪽으로 자른 값
        if (Number(kept.charAt(kept.length - 1)) % 2 === 0) s = (x < 0 ? "-" : "") + kept;
      }
    }
    return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
  }

  /* 점수 한 행의 가중치만 (rowSteps 와 같은 float64 연산을 같은 차례로: 값이 비트까지 같습니다). 작은 히트맵과 선에
     쓰고, 배열을 새로 만들지 않아 문장을 바꿀 때 빠릅니다. scores 의 at 부터 n 개 → out 의 at 부터 n 개. */
  function rowWeights(scores, at, n, sqrtD, out) {
    var max = -Infinity;
    for (var j = 0; j < n; j++) { var v = scores[at + j] / sqrtD; if (v > max) max = v; }
    var sum = 0;
    for (var k = 0; k < n; k++) { var e = Math.exp(scores[at + k] / sqrtD - max); out[at + k] = e; sum += e; }
    for (var m = 0; m < n; m++) out[at + m] = out[at + m] / sum;
  }

  /* ---- 화면 조각 --------------------------------------------------------------------------------- */

  var viridis = window.attentionExplorers.viridis;  /* 공통 도구 (explorer-common.js) */
  var el = window.attentionExplorers.el;
  var VIRIDIS_LUT = (function () {  /* 0..1 을 1,024 단계로 나눈 색표: 작은 히트맵을 칠할 때 칸마다 계산하지 않습니다 */
    var lut = new Uint8ClampedArray(3 * 1024);
    for (var i = 0; i < 1024; i++) lut.set(viridis(i / 1023), 3 * i);
    return lut;
  })();

  var SVG = "http://www.w3.org/2000/svg";
  var SPACE = "\u2581";

  /* 토큰 이름. SentencePiece 의 ▁ (여기서 띄어쓰기가 있었다는 표시)는 흐리게 그리고, 화면 읽기 프로그램에는
     "띄어쓰기" 라고 읽힙니다. ▁ 하나뿐인 토큰은 빈 줄처럼 보이지 않게 ▁ 를 진하게 그리고 "띄어쓰기" 를 글로 적습니다.
     토큰 전체(quote 이면 따옴표까지)는 한 줄에 붙어 있습니다 (▁ 와 글자 사이에서 줄이 바뀌지 않게). */
  function tokenLabel(token, quote) {
    var span = el("span", { "class": "head-explorer__token" });
    if (quote) span.appendChild(document.createTextNode("'"));
    if (token === SPACE) {
      span.appendChild(el("span", { "class": "head-explorer__space is-alone", "aria-hidden": "true" }, SPACE));
      span.appendChild(el("span", { "class": "head-explorer__alone" }, "띄어쓰기"));
    } else {
      if (token.charAt(0) === SPACE) {
        span.appendChild(el("span", { "class": "head-explorer__space", "aria-hidden": "true" }, SPACE));
        span.appendChild(el("span", { "class": "head-explorer__sr" }, "띄어쓰기 "));
        token = token.slice(1);
      }
      span.appendChild(document.createTextNode(token));
    }
    if (quote) span.appendChild(document.createTextNode("'"));
    return span;
  }

  function plain(token) {
    return token === SPACE ? SPACE + "(띄어쓰기)" : token;
  }

  /* 숫자 하나: data-value 에 이름을 적어 두면 테스트가 numpy 의 값과 견줍니다. */
  function num(name, x, digits) {
    return el("span", { "class": "head-explorer__num", "data-value": name }, fixed(x, digits));
  }

  /* 한 번의 Tab 으로 들어오고 화살표 키로 옮겨 다니는 단추 묶음 (WAI-ARIA 의 radio group 방식:
     초점이 옮겨 가면 선택도 따라갑니다). cols 가 있으면 위·아래 화살표는 한 줄(cols 칸)씩 옮깁니다. */
  function roving(buttons, onPick, cols) {
    buttons.forEach(function (b, i) {
      b.addEventListener("click", function () { onPick(i); });
      b.addEventListener("keydown", function (ev) {
        var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -(cols || 1), ArrowDown: cols || 1 }[ev.key];
        var to = null;
        if (step !== undefined) to = i + step;
        else if (ev.key === "Home") to = cols ? i - i % cols : 0;
        else if (ev.key === "End") to = cols ? i - i % cols + cols - 1 : buttons.length - 1;
        if (to === null) return;
        ev.preventDefault();
        if (to < 0 || to >= buttons.length) return;  // 끝에서는 그 자리에 머뭅니다
        onPick(to);
        buttons[to].focus();
      });
    });
  }

  /* 고른 단추 하나만 aria-checked="true", tabindex=0. 바뀐 단추의 속성만 고칩니다 (문장을 바꿀 때 칸 144개의
     속성을 모두 다시 쓰면 브라우저가 그만큼 스타일을 다시 계산합니다). */
  function check(group, index) {
    if (group.index === index && group.buttons === group.checkedOn) return;
    if (group.checkedOn === group.buttons && group.buttons[group.index]) {
      group.buttons[group.index].setAttribute("aria-checked", "false");
      group.buttons[group.index].setAttribute("tabindex", "-1");
    } else {
      group.buttons.forEach(function (b) { b.setAttribute("aria-checked", "false"); b.setAttribute("tabindex", "-1"); });
    }
    if (group.buttons[index]) {
      group.buttons[index].setAttribute("aria-checked", "true");
      group.buttons[index].setAttribute("tabindex", "0");
    }
    group.index = index;
    group.checkedOn = group.buttons;
  }

  /* ---- 도구 ------------------------------------------------------------------------------------- */

  /* 데이터가 약속과 다르면 무엇이 다른지 적은 오류를 냅니다 (탐색기 자리에 그 글이 나옵니다).
     점수는 base64 글자(빌드한 JSON)이거나 Float32Array(브라우저가 계산한 여러분의 문장)입니다. q·k 는 파일 이름 목록이거나,
     options.vectors 가 주는 배열입니다. */
  function checkData(data, options) {
    if (!data || data.format !== FORMAT) throw new Error("데이터 형식이 " + FORMAT + " 이 아닙니다: " + (data && data.format));
    ["layers", "heads", "d_head"].forEach(function (k) {
      if (!(Number.isInteger(data[k]) && data[k] > 0)) throw new Error(k + " 는 양의 정수여야 합니다: " + data[k]);
    });
    if (!Array.isArray(data.sentences) || !data.sentences.length) throw new Error("문장이 하나도 없습니다");
    data.sentences.forEach(function (sent, s) {
      var n = sent.tokens && sent.tokens.length, q = sent.queries || [];
      if (!n || !(q[0] >= 0 && q[0] < q[1] && q[1] <= n)) throw new Error("문장 " + s + ": 토큰 " + n + "개에 쿼리 범위 " + q);
      var bytes = 4 * data.layers * data.heads * (q[1] - q[0]) * n;
      var length = 4 * Math.ceil(bytes / 3);  // base64 글자 수
      if (!options.vectors && (!Array.isArray(sent.qk) || sent.qk.length !== data.layers ||
          !sent.qk.every(function (f) { return typeof f === "string" && /^[\w-]+\.json$/.test(f); }))) {
        throw new Error("문장 " + s + ": qk 는 층마다 하나씩 " + data.layers + "개의 파일 이름이어야 합니다");
      }
      if (sent.weights !== undefined && !(sent.weights instanceof Float32Array && sent.weights.length === bytes / 4)) {
        throw new Error("문장 " + s + ": 가중치는 점수와 같은 모양의 float32 " + bytes / 4 + "개여야 합니다");
      }
      if (sent.pixels !== undefined && !(sent.pixels instanceof Uint8ClampedArray && sent.pixels.length === bytes)) {
        throw new Error("문장 " + s + ": 작은 히트맵의 화소는 RGBA " + bytes / 4 + "개여야 합니다");
      }
      if (sent.scores instanceof Float32Array) {
        if (sent.scores.length !== bytes / 4) throw new Error("문장 " + s + ": 점수는 float32 " + bytes / 4 + "개여야 합니다");
      } else if (typeof sent.scores !== "string" || sent.scores.length !== length) {
        throw new Error("문장 " + s + ": 점수는 float32 " + bytes / 4 + "개(base64 " + length + "자)여야 합니다: " +
                        (typeof sent.scores === "string" ? sent.scores.length + "자" : typeof sent.scores));
      }
    });
  }

  /* q·k 파일(문장 s, 층 l)이 약속과 맞는지: 형식, 번호, 모양, base64 길이. */
  function checkVectors(v, data, s, l) {
    var sent = data.sentences[s], nq = sent.queries[1] - sent.queries[0], n = sent.tokens.length;
    if (!v || v.format !== QK_FORMAT) throw new Error("형식이 " + QK_FORMAT + " 이 아닙니다");
    if (v.sentence !== s || v.layer !== l || v.heads !== data.heads || v.d_head !== data.d_head || v.tokens !== n) {
      throw new Error("문장·층·모양이 다릅니다");
    }
    [["q", nq], ["k", n]].forEach(function (x) {
      var length = 4 * Math.ceil(4 * data.heads * x[1] * data.d_head / 3);
      if (typeof v[x[0]] !== "string" || v[x[0]].length !== length) throw new Error(x[0] + " 의 길이가 다릅니다");
    });
  }

  /* ---- 탐색기 하나 ------------------------------------------------------------------------------------
     build 가 탐색기 하나를 만듭니다. 탐색기의 상태와 화면의 부분은 객체 하나(ex, explorer 의 줄임)에 모여 있고, 아래의
     함수들은 그것을 첫 인자로 받습니다: 데이터(prep, vectors, …), 틀 만들기(build…), 작은 히트맵(atlas, drawTiles),
     그리기(render 와 세 부분, 미뤄 두기), 고르기(pick…). 헤드 끄기(모델 페이지만)는 head-switch.js 에 있습니다 (buildSwitch). */

  /* 탐색기 하나를 root 에 그립니다. options.vectors(s, l) 가 있으면 q·k 를 파일 대신 거기서 얻습니다 ({q, k} 배열).
     options.own 이 있으면 "여러분의 문장으로" 로 가는 링크를 답니다. options.ablation (빌드 때 헤드를 꺼 본 값의 JSON
     주소) 이 있고 head-switch.js 가 붙어 있으면 헤드 끄기 단추를 답니다 (모델 페이지만: 아래 "덧붙는 스위치"). 돌려주는 값으로 바깥에서 헤드와 쿼리를 고릅니다. */
  function build(root, data, options) {
    options = options || {};
    checkData(data, options);
    var ex = newExplorer(root, data, options);
    root.textContent = "";
    buildTitle(ex);
    buildPicker(ex);
    buildGrid(ex);
    buildSteppers(ex);
    buildSwitch(ex);
    buildHeadView(ex);
    watchBelow(ex);
    pickSentence(ex, ex.state.s, undefined, options.lazy);
    prepareOthers(ex);
    return handle(ex);
  }

  /* 탐색기 하나의 상태. 화면의 부분(picker, grid, view, …)은 build… 함수들이 채웁니다. */
  function newExplorer(root, data, options) {
    var start = data.start || {};
    return {
      root: root, data: data, options: options,
      L: data.layers, H: data.heads, dHead: data.d_head, sqrtD: Math.sqrt(data.d_head),
      uid: "he-" + Math.random().toString(36).slice(2, 8),
      // 문장마다 한 번 만든 것. 문장 객체로 찾습니다: 바깥(여러분의 문장으로)이 문장 목록을 바꿔도(setSentences) 그대로 씁니다.
      prepared: new WeakMap(),  // 문장 → {scores, weights ((층, 헤드, 쿼리, 키)), atlas}
      vecs: new WeakMap(),  // 문장 → {층: {status: "loading" | "ok" | "error", q, k}}: 한 번 받으면(실패도) 다시 받지 않습니다
      base: new URL(root.getAttribute("data-src") || ".", document.baseURI),
      detailsOpen: false,  // "32개 곱 모두 보기" 를 펼쳐 두면 다른 키를 골라도 펼친 채로 둡니다
      start: start,
      state: { s: start.sentence || 0, l: start.layer || 0, h: start.head || 0, i: start.query, j: null },
      // hideEnds: 선과 "가장 큰 키" 에서 양 끝 토큰([CLS]·[SEP], <s>·</s>)을 빼고 나눠 보이는지 (head-switch.js 가 바꿉니다).
      // sw: 덧붙은 스위치 (head-switch.js 의 window.headExplorerSwitch, 모델 페이지만: buildSwitch).
      // (이 둘의 주석은 줄 전체로 적습니다: 사이트의 사본에서 빠지므로, 이 파일을 받는 "여러분의 문장으로" 가 받지 않습니다)
      hideEnds: false, sw: null,
      radios: [],
      qGroup: { buttons: [] }, kGroup: { buttons: [] },
      faint: [], rowLines: [],  // 흐린 선(다른 쿼리 행, 진하기 단계마다 path 하나)과 고른 행의 선
      dotBox: null,  // ① 의 풀이가 들어갈 자리 (renderSteps 가 만들고 renderDot 이 채웁니다)
      laidOut: null,  // 토큰 줄을 만들어 둔 문장 (객체)
      rects: null,  // 칸마다 격자 안의 자리 (CSS px). 격자의 크기가 바뀌면 다시 잽니다
      // 격자 아래의 세 부분 가운데 화면에 보이는 것 (IntersectionObserver 가 없으면 below 가 null: 늘 곧바로 그립니다)
      pending: new Map(), onScreen: new Set(), below: null  // pending: 미뤄 둔 부분 → 그리는 함수
    };
  }

  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 50); };

  function sentence(ex) { return ex.data.sentences[ex.state.s]; }
  function headName(l, h) { return (l + 1) + "-" + (h + 1); }

  /* ---- 탐색기 하나: 데이터 ------------------------------------------------------------------------ */

  /* 문장 하나를 처음 볼 때 한 번: 점수를 풀고 모든 층·헤드·쿼리의 가중치를 마련해 둡니다. 가중치는 작은 히트맵과 선,
     가장 큰 키 고르기에 씁니다 (화면의 숫자는 늘 rowSteps 가 점수 한 행에서 float64 로 다시 계산합니다).
     브라우저가 계산한 문장(여러분의 문장으로)은 점수가 이미 Float32Array 이고 워커가 가중치(sent.weights)도 주므로
     풀거나 계산하지 않고 그대로 씁니다: 64토큰 문장이면 지수 36만 번을 주 스레드에서 하지 않습니다. */
  function prep(ex, s) {
    var sent = ex.data.sentences[s];
    if (ex.prepared.has(sent)) return ex.prepared.get(sent);
    var n = sent.tokens.length;
    var scores = sent.scores instanceof Float32Array ? sent.scores : decodeFloat32(sent.scores);
    var weights = sent.weights;
    if (!weights) {
      weights = new Float64Array(scores.length);
      for (var at = 0; at < scores.length; at += n) rowWeights(scores, at, n, ex.sqrtD, weights);
    }
    var p = { scores: scores, weights: weights, atlas: null };
    ex.prepared.set(sent, p);
    return p;
  }

  /* 문장 s, 층 l 의 q·k 벡터. 처음이면 받기 시작하고 {status: "loading"} 을 돌려줍니다.
     받고 나서 그 층을 보고 있으면 ① 의 풀이만 다시 그립니다. 실패는 콘솔이 아니라 ① 자리에 짧게 적습니다. */
  function vectors(ex, s, l) {
    var data = ex.data, options = ex.options, sent = data.sentences[s];
    if (!ex.vecs.has(sent)) ex.vecs.set(sent, {});
    var layers = ex.vecs.get(sent);
    if (layers[l]) return layers[l];
    var entry = layers[l] = { status: "loading" };
    var got = options.vectors ? Promise.resolve(options.vectors(s, l)) :
      fetch(new URL(data.sentences[s].qk[l], ex.base))
        .then(function (r) {
          if (!r.ok) throw new Error(r.status + " " + r.statusText);
          return r.json();
        })
        .then(function (v) {
          checkVectors(v, data, s, l);
          return { q: decodeFloat32(v.q), k: decodeFloat32(v.k) };
        });
    got.then(function (v) {
      entry.q = v.q;
      entry.k = v.k;
      entry.status = "ok";
    }).catch(function (err) {
      entry.status = "error";
      entry.reason = err.message;
    }).then(function () {
      // 다음 작업에서 그립니다: 벡터가 곧바로 있을 때(여러분의 문장)도 고른 것이 먼저 화면에 나오게
      setTimeout(function () { if (sentence(ex) === sent && ex.state.l === l && ex.dotBox) renderDot(ex); }, 0);
    });
    return entry;
  }

  /* 문장 s, 층 l, 헤드 h 에서 쿼리 토큰 i 의 q 와 토큰 j 의 k (길이 d_head, float32 값 그대로의 float64). */
  function qkPair(ex, entry, s, h, i, j) {
    var dHead = ex.dHead, sent = ex.data.sentences[s], nq = sent.queries[1] - sent.queries[0], n = sent.tokens.length;
    var qa = (h * nq + i - sent.queries[0]) * dHead, ka = (h * n + j) * dHead;
    return { q: Array.prototype.slice.call(entry.q, qa, qa + dHead), k: Array.prototype.slice.call(entry.k, ka, ka + dHead) };
  }

  /* 문장 s, 층 l, 헤드 h 의 한 행 (쿼리 토큰 i 가 모든 키에 준 q·k) 이 시작하는 자리 */
  function rowAt(ex, s, l, h, i) {
    var sent = ex.data.sentences[s], n = sent.tokens.length, nq = sent.queries[1] - sent.queries[0];
    return ((l * ex.H + h) * nq + (i - sent.queries[0])) * n;
  }

  function scoreRow(ex, s, l, h, i) {
    var at = rowAt(ex, s, l, h, i);
    return Array.prototype.slice.call(prep(ex, s).scores, at, at + ex.data.sentences[s].tokens.length);
  }

  /* 지금 고른 행의 네 단계 (rowSteps) */
  function chosenSteps(ex) {
    var state = ex.state;
    return rowSteps(scoreRow(ex, state.s, state.l, state.h, state.i), ex.dHead);
  }

  /* 쿼리 i 의 행에서 가중치가 가장 큰 키 (같으면 앞 토큰) */
  function topKey(ex, i) {
    var state = ex.state, p = prep(ex, state.s), at = rowAt(ex, state.s, state.l, state.h, i);
    var n = sentence(ex).tokens.length, best = 0;
    for (var k = 1; k < n; k++) if (p.weights[at + k] > p.weights[at + best]) best = k;
    return best;
  }

  /* ---- 탐색기 하나: 틀 만들기 ---------------------------------------------------------------------- */

  function buildTitle(ex) {
    var root = ex.root, options = ex.options;
    root.appendChild(el("p", { "class": "head-explorer__title" },
      ex.data.model + ": " + ex.L + "층 × " + ex.H + "헤드 = 헤드 " + ex.L * ex.H + "개, d_head = " + ex.dHead));
    if (options.own) {
      var own = el("p", { "class": "head-explorer__own" });
      own.appendChild(el("a", { href: options.own }, "여러분의 문장으로 해 보기"));
      own.appendChild(document.createTextNode(": 한국어 문장을 넣으면 이 브라우저에서 모델을 돌려 같은 도구로 보여 줍니다."));
      root.appendChild(own);
    }
  }

  // 1) 문장 고르기 (라디오 단추: Tab 한 번, 화살표로 옮깁니다)
  function buildPicker(ex) {
    ex.picker = el("fieldset", { "class": "head-explorer__sentences" });
    fillPicker(ex);
    ex.root.appendChild(ex.picker);
  }

  /* 문장 목록의 라디오 단추를 지금 data.sentences 로 (처음, 그리고 바깥이 목록을 바꿀 때) */
  function fillPicker(ex) {
    var picker = ex.picker;
    picker.textContent = "";
    picker.appendChild(el("legend", {}, "문장"));
    ex.radios = ex.data.sentences.map(function (sent, s) {
      var label = el("label", {});
      var input = el("input", { type: "radio", name: ex.uid + "-sentence", value: String(s) });
      input.addEventListener("change", function () { pickSentence(ex, s, undefined, true); });
      label.appendChild(input);
      label.appendChild(el("span", {}, sent.text));
      picker.appendChild(label);
      return input;
    });
  }

  // 2) 모든 헤드: 층마다 한 줄, 헤드마다 한 칸인 작은 히트맵
  function buildGrid(ex) {
    var L = ex.L, H = ex.H, uid = ex.uid;
    ex.root.appendChild(el("p", { "class": "head-explorer__heading", id: uid + "-grid-label" },
      "모든 헤드 (줄 = 층 1–" + L + ", 칸 = 헤드 1–" + H + "). 누르거나 화살표 키로 고릅니다."));
    var grid = ex.grid = el("div", { "class": "head-explorer__grid", role: "radiogroup", "aria-labelledby": uid + "-grid-label" });
    grid.style.setProperty("--heads", String(H));
    // 작은 히트맵은 격자 뒤의 캔버스 한 장에 그리고, 칸(단추)은 그 위에 투명하게 놓입니다 (아래 drawTiles)
    ex.tiles = el("canvas", { "class": "head-explorer__tiles", "aria-hidden": "true" });
    grid.appendChild(ex.tiles);
    grid.appendChild(el("span", { "class": "head-explorer__corner", "aria-hidden": "true" }, "층"));
    for (var h0 = 0; h0 < H; h0++) grid.appendChild(el("span", { "class": "head-explorer__colnum", "aria-hidden": "true" }, String(h0 + 1)));
    var thumbs = ex.thumbs = [];
    for (var l0 = 0; l0 < L; l0++) {
      grid.appendChild(el("span", { "class": "head-explorer__rownum", "aria-hidden": "true" }, String(l0 + 1)));
      for (var h1 = 0; h1 < H; h1++) {
        var b = el("button", { type: "button", role: "radio", "class": "head-explorer__thumb", "aria-checked": "false",
                               tabindex: "-1", "aria-label": "헤드 " + headName(l0, h1) + " (" + (l0 + 1) + "층 " + (h1 + 1) + "번)" });
        grid.appendChild(b);
        thumbs.push(b);
      }
    }
    ex.thumbGroup = { buttons: thumbs };
    roving(thumbs, function (k) { pickHead(ex, Math.floor(k / H), k % H); }, H);
    ex.root.appendChild(grid);
    watchGridSize(ex);
  }

  // 손가락으로 작은 칸을 맞히기 어려울 때: 층과 헤드를 하나씩 옮기는 단추 (키보드로도 씁니다)
  function buildSteppers(ex) {
    var L = ex.L, H = ex.H, state = ex.state;
    var steppers = ex.steppers = el("div", { "class": "head-explorer__steppers", role: "group", "aria-label": "층과 헤드를 하나씩 옮기기" });
    var stepLabel = ex.stepLabel = el("span", { "class": "head-explorer__stepped", "aria-live": "polite" });
    [["층", -1, 0, "이전 층"], ["층", 1, 0, "다음 층"], ["헤드", 0, -1, "이전 헤드"], ["헤드", 0, 1, "다음 헤드"]].forEach(function (s, k) {
      var btn = el("button", { type: "button", "class": "head-explorer__step", "data-step": (s[1] || s[2]) > 0 ? "+" : "-",
                               "data-what": s[1] ? "layer" : "head", "aria-label": s[3] }, s[0] + ((s[1] || s[2]) > 0 ? " +" : " −"));
      btn.addEventListener("click", function () {
        var l = Math.min(L - 1, Math.max(0, state.l + s[1])), h = Math.min(H - 1, Math.max(0, state.h + s[2]));
        if (l !== state.l || h !== state.h) pickHead(ex, l, h);
      });
      if (k === 2) steppers.appendChild(stepLabel);
      steppers.appendChild(btn);
    });
    ex.root.appendChild(steppers);
  }

  /* ---- 탐색기 하나: 덧붙는 스위치 (모델 페이지만) ---------------------------------------------------
     모델 페이지의 탐색기(div 에 data-ablation)에는 헤드 끄기와 양 끝 토큰 빼고 보기가 붙습니다. 그 코드는 따로 있는 파일
     head-switch.js 에 있습니다: "여러분의 문장으로" 도 이 스크립트를 받는데, 쓰지 않는 스위치 코드까지 받지 않게
     (페이지 무게). overrides/main.html 이 data-ablation 이 있는 페이지에만 그 파일을 이 스크립트보다 먼저 붙이고, 그 파일은
     window.headExplorerSwitch 에 {build, draw} 를 둡니다. 이 스크립트와 주고받는 것은 세 가지뿐입니다:
     - build 가 층·헤드 단추 다음에 부르는 build(ex, tools): 상자를 그 아래에 붙입니다. tools 는 그 코드가 쓰는 이 파일의 함수들.
     - render 가 그릴 때마다 부르는 draw(ex) (ex.sw 가 있을 때만).
     - ex.hideEnds: 스위치가 켜면 선과 "가장 큰 키" 가 양 끝을 빼고 다시 나눈 행을 씁니다 (아래 shownRow, drawTop).
     그 파일이 없거나(여러분의 문장으로) 탐색기에 data-ablation 이 없으면 아무것도 붙이지 않습니다. */
  function buildSwitch(ex) {
    var sw = window.headExplorerSwitch;
    if (!ex.options.ablation || !sw) return;
    ex.sw = sw;
    sw.build(ex, { num: num, headName: headName, setText: setText, pickHead: pickHead, render: render });
  }

  /* 선과 "가장 큰 키" 가 쓰는 한 행의 가중치 (weights 의 at 부터 n 개). 양 끝을 빼고 보면 두 토큰은 0, 나머지는 나눈 값. */
  function shownRow(ex, weights, at, n) {
    var row = Array.prototype.slice.call(weights, at, at + n);
    if (!ex.hideEnds) return row;
    var rest = 1 - row[0] - row[n - 1];
    return row.map(function (w, k) { return k === 0 || k === n - 1 ? 0 : w / rest; });
  }

  // 3) 헤드 하나: 왼쪽 쿼리, 오른쪽 키, 사이의 선 (진할수록 큰 가중치). 그 아래 가장 큰 키, 4) 점수 하나를 네 단계로
  function buildHeadView(ex) {
    var root = ex.root;
    ex.headTitle = el("p", { "class": "head-explorer__heading", id: ex.uid + "-head-label" });
    root.appendChild(ex.headTitle);
    ex.note = el("p", { "class": "head-explorer__note" });
    root.appendChild(ex.note);
    var view = ex.view = el("div", { "class": "head-explorer__view" });
    ex.qCol = el("div", { "class": "head-explorer__col", role: "radiogroup", "aria-label": "쿼리 (보는 쪽) 고르기" });
    ex.kCol = el("div", { "class": "head-explorer__col head-explorer__col--keys", role: "radiogroup",
                          "aria-label": "키 (보이는 쪽) 고르기" });
    var svg = ex.svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "head-explorer__lines");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("preserveAspectRatio", "none");
    view.appendChild(ex.qCol);
    view.appendChild(svg);
    view.appendChild(ex.kCol);
    root.appendChild(view);

    ex.top = el("div", { "class": "head-explorer__top" });
    root.appendChild(ex.top);

    ex.stepsBox = el("div", { "class": "head-explorer__steps" });
    root.appendChild(ex.stepsBox);
    ex.live = el("p", { "class": "head-explorer__sr", "aria-live": "polite" });
    root.appendChild(ex.live);
  }

  /* 문장이 바뀌면 토큰 줄과 선을 다시 만듭니다. */
  function layoutSentence(ex) {
    var sent = sentence(ex), tokens = sent.tokens, n = tokens.length, q0 = sent.queries[0], q1 = sent.queries[1];
    var qCol = ex.qCol, kCol = ex.kCol, svg = ex.svg;
    ex.laidOut = sent;
    ex.view.style.setProperty("--rows", String(n));
    qCol.textContent = "";
    kCol.textContent = "";
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", "0 0 100 " + n);
    var qButtons = [], kButtons = [];
    tokens.forEach(function (t, i) {
      if (i >= q0 && i < q1) {
        var qb = el("button", { type: "button", role: "radio", "class": "head-explorer__tok", "data-token": String(i) });
        qb.appendChild(tokenLabel(t));
        qCol.appendChild(qb);
        qButtons.push(qb);
      } else {  // 쿼리로 고를 수 없는 토큰(<s>, 접두어, </s>)도 줄은 맞춰 둡니다
        var gap = el("span", { "class": "head-explorer__tok head-explorer__tok--off" });
        gap.appendChild(tokenLabel(t));
        qCol.appendChild(gap);
      }
      var kb = el("button", { type: "button", role: "radio", "class": "head-explorer__tok", "data-token": String(i) });
      kb.appendChild(tokenLabel(t));
      kCol.appendChild(kb);
      kButtons.push(kb);
    });
    ex.qGroup = { buttons: qButtons };
    ex.kGroup = { buttons: kButtons };
    roving(qButtons, function (k) { pickQuery(ex, q0 + k); });
    roving(kButtons, function (j) { pickKey(ex, j); });
    ex.faint = [];
    for (var f = 0; f < 10; f++) {
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("stroke-opacity", (0.02 * (f + 1)).toFixed(2));
      svg.appendChild(path);
      ex.faint.push(path);
    }
    ex.rowLines = [];
    for (var j = 0; j < n; j++) {
      var line = document.createElementNS(SVG, "line");
      line.setAttribute("x1", "0");
      line.setAttribute("x2", "100");
      line.setAttribute("y2", String(j + 0.5));
      svg.appendChild(line);
      ex.rowLines.push(line);
    }
  }

  /* ---- 탐색기 하나: 작은 히트맵 ------------------------------------------------------------------- */

  /* 작은 히트맵 L × H 개: 문장마다 한 번, 타일 L × H 개를 이어 붙인 그림(화소 하나 = 가중치 하나)을 만들어 두고,
     격자 뒤의 캔버스에 칸마다 제 타일을 옮겨 그립니다. 칸은 그 위의 투명한 단추라서, 문장을 바꿀 때 단추 144개의
     스타일을 다시 계산하거나 다시 칠하지 않습니다 (캔버스 한 장만 다시 그립니다). */
  function atlas(ex, s) {
    var L = ex.L, H = ex.H, p = prep(ex, s);
    if (p.atlas) return p.atlas;
    var sent = ex.data.sentences[s], n = sent.tokens.length, nq = sent.queries[1] - sent.queries[0];
    var canvas = document.createElement("canvas");
    canvas.width = n * H;
    canvas.height = nq * L;
    var ctx = canvas.getContext("2d");
    if (sent.pixels) {  // 화소를 이미 칠해 온 문장 (여러분의 문장으로: 워커가 같은 색표로 칠합니다)
      ctx.putImageData(new ImageData(sent.pixels, canvas.width, canvas.height), 0, 0);
      return (p.atlas = canvas);
    }
    var img = ctx.createImageData(canvas.width, canvas.height);
    window.attentionExplorers.paintAtlas(img.data, p.weights, L, H, n, nq, VIRIDIS_LUT);
    ctx.putImageData(img, 0, 0);
    return (p.atlas = canvas);
  }

  function drawTiles(ex) {
    var L = ex.L, H = ex.H, grid = ex.grid, tiles = ex.tiles;
    var src = atlas(ex, ex.state.s), sent = sentence(ex), n = sent.tokens.length, nq = sent.queries[1] - sent.queries[0];
    var ratio = window.devicePixelRatio || 1;
    if (!ex.rects) {
      var g = grid.getBoundingClientRect();
      ex.rects = ex.thumbs.map(function (b) {
        var r = b.getBoundingClientRect();
        return [r.left - g.left, r.top - g.top, r.width, r.height];
      });
      tiles.width = Math.round(g.width * ratio);
      tiles.height = Math.round(g.height * ratio);
      tiles.style.width = g.width + "px";
      tiles.style.height = g.height + "px";
    }
    var ctx = tiles.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, tiles.width, tiles.height);
    ctx.imageSmoothingEnabled = false;
    for (var l = 0; l < L; l++) {
      for (var h = 0; h < H; h++) {
        var r = ex.rects[l * H + h];
        ctx.drawImage(src, h * n, l * nq, n, nq, r[0], r[1], r[2], r[3]);
      }
    }
    grid.setAttribute("data-atlas", "ok");
  }

  /* 격자의 폭이 바뀌면 칸의 자리를 다시 재고 다시 그립니다. */
  function watchGridSize(ex) {
    if (!window.ResizeObserver) return;
    var width = null;
    new ResizeObserver(function (entries) {
      var w = entries[0].contentRect.width;
      if (width !== null && w !== width) { ex.rects = null; drawTiles(ex); }
      width = w;
    }).observe(ex.grid);
  }

  /* 고른 문장의 작은 히트맵을 격자 뒤에 그립니다. later 이면(바깥이 새 문장을 넣을 때, options.lazy) 지금 작업에서
     그리지 않고 다음 화면이 그려진 뒤의 작업에서 그립니다: 새 문장을 받은 작업이 짧아지고, 그때는 격자의 배치가 이미
     끝나 있어 칸의 자리를 재는 일이 배치를 다시 하지 않습니다. 그동안 격자의 data-atlas 를 지웁니다. */
  function showAtlas(ex, later) {
    if (!later) {
      drawTiles(ex);
      return;
    }
    ex.grid.removeAttribute("data-atlas");
    var sent = sentence(ex);
    requestAnimationFrame(function () {
      setTimeout(function () { if (sentence(ex) === sent) drawTiles(ex); }, 0);
    });
  }

  /* 다른 문장의 가중치와 작은 히트맵은 브라우저가 한가할 때 미리 만들어 둡니다: 문장을 바꾸는 순간이 가볍게.
     한가한 때마다 문장 하나씩 (지금 목록의 문장 객체로: 그사이 목록이 바뀌어도 맞는 문장을 만듭니다). */
  function prepareOthers(ex) {
    ex.data.sentences.forEach(function (sent) {
      idle(function () {
        var s = ex.data.sentences.indexOf(sent);
        if (s >= 0) atlas(ex, s);
      });
    });
  }

  /* ---- 탐색기 하나: 그리기 ------------------------------------------------------------------------ */

  /* 화면을 지금 상태로 그립니다. lazy 이면(독자가 문장 단추를 눌렀을 때) 격자 아래의 세 부분(헤드 하나, 가장 큰 키,
     네 단계) 가운데 화면 밖인 것은 미뤄 둡니다 (ex.pending). 미뤄 둔 부분은 브라우저가 한가할 때, 또는 독자가 그쪽으로
     내려가거나 초점을 옮기거나 다른 것을 고르는 즉시 그립니다. 그동안 탐색기에 data-pending="yes" 가 붙습니다.
     휴대폰에서는 문장 단추를 누를 때 세 부분이 대개 화면 밖이라, 누른 뒤 다음 화면까지의 일이 토큰 줄·선·숫자
     수백 개를 새로 만드는 일에서 단추 상태와 격자 뒤의 캔버스 한 장으로 줄어듭니다. */
  function render(ex, lazy) {
    var state = ex.state, L = ex.L, H = ex.H, data = ex.data, root = ex.root, pending = ex.pending;
    var l = state.l, h = state.h, i = state.i, j = state.j, tokens = sentence(ex).tokens;
    var name = headName(l, h);
    ex.radios.forEach(function (r, s) { r.checked = s === state.s; });
    check(ex.thumbGroup, l * H + h);
    // 글이 같으면 쓰지 않습니다 (문장만 바꿀 때 다시 배치할 줄을 줄입니다)
    setText(ex.stepLabel, (l + 1) + "층 " + (h + 1) + "번 헤드");
    ex.steppers.querySelectorAll("button").forEach(function (btn) {
      var what = btn.getAttribute("data-what"), up = btn.getAttribute("data-step") === "+";
      var value = what === "layer" ? l : h, last = what === "layer" ? L - 1 : H - 1;
      btn.disabled = up ? value >= last : value <= 0;
    });
    setText(ex.headTitle, "헤드 " + name + ": 왼쪽 쿼리를 누르면 그 행만 진하게, 오른쪽 키를 누르면 아래에 그 점수를 풀어 봅니다.");
    setText(ex.note, data.rows_note || "");
    ex.note.hidden = !data.rows_note;
    var st = rowSteps(scoreRow(ex, state.s, l, h, i), ex.dHead);
    [[ex.view, drawView], [ex.top, drawTop], [ex.stepsBox, drawSteps]].forEach(function (part) {
      if (lazy && ex.below && !ex.onScreen.has(part[0])) pending.set(part[0], part[1]);
      else { pending.delete(part[0]); part[1](ex, st); }
    });
    if (pending.size) {
      root.setAttribute("data-pending", "yes");
      idle(function () { finishNext(ex); }, { timeout: 500 });
    } else {
      root.removeAttribute("data-pending");
    }
    ex.live.textContent = "헤드 " + name + ", 쿼리 " + plain(tokens[i]) + ", 키 " + plain(tokens[j]) +
      ": 가중치 " + fixed(st.weights[j], 3);
    if (ex.sw) ex.sw.draw(ex);
    root.setAttribute("data-state", [state.s, l, h, i, j].join(","));  // 그릴 때마다 (미뤄 둔 부분을 채울 때는 쓰지 않습니다)
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  /* 격자 아래의 세 부분이 화면에 들어오는지 봅니다 (미뤄 둔 부분을 그 순간 그리려고), 그리고 미뤄 둔 동안 키보드로
     그쪽에 들어오는 초점. */
  function watchBelow(ex) {
    var root = ex.root, view = ex.view, stepsBox = ex.stepsBox, qCol = ex.qCol, kCol = ex.kCol;
    if (window.IntersectionObserver) {
      ex.below = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) { if (e.isIntersecting) ex.onScreen.add(e.target); else ex.onScreen.delete(e.target); });
        drawVisible(ex, entries);
      });
      [view, ex.top, stepsBox].forEach(function (box) { ex.below.observe(box); });
    }
    // 미뤄 둔 동안 키보드로 그쪽 단추에 들어오면: 곧바로 채우고, 지워진 옛 단추 대신 같은 자리의 새 단추로 초점을 옮깁니다
    // (쿼리·키 줄은 고른 단추, 네 단계는 "32개 곱 모두 보기").
    root.addEventListener("focusin", function (ev) {
      if (!ex.pending.size || !view.contains(ev.target) && !stepsBox.contains(ev.target)) return;
      var box = [qCol, kCol, stepsBox].filter(function (b) { return b.contains(ev.target); })[0];
      finish(ex);
      var to = box && box.querySelector(box === stepsBox ? "summary" : "[tabindex='0']");
      if (to) to.focus();
    });
  }

  /* 한가할 때: 미뤄 둔 부분을 하나만 그리고, 남았으면 다음 한가한 때로 넘깁니다 (부분 셋을 한 작업에서 그리면
     휴대전화의 느린 CPU 에서 긴 작업 하나가 됩니다). */
  function finishNext(ex) {
    var pending = ex.pending;
    if (!pending.size) return;
    var first = pending.keys().next().value, draw = pending.get(first);
    pending.delete(first);
    draw(ex, chosenSteps(ex));
    if (pending.size) idle(function () { finishNext(ex); }, { timeout: 500 });
    else ex.root.removeAttribute("data-pending");
  }

  /* 미뤄 둔 부분 가운데 화면에 들어온 것만 지금 그립니다 (나머지는 한가할 때 finishNext 가). */
  function drawVisible(ex, entries) {
    var pending = ex.pending;
    var shown = [].filter.call(entries, function (e) { return e.isIntersecting && pending.has(e.target); });
    if (!shown.length) return;
    var st = chosenSteps(ex);
    shown.forEach(function (e) {
      var draw = pending.get(e.target);
      pending.delete(e.target);
      draw(ex, st);
    });
    if (!pending.size) ex.root.removeAttribute("data-pending");
  }

  /* 미뤄 둔 부분을 지금 모두 그립니다. */
  function finish(ex) {
    var pending = ex.pending;
    if (!pending.size) return;
    var st = chosenSteps(ex);
    pending.forEach(function (draw) { draw(ex, st); });
    pending.clear();
    ex.root.removeAttribute("data-pending");
  }

  /* 헤드 하나: 토큰 줄(문장이 바뀌었으면 새로), 고른 쿼리·키, 선 */
  function drawView(ex) {
    if (ex.laidOut !== sentence(ex)) layoutSentence(ex);
    var state = ex.state, sent = sentence(ex), q0 = sent.queries[0], n = sent.tokens.length;
    var l = state.l, h = state.h, i = state.i, j = state.j, p = prep(ex, state.s);
    check(ex.qGroup, i - q0);
    check(ex.kGroup, j);
    // 선: 고른 행은 강조색으로 가중치만큼 진하게 (고른 키로 가는 선은 굵게), 다른 행은 흐리게.
    // 흐린 선은 진하기를 열 단계로 묶어 단계마다 path 하나로 그립니다 (토큰 64개면 선이 4,000개 가까이 됩니다).
    var d = ex.faint.map(function () { return []; });
    for (var qi = q0; qi < sent.queries[1]; qi++) {
      if (qi === i) continue;
      var w0 = shownRow(ex, p.weights, rowAt(ex, state.s, l, h, qi), n);
      for (var kj = 0; kj < n; kj++) {
        var level = Math.round(10 * w0[kj]) - 1;  // 0.2 × 가중치 를 0.02 단위로
        if (level >= 0) d[level].push("M0 " + (qi + 0.5) + "L100 " + (kj + 0.5));
      }
    }
    ex.faint.forEach(function (path, f) { path.setAttribute("d", d[f].join("")); });
    var w = shownRow(ex, p.weights, rowAt(ex, state.s, l, h, i), n);
    ex.rowLines.forEach(function (line, k) {
      line.setAttribute("y1", String(i + 0.5));
      line.setAttribute("class", k === j ? "is-row is-key" : "is-row");
      line.setAttribute("stroke-opacity", w[k].toFixed(3));
    });
  }

  /* 가장 많이 보는 키 (가중치가 같으면 앞 토큰 먼저). 양 끝 토큰을 빼고 보면 그 둘을 뺀 나머지에서 다시 나눈 값으로 */
  function drawTop(ex, st) {
    var top = ex.top, tokens = sentence(ex).tokens, n = tokens.length;
    var weights = shownRow(ex, st.weights, 0, n);
    var order = weights.map(function (w, k) { return k; })
      .filter(function (k) { return !ex.hideEnds || k > 0 && k < n - 1; })
      .sort(function (a, b) { return weights[b] - weights[a] || a - b; }).slice(0, TOP);
    top.textContent = "";
    var topTitle = el("p", {});
    topTitle.appendChild(document.createTextNode("쿼리 "));
    topTitle.appendChild(tokenLabel(tokens[ex.state.i], true));
    topTitle.appendChild(document.createTextNode("의 행에서 가중치가 가장 큰 키 " + TOP + "개" +
      (ex.hideEnds ? " (" + tokens[0] + ", " + tokens[n - 1] + " 빼고 다시 나눈 값):" : ":")));
    top.appendChild(topTitle);
    var list = el("ol", {});
    order.forEach(function (k) {
      var li = el("li", { "data-key": String(k) });
      li.appendChild(tokenLabel(tokens[k]));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(num("top-weight", weights[k], 3));
      list.appendChild(li);
    });
    top.appendChild(list);
  }

  function drawSteps(ex, st) {
    var state = ex.state;
    renderSteps(ex, st, sentence(ex).tokens, state.i, state.j, headName(state.l, state.h));
  }

  /* 4) 점수 하나를 네 단계로 */
  function renderSteps(ex, st, tokens, i, j, name) {
    var stepsBox = ex.stepsBox, dHead = ex.dHead;
    stepsBox.textContent = "";
    var head = el("p", { "class": "head-explorer__heading" });
    head.appendChild(document.createTextNode("점수 하나를 네 단계로 (헤드 " + name + "): 쿼리 "));
    head.appendChild(tokenLabel(tokens[i], true));
    head.appendChild(document.createTextNode(" → 키 "));
    head.appendChild(tokenLabel(tokens[j], true));
    stepsBox.appendChild(head);
    var ol = el("ol", {});

    function item(title, parts) {
      var li = el("li", {});
      li.appendChild(el("strong", {}, title));
      li.appendChild(document.createTextNode(" "));
      parts.forEach(function (p) { li.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
      ol.appendChild(li);
    }

    item("내적:", ["q · k = ", num("qk", st.qk[j], 2),
      " (길이 " + dHead + "인 쿼리 벡터와 키 벡터를 같은 자리끼리 곱해 더한 값. 모델이 계산한 float32 그대로입니다)"]);
    ex.dotBox = el("div", { "class": "head-explorer__dot" });
    ol.lastChild.appendChild(ex.dotBox);
    item("√d_k로 나누기:", [num("qk", st.qk[j], 2), " ÷ √" + dHead + " (", num("sqrt-d", st.sqrtD, 3), ") = ",
      num("scaled", st.scaled[j], 3)]);
    item("행의 소프트맥스:", ["이 쿼리 행에서 가장 큰 값 ", num("max", st.max, 3), " (키 ", tokenLabel(tokens[st.argmax], true),
      ")을 빼고 지수를 취하면 e^(", num("shifted", st.shifted[j], 3), ") = ", num("exp", st.exps[j], 4),
      ". 행의 키 " + tokens.length + "개에서 나온 이 값을 모두 더하면 Σ = ", num("sum", st.sum, 3)]);
    item("가중치:", [num("exp", st.exps[j], 4), " ÷ ", num("sum", st.sum, 3), " = ", num("weight", st.weights[j], 3)]);
    stepsBox.appendChild(ol);
    renderDot(ex);
  }

  /* ① 풀어 보기: 고른 쿼리의 q 와 고른 키의 k, 차원마다의 곱. 곱과 합은 float32 벡터 값으로 float64 에서 계산합니다. */
  function renderDot(ex) {
    var state = ex.state, dHead = ex.dHead, dotBox = ex.dotBox;
    var s = state.s, l = state.l, h = state.h, i = state.i, j = state.j;
    var entry = vectors(ex, s, l);
    dotBox.textContent = "";
    dotBox.setAttribute("data-qk", entry.status);
    if (entry.status === "loading") {
      dotBox.appendChild(el("p", { "class": "head-explorer__note" }, "이 층의 쿼리·키 벡터를 받고 있습니다…"));
      return;
    }
    if (entry.status === "error") {
      dotBox.appendChild(el("p", { "class": "head-explorer__note", role: "status" },
        "이 층의 쿼리·키 벡터를 받지 못해 32개의 곱은 보여 드릴 수 없습니다. ②–④ 는 그대로 볼 수 있습니다."));
      return;
    }
    var v = qkPair(ex, entry, s, h, i, j), q = v.q, k = v.k;
    var prods = q.map(function (x, d) { return x * k[d]; });
    var order = prods.map(function (x, d) { return d; })
      .sort(function (a, b) { return Math.abs(prods[b]) - Math.abs(prods[a]) || a - b; }).slice(0, TOP_DIMS);
    var rest = 0, total = 0;
    prods.forEach(function (x, d) {  // 차원 순서대로 더합니다 (테스트의 기준값과 같은 순서)
      if (order.indexOf(d) < 0) rest += x;
      total += x;
    });

    dotBox.appendChild(el("p", {}, "쿼리 벡터 q와 키 벡터 k를 차원마다 곱한 " + dHead + "개의 곱 (색: 양수는 파랑, 음수는 빨강, 진할수록 큼):"));
    dotBox.appendChild(strip(dHead, [["q", q], ["k", k], ["q×k", prods]], order));
    dotBox.appendChild(el("p", {}, "곱의 절댓값이 가장 큰 차원 " + TOP_DIMS + "개:"));
    var ul = el("ul", { "class": "head-explorer__dims" });
    order.forEach(function (d) {
      var li = el("li", { "data-dim": String(d + 1) });
      li.appendChild(document.createTextNode((d + 1) + "번째: "));
      li.appendChild(num("q-top", q[d], 2));
      li.appendChild(document.createTextNode(" × "));
      li.appendChild(num("k-top", k[d], 2));
      li.appendChild(document.createTextNode(" = "));
      li.appendChild(num("prod-top", prods[d], 2));
      ul.appendChild(li);
    });
    dotBox.appendChild(ul);
    var restP = el("p", {}, "나머지 " + (dHead - TOP_DIMS) + "개 곱의 합: ");
    restP.appendChild(num("rest-sum", rest, 2));
    dotBox.appendChild(restP);
    var sumP = el("p", {}, dHead + "개의 곱을 모두 더하면 ");
    sumP.appendChild(num("dot-sum", total, 2));
    sumP.appendChild(document.createTextNode(", 곧 q · k입니다. 곱과 합은 float32 벡터의 값으로 float64에서 계산했습니다. " +
      "반올림한 수끼리 더하면 끝자리가 반올림한 합과 다를 수 있습니다."));
    dotBox.appendChild(sumP);

    // 32줄 표는 펼칠 때 만듭니다 (접혀 있는 동안에는 필요 없는 요소가 130개 남짓이라, 키를 고를 때마다 만들면 느립니다)
    var details = el("details", { "class": "head-explorer__all" });
    details.appendChild(el("summary", {}, dHead + "개 곱 모두 보기"));
    function fill() {
      if (details.querySelector("table")) return;
      details.appendChild(productTable(q, k, prods, order));
    }
    if (ex.detailsOpen) {
      fill();
      details.open = true;
    }
    details.addEventListener("toggle", function () {
      ex.detailsOpen = details.open;
      if (details.open) fill();
    });
    dotBox.appendChild(details);
  }

  /* "32개 곱 모두 보기" 의 표: 차원마다 q, k, q×k (곱의 절댓값이 큰 차원 order 는 is-top) */
  function productTable(q, k, prods, order) {
    var table = el("table", { "class": "head-explorer__table" });
    var head = el("tr", {});
    ["차원", "q", "k", "q×k"].forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    table.appendChild(el("thead", {})).appendChild(head);
    var body = el("tbody", {});
    prods.forEach(function (x, d) {
      var tr = el("tr", { "data-dim": String(d + 1) });
      if (order.indexOf(d) >= 0) tr.setAttribute("class", "is-top");
      tr.appendChild(el("th", { scope: "row" }, String(d + 1)));
      [["q", q[d]], ["k", k[d]], ["prod", x]].forEach(function (c) {
        var td = el("td", {});
        td.appendChild(num(c[0], c[1], 2));
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  /* 세 줄(q, k, 곱) × d_head 칸의 띠. 줄마다 가장 큰 |값| 을 가장 진하게 칠합니다. 숫자는 글로 적혀 있으므로
     화면 읽기 프로그램에는 숨깁니다 (aria-hidden). 곱의 절댓값이 큰 차원은 테두리로 표시합니다. */
  function strip(dHead, rows, marked) {
    var box = el("div", { "class": "head-explorer__strip", "aria-hidden": "true" });
    box.style.setProperty("--dims", String(dHead));
    rows.forEach(function (row) {
      box.appendChild(el("span", { "class": "head-explorer__strip-label" }, row[0]));
      var max = Math.max.apply(null, row[1].map(Math.abs)) || 1;
      row[1].forEach(function (x, d) {
        var cell = el("span", { "class": "head-explorer__cell" + (x < 0 ? " is-neg" : "") +
                                         (row[0] === "q×k" && marked.indexOf(d) >= 0 ? " is-top" : "") });
        cell.style.setProperty("--t", (100 * Math.abs(x) / max).toFixed(1) + "%");
        box.appendChild(cell);
      });
    });
    return box;
  }

  /* ---- 탐색기 하나: 고르기 ------------------------------------------------------------------------ */

  /* 문장 바꾸기. lazy: 독자가 문장 단추를 눌렀을 때 (render 의 설명) */
  function pickSentence(ex, s, query, lazy) {
    var state = ex.state, start = ex.start;
    state.s = s;
    var sent = sentence(ex);
    state.i = query !== undefined ? query
      : s === (start.sentence || 0) && start.query !== undefined ? start.query : sent.queries[0];
    state.j = topKey(ex, state.i);
    showAtlas(ex, lazy && ex.options.lazy);
    render(ex, lazy);
  }

  function pickHead(ex, l, h) {
    ex.state.l = l;
    ex.state.h = h;
    render(ex);
  }

  function pickQuery(ex, i) {
    ex.state.i = i;
    ex.state.j = topKey(ex, i);
    render(ex);
  }

  function pickKey(ex, j) {
    ex.state.j = j;
    render(ex);
  }

  /* 바깥(여러분의 문장으로)이 문장 목록을 바꿉니다: 탐색기를 새로 만들지 않고 문장 목록과 토큰 줄만 바꾸고, want
     (pick 과 같은 모양, 문장 번호는 새 목록의 번호)를 고릅니다. 한 번 만든 가중치와 작은 히트맵은 문장 객체에 남아
     있어 다시 만들지 않습니다. 격자 아래의 부분은 화면 밖이면 미뤄 둡니다 (render 의 lazy). */
  function setSentences(ex, sentences, want) {
    var data = ex.data;
    var next = { format: data.format, layers: ex.L, heads: ex.H, d_head: ex.dHead, sentences: sentences };
    checkData(next, ex.options);
    data.sentences = sentences;
    fillPicker(ex);
    ex.laidOut = null;
    if (want.layer !== undefined) { ex.state.l = want.layer; ex.state.h = want.head; }
    pickSentence(ex, want.sentence || 0, want.query, true);
    prepareOthers(ex);
  }

  /* build 가 돌려주는 값: 바깥(여러분의 문장으로)에서 문장·헤드·쿼리·키를 고릅니다. 쿼리만 주면 키는 그 행에서
     가중치가 가장 큰 토큰. */
  function handle(ex) {
    var state = ex.state;
    return {
      pick: function (want) {
        if (want.sentence !== undefined && want.sentence !== state.s) pickSentence(ex, want.sentence, want.query);
        if (want.layer !== undefined) { state.l = want.layer; state.h = want.head; }
        if (want.query !== undefined) { state.i = want.query; state.j = topKey(ex, want.query); }
        if (want.key !== undefined) state.j = want.key;
        render(ex);
      },
      weight: function (s, l, h, i, j) { return prep(ex, s).weights[rowAt(ex, s, l, h, i) + j]; },
      setSentences: function (sentences, want) { setSentences(ex, sentences, want); },
      state: function () { return { sentence: state.s, layer: state.l, head: state.h, query: state.i, key: state.j }; }
    };
  }

  function load(root) {
    root.setAttribute("data-ready", "loading");
    fetch(root.getAttribute("data-src"))
      .then(function (r) {
        if (!r.ok) throw new Error(r.status + " " + r.statusText);
        return r.json();
      })
      .then(function (data) {
        var t0 = performance.now();
        build(root, data, { own: root.getAttribute("data-own"), ablation: root.getAttribute("data-ablation") });
        root.setAttribute("data-ready", "yes");
        // 그리는 데 걸린 시간 (개발자 도구의 Performance 패널에서 볼 수 있습니다)
        performance.measure("head-explorer build", { start: t0, end: performance.now() });
      })
      .catch(function (err) {
        root.setAttribute("data-ready", "error");
        root.textContent = "헤드 탐색기 데이터를 읽지 못했습니다: " + err.message;
      });
  }

  /* 페이지(overrides/main.html)는 독자가 탐색기 가까이 내려올 때 이 스크립트를 붙입니다. 그래서 여기서는 바로 받습니다.
     data-src 가 없는 탐색기(여러분의 문장으로)는 그 페이지의 스크립트가 mount 로 그립니다. */
  function init() {
    document.querySelectorAll(".head-explorer[data-src]").forEach(function (root) {
      var ready = root.getAttribute("data-ready");
      if (ready && ready !== "waiting") return;
      root.textContent = "헤드 탐색기를 준비하고 있습니다…";
      load(root);
    });
  }

  window.headExplorer = { decodeFloat32: decodeFloat32, rowSteps: rowSteps, fixed: fixed, tokenLabel: tokenLabel,
                          mount: build, FORMAT: FORMAT, PALETTE: VIRIDIS_LUT };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
