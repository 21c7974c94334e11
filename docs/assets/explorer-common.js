/* 두 탐색기(explorer.js: 어텐션 가중치 탐색기, head-explorer.js: 헤드 탐색기)가 함께 쓰는 작은 도구.
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

  return { viridis: viridis, el: el };
})();
