/* 어텐션 가중치 탐색기: 점수에 곱하는 값을 바꾸며 소프트맥스가 어떻게 날카로워지는지 봅니다.
 *
 * 페이지에 <div class="attention-explorer" data-src="../data/why_scale-explorer.json"></div> 를 두면
 * 이 스크립트가 빌드 때 스니펫이 만든 JSON(토큰, 나누기 전 점수 Q Kᵀ, d_k)을 읽어 도구를 그립니다.
 * JavaScript 가 꺼져 있으면 아무것도 그리지 않고, 페이지의 정적 그림이 그대로 남습니다.
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  var softmax = window.attentionExplorers.softmax;  /* numpy 코어와 같은 순서의 소프트맥스 (explorer-common.js) */

  /* 엔트로피(자연로그, 나트). 0·log 0 = 0 으로 둡니다. */
  function entropy(p) {
    return p.reduce(function (acc, v) { return v > 0 ? acc - v * Math.log(v) : acc; }, 0);
  }

  function weights(scores, factor) {
    return scores.map(function (row) {
      return softmax(row.map(function (v) { return v * factor; }));
    });
  }

  /* 슬라이더 위치(0–100) ↔ 점수에 곱하는 값. 로그 눈금: 0 = ÷√d_k, 100 = ×2 */
  function factorAt(position, dK) {
    var lo = Math.log(1 / Math.sqrt(dK));
    var hi = Math.log(2);
    return Math.exp(lo + (hi - lo) * position / 100);
  }

  function positionOf(factor, dK) {
    var lo = Math.log(1 / Math.sqrt(dK));
    var hi = Math.log(2);
    return 100 * (Math.log(factor) - lo) / (hi - lo);
  }

  var viridis = window.attentionExplorers.viridis;  /* 공통 도구 (explorer-common.js) */
  var el = window.attentionExplorers.el;

  /* WCAG 상대 휘도로 검은 글씨와 흰 글씨 가운데 명암비가 더 큰 쪽을 고릅니다. */
  function textColorOn(rgb) {
    var lum = rgb.map(function (c) {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    var L = 0.2126 * lum[0] + 0.7152 * lum[1] + 0.0722 * lum[2];
    return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "#000" : "#fff";
  }

  /* ---- 탐색기 하나 ----------------------------------------------------------------------------------
     build 가 탐색기 하나를 만듭니다 (head-explorer.js 와 같은 모양). 상태와 화면의 부분은 객체 하나(ex)에 있고,
     아래의 함수들은 그것을 첫 인자로 받습니다. */
  function build(root, data) {
    var n = data.tokens.length;
    var ex = {
      root: root, data: data, tokens: data.tokens, dK: data.d_k, n: n,
      id: "explorer-" + Math.random().toString(36).slice(2, 8),
      state: { factor: 1 / Math.sqrt(data.d_k), row: 1 < n ? 1 : 0 }
    };
    root.textContent = "";
    root.appendChild(el("p", { "class": "attention-explorer__title" }, data.title));
    root.appendChild(buildControls(ex));
    root.appendChild(buildGrid(ex));
    ex.summary = root.appendChild(el("p", { "class": "attention-explorer__summary", "aria-live": "polite" }));
    listen(ex);
    render(ex);
  }

  /* 슬라이더(로그 눈금), 눈금 이름, 두 단추(÷√d_k 로, 나누지 않기) */
  function buildControls(ex) {
    var id = ex.id;
    var controls = el("div", { "class": "attention-explorer__controls" });
    var label = el("label", { "for": id + "-scale" }, "점수에 곱하는 값");
    ex.slider = el("input", {
      type: "range", id: id + "-scale", min: "0", max: "100", step: "any",
      value: "0", "aria-describedby": id + "-scale-text"
    });
    ex.scaleText = el("output", { id: id + "-scale-text", "for": id + "-scale", "class": "attention-explorer__scale" });
    var marks = el("div", { "class": "attention-explorer__marks", "aria-hidden": "true" });
    marks.appendChild(el("span", {}, "÷√d_k"));
    var none = el("span", {}, "나누지 않음 (×1)");
    none.style.left = positionOf(1, ex.dK) + "%";
    marks.appendChild(none);
    marks.appendChild(el("span", {}, "×2"));
    var presets = el("div", { "class": "attention-explorer__presets" });
    ex.presetScaled = presets.appendChild(el("button", { type: "button", "class": "md-button" }, "÷√d_k 로"));
    ex.presetRaw = presets.appendChild(el("button", { type: "button", "class": "md-button" }, "나누지 않기"));
    [label, ex.slider, marks, ex.scaleText, presets].forEach(function (node) { controls.appendChild(node); });
    return controls;
  }

  /* 가중치 표. 표가 화면보다 넓으면 이 상자가 가로로 스크롤됩니다: 키보드로도 닿도록 이름 붙은 영역으로 둡니다. */
  function buildGrid(ex) {
    var scroller = el("div", { "class": "attention-explorer__scroll", tabindex: "0", role: "region",
                               "aria-label": "어텐션 가중치 표, 가로로 스크롤" });
    var table = el("table", { "class": "attention-explorer__grid" });
    table.appendChild(el("caption", {}, "어텐션 가중치: 행 = 쿼리(보는 쪽), 열 = 키(보이는 쪽). 행 이름을 누르면 그 행을 자세히 봅니다."));
    var head = el("tr");
    head.appendChild(el("td"));  // 왼쪽 위 빈 칸: 머리글이 아니라 빈 칸입니다
    ex.tokens.forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    table.appendChild(el("thead")).appendChild(head);
    var tbody = table.appendChild(el("tbody"));
    ex.rowButtons = [];
    ex.cells = [];
    ex.tokens.forEach(function (t, i) { tbody.appendChild(gridRow(ex, t, i)); });
    scroller.appendChild(table);
    return scroller;
  }

  /* 표의 한 행: 행 이름 단추(누르거나 초점이 오면 그 행을 고릅니다)와 가중치 칸들 */
  function gridRow(ex, t, i) {
    var tr = el("tr");
    var th = el("th", { scope: "row" });
    var button = el("button", { type: "button", "aria-pressed": "false", "data-row": String(i) }, t);
    button.addEventListener("click", function () { select(ex, i); });
    button.addEventListener("focus", function () { select(ex, i); });
    ex.rowButtons.push(button);
    th.appendChild(button);
    tr.appendChild(th);
    ex.cells.push([]);
    ex.tokens.forEach(function () { ex.cells[i].push(tr.appendChild(el("td"))); });
    return tr;
  }

  function listen(ex) {
    ex.slider.addEventListener("input", function () {
      ex.state.factor = factorAt(Number(ex.slider.value), ex.dK);
      render(ex);
    });
    ex.presetScaled.addEventListener("click", function () { setFactor(ex, 1 / Math.sqrt(ex.dK)); });
    ex.presetRaw.addEventListener("click", function () { setFactor(ex, 1); });
  }

  function select(ex, i) {
    ex.state.row = i;
    render(ex);
  }

  function setFactor(ex, f) {
    ex.state.factor = f;
    ex.slider.value = String(positionOf(f, ex.dK));
    render(ex);
  }

  /* 상태(곱하는 값, 고른 행) → 화면: 눈금 글, 칸마다 가중치와 색, 고른 행, 그 행의 요약 */
  function render(ex) {
    var state = ex.state, w = weights(ex.data.scores, state.factor);
    var ratio = state.factor * Math.sqrt(ex.dK);
    ex.scaleText.textContent = "× " + state.factor.toFixed(3) + "  (1/√d_k의 " + ratio.toFixed(2) + "배)";
    ex.slider.setAttribute("aria-valuetext", "점수 × " + state.factor.toFixed(3));
    w.forEach(function (row, i) {
      row.forEach(function (v, j) { paintCell(ex.cells[i][j], v); });
      ex.rowButtons[i].setAttribute("aria-pressed", String(i === state.row));
      ex.cells[i].forEach(function (td) { td.classList.toggle("is-selected", i === state.row); });
    });
    renderSummary(ex, w[state.row]);
  }

  function paintCell(td, v) {
    td.textContent = v.toFixed(2);
    td.setAttribute("data-weight", v.toPrecision(17));
    var rgb = viridis(v);
    td.style.backgroundColor = "rgb(" + rgb.join(",") + ")";
    td.style.color = textColorOn(rgb);
  }

  /* 고른 행의 가장 큰 가중치와 엔트로피 (화면 읽기 프로그램에 알리는 자리) */
  function renderSummary(ex, p) {
    var tokens = ex.tokens, best = p.indexOf(Math.max.apply(null, p));
    ex.summary.textContent = "'" + tokens[ex.state.row] + "' 행: 가장 큰 가중치 " + p[best].toFixed(3) +
      " ('" + tokens[best] + "'), 엔트로피 " + entropy(p).toFixed(3) + " (고르게 나누면 " +
      Math.log(ex.n).toFixed(3) + ")";
    ex.summary.setAttribute("data-max", String(p[best]));
    ex.summary.setAttribute("data-entropy", String(entropy(p)));
  }

  function init() {
    window.attentionExplorers.mountAll(".attention-explorer[data-src]", build, "탐색기 데이터를 읽지 못했습니다");
  }

  window.attentionExplorer = { softmax: softmax, entropy: entropy, weights: weights, factorAt: factorAt };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
