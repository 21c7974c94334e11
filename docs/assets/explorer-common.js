/* 사이트의 도구들(어텐션 가중치 탐색기, 헤드 탐색기, 학습 슬라이더, 여러분의 문장·프롬프트로, 다음 토큰 고르기,
 * 2장의 q·k 그림과 쿼리 하나 따라가기)이 함께 쓰는 작은 도구: 색표, 요소 만들기, 소프트맥스, 데이터를 받아 상자 그리기,
 * 단추 막기. 모델을 받아 계산하는 두 도구(여러분의 문장·프롬프트로)만 쓰는 것은 model-tool.js 에 있습니다.
 * 페이지는 이 파일을 도구 스크립트보다 먼저 붙입니다 (overrides/main.html, 페이지가 적은 도구의 scripts 순서).
 */
// self: 페이지에서는 window 이고, 워커(e5-worker.js 가 paintAtlas 를 씁니다)에서는 그 워커입니다.
self.attentionExplorers = (function () {
  "use strict";

  /* viridis 색표 (matplotlib 과 같은 색을 9단계로 잡고 사이를 잇습니다: 페이지의 그림과 같은 색) */
  var VIRIDIS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
    [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

  /* 0..1 → [r, g, b] (0..255 정수) */
  function viridis(t) {
    var x = Math.min(Math.max(t, 0), 1) * (VIRIDIS.length - 1);
    var i = Math.min(Math.floor(x), VIRIDIS.length - 2);
    var f = x - i;
    return VIRIDIS[i].map(function (v, k) { return Math.round(v + (VIRIDIS[i + 1][k] - v) * f); });
  }

  /* 요소 하나: 속성(attrs)과 글(text, 있으면) */
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* SVG 요소 하나: 속성(attrs) */
  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  /* 코어(snippets/lib/attention.py)의 softmax 와 같은 순서의 float64 계산: 최댓값을 빼고 지수를 취해 합으로 나눕니다. */
  function softmax(row) {
    var max = Math.max.apply(null, row);
    var exps = row.map(function (v) { return Math.exp(v - max); });
    var sum = exps.reduce(function (a, b) { return a + b; }, 0);
    return exps.map(function (e) { return e / sum; });
  }

  /* 헤드 탐색기의 작은 히트맵 L × H 개를 이어 붙인 그림의 RGBA 화소 px (너비 n·H, 높이 nq·L)를 칠합니다: 가로 (헤드, 키),
     세로 (층, 쿼리), 화소 하나 = 가중치 하나 (weights: (층, 헤드, 쿼리, 키)). 색은 lut(0..1 을 1,024 단계로 나눈 RGB)에서
     가중치에 가장 가까운 단계. 헤드 탐색기와, 여러분의 문장을 계산하는 워커(e5-worker.js)가 이 함수 하나로 칠합니다. */
  function paintAtlas(px, weights, L, H, n, nq, lut) {
    var width = n * H;
    for (var l = 0; l < L; l++) {
      for (var h = 0; h < H; h++) {
        for (var r = 0; r < nq; r++) {
          var at = ((l * H + h) * nq + r) * n, row = (l * nq + r) * width + h * n;
          for (var j = 0; j < n; j++) {
            var c = 3 * Math.round(Math.min(Math.max(weights[at + j], 0), 1) * 1023), o = 4 * (row + j);
            px[o] = lut[c];
            px[o + 1] = lut[c + 1];
            px[o + 2] = lut[c + 2];
            px[o + 3] = 255;
          }
        }
      }
    }
    return px;
  }

  /* 상자 하나(root)의 data-src 의 JSON 을 받아 build(상자, 데이터) 로 그립니다. 상자의 data-ready 는
     loading → yes (또는 error: 상자에 "<failed>: 까닭" 을 적습니다). 이미 그렸거나 받는 중인 상자는 건너뜁니다. */
  function mount(root, build, failed) {
    var ready = root.getAttribute("data-ready");
    if (ready === "loading" || ready === "yes") return;
    root.setAttribute("data-ready", "loading");
    fetch(root.getAttribute("data-src"))
      .then(function (r) {
        if (!r.ok) throw new Error(r.status + " " + r.statusText);
        return r.json();
      })
      .then(function (data) { build(root, data); root.setAttribute("data-ready", "yes"); })
      .catch(function (err) {
        root.setAttribute("data-ready", "error");
        root.textContent = failed + ": " + err.message;
      });
  }

  /* selector 에 맞는 상자마다 mount */
  function mountAll(selector, build, failed) {
    document.querySelectorAll(selector).forEach(function (root) { mount(root, build, failed); });
  }

  /* 단추를 잠시 못 쓰게 합니다. disabled 대신 aria-disabled: 초점이 있는 단추에 disabled 를 걸면 Chromium 은 초점을
     <body> 로 떨어뜨려, 키보드로 누른 독자가 자리를 잃습니다. 누름은 각 처리 함수가 이 표시를 보고 무시합니다. */
  function setBlocked(button, on) {
    if (!button) return;
    if (on) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }
  function blocked(button) { return button.getAttribute("aria-disabled") === "true"; }

  return { viridis: viridis, el: el, svg: svg, softmax: softmax, paintAtlas: paintAtlas, mount: mount, mountAll: mountAll,
           setBlocked: setBlocked, blocked: blocked };
})();
