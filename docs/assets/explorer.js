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

  function build(root, data) {
    var tokens = data.tokens;
    var dK = data.d_k;
    var n = tokens.length;
    var id = "explorer-" + Math.random().toString(36).slice(2, 8);
    var state = { factor: 1 / Math.sqrt(dK), row: 1 < n ? 1 : 0 };

    root.textContent = "";
    root.appendChild(el("p", { "class": "attention-explorer__title" }, data.title));

    var controls = el("div", { "class": "attention-explorer__controls" });
    var label = el("label", { "for": id + "-scale" }, "점수에 곱하는 값");
    var slider = el("input", {
      type: "range", id: id + "-scale", min: "0", max: "100", step: "any",
      value: "0", "aria-describedby": id + "-scale-text"
    });
    var scaleText = el("output", { id: id + "-scale-text", "for": id + "-scale", "class": "attention-explorer__scale" });
    var marks = el("div", { "class": "attention-explorer__marks", "aria-hidden": "true" });
    marks.appendChild(el("span", {}, "÷√d_k"));
    var none = el("span", {}, "나누지 않음 (×1)");
    none.style.left = positionOf(1, dK) + "%";
    marks.appendChild(none);
    marks.appendChild(el("span", {}, "×2"));
    var presets = el("div", { "class": "attention-explorer__presets" });
    var presetScaled = el("button", { type: "button", "class": "md-button" }, "÷√d_k 로");
    var presetRaw = el("button", { type: "button", "class": "md-button" }, "나누지 않기");
    presets.appendChild(presetScaled);
    presets.appendChild(presetRaw);
    controls.appendChild(label);
    controls.appendChild(slider);
    controls.appendChild(marks);
    controls.appendChild(scaleText);
    controls.appendChild(presets);
    root.appendChild(controls);

    // 표가 화면보다 넓으면 이 상자가 가로로 스크롤됩니다: 키보드로도 닿도록 이름 붙은 영역으로 둡니다.
    var scroller = el("div", { "class": "attention-explorer__scroll", tabindex: "0", role: "region",
                               "aria-label": "어텐션 가중치 표, 가로로 스크롤" });
    var table = el("table", { "class": "attention-explorer__grid" });
    var caption = el("caption", {}, "어텐션 가중치: 행 = 쿼리(보는 쪽), 열 = 키(보이는 쪽). 행 이름을 누르면 그 행을 자세히 봅니다.");
    table.appendChild(caption);
    var head = el("tr");
    head.appendChild(el("td"));  // 왼쪽 위 빈 칸: 머리글이 아니라 빈 칸입니다
    tokens.forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = el("tbody");
    var rowButtons = [];
    var cells = [];
    tokens.forEach(function (t, i) {
      var tr = el("tr");
      var th = el("th", { scope: "row" });
      var button = el("button", { type: "button", "aria-pressed": "false", "data-row": String(i) }, t);
      button.addEventListener("click", function () { select(i); });
      button.addEventListener("focus", function () { select(i); });
      rowButtons.push(button);
      th.appendChild(button);
      tr.appendChild(th);
      cells.push([]);
      tokens.forEach(function () {
        var td = el("td");
        cells[i].push(td);
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    scroller.appendChild(table);
    root.appendChild(scroller);

    var summary = el("p", { "class": "attention-explorer__summary", "aria-live": "polite" });
    root.appendChild(summary);

    function render() {
      var w = weights(data.scores, state.factor);
      var ratio = state.factor * Math.sqrt(dK);
      scaleText.textContent = "× " + state.factor.toFixed(3) + "  (1/√d_k의 " + ratio.toFixed(2) + "배)";
      slider.setAttribute("aria-valuetext", "점수 × " + state.factor.toFixed(3));
      w.forEach(function (row, i) {
        row.forEach(function (v, j) {
          var td = cells[i][j];
          td.textContent = v.toFixed(2);
          td.setAttribute("data-weight", v.toPrecision(17));
          var rgb = viridis(v);
          td.style.backgroundColor = "rgb(" + rgb.join(",") + ")";
          td.style.color = textColorOn(rgb);
        });
        rowButtons[i].setAttribute("aria-pressed", String(i === state.row));
        cells[i].forEach(function (td) { td.classList.toggle("is-selected", i === state.row); });
      });
      var p = w[state.row];
      var best = p.indexOf(Math.max.apply(null, p));
      summary.textContent = "'" + tokens[state.row] + "' 행: 가장 큰 가중치 " + p[best].toFixed(3) +
        " ('" + tokens[best] + "'), 엔트로피 " + entropy(p).toFixed(3) + " (고르게 나누면 " +
        Math.log(n).toFixed(3) + ")";
      summary.setAttribute("data-max", String(p[best]));
      summary.setAttribute("data-entropy", String(entropy(p)));
    }

    function select(i) {
      state.row = i;
      render();
    }

    function setFactor(f) {
      state.factor = f;
      slider.value = String(positionOf(f, dK));
      render();
    }

    slider.addEventListener("input", function () {
      state.factor = factorAt(Number(slider.value), dK);
      render();
    });
    presetScaled.addEventListener("click", function () { setFactor(1 / Math.sqrt(dK)); });
    presetRaw.addEventListener("click", function () { setFactor(1); });
    render();
  }

  function init() {
    window.attentionExplorers.mountAll(".attention-explorer[data-src]", build, "탐색기 데이터를 읽지 못했습니다");
  }

  window.attentionExplorer = { softmax: softmax, entropy: entropy, weights: weights, factorAt: factorAt };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
