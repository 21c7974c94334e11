/* 탐색기들(explorer.js: 어텐션 가중치 탐색기, head-explorer.js: 헤드 탐색기, training-explorer.js: 학습 슬라이더)이 함께 쓰는 작은 도구.
 * 페이지는 이 파일을 탐색기 스크립트보다 먼저 붙입니다 (overrides/main.html).
 */
window.attentionExplorers = (function () {
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

  /* selector 에 맞는 상자마다 data-src 의 JSON 을 받아 build(상자, 데이터) 로 그립니다. 상자의 data-ready 는
     loading → yes (또는 error: 상자에 "<failed>: 까닭" 을 적습니다). 이미 그렸거나 받는 중인 상자는 건너뜁니다. */
  function mountAll(selector, build, failed) {
    document.querySelectorAll(selector).forEach(function (root) {
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
    });
  }

  return { viridis: viridis, el: el, mountAll: mountAll };
})();
