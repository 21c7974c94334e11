/* 학습 슬라이더: "헤드는 어떻게 역할을 배우나" 장에서 학습 스텝을 옮기며 네 헤드의 어텐션 가중치를 다시 그립니다.
 *
 * 페이지에 <div class="training-explorer" data-src="../data/head_roles-training.json"></div> 를 두면, 독자가 가까이
 * 내려올 때 site.js 가 이 스크립트를 붙이고(data-loads), 이 스크립트가 빌드 때 스니펫(snippets/head_roles.py 의
 * data_training)이 만든 JSON 을 읽어 그립니다. JSON 에는 20 스텝마다 네 헤드의 가중치(확인용 수열 하나, 백분율 정수,
 * 인과 마스크 때문에 늘 0 인 대각선 위는 빼고)와, 그 스텝의 손실과 두 점수가 화면에 적는 자리수로 들어 있습니다.
 * 그래서 화면의 숫자는 빌드가 계산한 값 그대로입니다 (tests/test_head_roles_browser.py 가 numpy 와 견줍니다).
 *
 * 히트맵 하나는 n × n 픽셀짜리 캔버스이고 CSS 가 늘려 보입니다: 픽셀 (열 j, 행 i) 가 쿼리 i 가 키 j 에 준 가중치입니다.
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  var viridis = window.attentionExplorers.viridis;  /* 공통 도구 (explorer-common.js) */
  var el = window.attentionExplorers.el;

  /* base64 → 바이트 배열 */
  function decode(b64) {
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  /* 아래 삼각형만 담은 백분율 배열에서 스텝 c, 헤드 h 의 (쿼리 i, 키 j) 값. 차례는 numpy 의 tril_indices 와 같습니다. */
  function percentAt(data, bytes, c, h, i, j) {
    if (j > i) return 0;
    var tri = data.n * (data.n + 1) / 2;
    return bytes[(c * data.heads.length + h) * tri + i * (i + 1) / 2 + j];
  }

  function check(data, bytes) {
    var C = data.steps.length, H = data.heads.length, n = data.n;
    var want = C * H * n * (n + 1) / 2;
    if (bytes.length !== want) throw new Error("가중치 " + bytes.length + "바이트, 스텝 " + C + " × 헤드 " + H + " × " +
                                               (n * (n + 1) / 2) + " = " + want + "바이트여야 합니다");
    ["repeat_loss", "other_loss", "scores"].forEach(function (k) {
      if (!data[k] || data[k].length !== C) throw new Error(k + " 의 길이가 스텝 수 " + C + " 와 다릅니다");
    });
  }

  /* 곡선의 색: 페이지의 그림(snippets/plotting.py 의 THEMES)과 같은 색을 팔레트마다 */
  var THEMES = {
    light: { text: "#1f2328", muted: "#57606a", accent: "#3949ab", accent2: "#d81b60" },
    dark: { text: "#e6e8ee", muted: "#aab1bf", accent: "#8c9eff", accent2: "#ff80ab" }
  };
  function theme() {
    return document.body.getAttribute("data-md-color-scheme") === "slate" ? THEMES.dark : THEMES.light;
  }

  function build(root, data) {
    var bytes = decode(data.percent);
    check(data, bytes);
    var C = data.steps.length, H = data.heads.length, n = data.n;
    var last = data.steps[C - 1];
    var phase = data.steps.reduce(function (best, s, c) {
      return Math.abs(s - data.phase_step) < Math.abs(data.steps[best] - data.phase_step) ? c : best;
    }, 0);
    var id = "training-" + Math.random().toString(36).slice(2, 8);

    root.textContent = "";
    root.appendChild(el("p", { "class": "training-explorer__title" }, data.title));

    var controls = el("div", { "class": "training-explorer__controls" });
    controls.appendChild(el("label", { "for": id + "-step" }, "학습 스텝"));
    var row = el("div", { "class": "training-explorer__row" });
    var back = el("button", { type: "button", "class": "training-explorer__nudge", "aria-label": "스텝 20 줄이기" }, "−");
    var slider = el("input", { type: "range", id: id + "-step", min: "0", max: String(C - 1), step: "1", value: "0",
                               "aria-describedby": id + "-status" });
    var ahead = el("button", { type: "button", "class": "training-explorer__nudge", "aria-label": "스텝 20 늘리기" }, "+");
    row.appendChild(back);
    row.appendChild(slider);
    row.appendChild(ahead);
    controls.appendChild(row);
    var presets = el("div", { "class": "training-explorer__presets" });
    [["처음", 0], ["급락 무렵", phase], ["끝", C - 1]].forEach(function (p) {
      var b = el("button", { type: "button", "class": "md-button", "data-index": String(p[1]) }, p[0]);
      b.addEventListener("click", function () { go(p[1]); });
      presets.appendChild(b);
    });
    controls.appendChild(presets);
    root.appendChild(controls);

    var curve = el("canvas", { "class": "training-explorer__curve", "aria-hidden": "true" });
    root.appendChild(curve);
    root.appendChild(el("p", { "class": "training-explorer__legend", "aria-hidden": "true" },
      "굵은 선: 둘째 토막의 손실 · 가는 선: 나머지 자리 · 점선: 찍기 · 세로선: 지금 스텝"));
    var status = el("p", { "class": "training-explorer__status", id: id + "-status", "aria-live": "polite" });
    root.appendChild(status);

    /* 확인용 수열: 두 토막을 대괄호로 (히트맵의 행과 열이 이 토큰들입니다) */
    var seg = data.segment, toks = data.tokens;
    var probe = el("p", { "class": "training-explorer__probe" });
    probe.appendChild(document.createTextNode("확인용 수열 (행 = 보는 자리, 열 = 보이는 자리): "));
    probe.appendChild(el("code", {}, toks.slice(0, seg[0]).join("") + "[" + toks.slice(seg[0], seg[0] + seg[2]).join("") + "]" +
      toks.slice(seg[0] + seg[2], seg[1]).join("") + "[" + toks.slice(seg[1], seg[1] + seg[2]).join("") + "]" +
      toks.slice(seg[1] + seg[2]).join("")));
    root.appendChild(probe);
    var grid = el("div", { "class": "training-explorer__heads" });
    var views = data.heads.map(function (name) {
      var fig = el("figure", { "class": "training-explorer__head" });
      var canvas = el("canvas", { width: String(n), height: String(n), role: "img" });
      var cap = el("figcaption");
      var title = el("span", { "class": "training-explorer__name" }, "헤드 " + name);
      var prev = el("span", { "class": "training-explorer__score" });
      var ind = el("span", { "class": "training-explorer__score" });
      cap.appendChild(title);
      cap.appendChild(prev);
      cap.appendChild(ind);
      fig.appendChild(canvas);
      fig.appendChild(cap);
      grid.appendChild(fig);
      return { name: name, canvas: canvas, prev: prev, ind: ind, image: canvas.getContext("2d").createImageData(n, n) };
    });
    root.appendChild(grid);

    var state = { c: 0, pending: false };

    function drawHeads() {
      views.forEach(function (v, h) {
        var px = v.image.data;
        for (var i = 0; i < n; i++) {
          for (var j = 0; j < n; j++) {
            var k = 4 * (i * n + j);
            if (j > i) { px[k + 3] = 0; continue; }  /* 뒤 토큰은 볼 수 없습니다: 비워 둡니다 */
            var rgb = viridis(percentAt(data, bytes, state.c, h, i, j) / 100);
            px[k] = rgb[0]; px[k + 1] = rgb[1]; px[k + 2] = rgb[2]; px[k + 3] = 255;
          }
        }
        v.canvas.getContext("2d").putImageData(v.image, 0, 0);
        var s = data.scores[state.c][h];
        v.prev.textContent = "이전 토큰 점수 " + s[0].toFixed(2);
        v.ind.textContent = "유도 점수 " + s[1].toFixed(2);
        v.prev.setAttribute("data-value", s[0].toFixed(2));
        v.ind.setAttribute("data-value", s[1].toFixed(2));
        v.canvas.setAttribute("aria-label", "헤드 " + v.name + ", 스텝 " + data.steps[state.c] + "의 어텐션 가중치 " +
          n + " × " + n + ": 이전 토큰 점수 " + s[0].toFixed(2) + ", 유도 점수 " + s[1].toFixed(2));
      });
    }

    /* 손실 곡선 두 줄(둘째 토막, 나머지 자리)과 찍기 선, 지금 스텝의 세로선 */
    function drawCurve() {
      var ratio = window.devicePixelRatio || 1;
      var w = curve.clientWidth || 300, h = curve.clientHeight || 64;
      curve.width = Math.round(w * ratio);
      curve.height = Math.round(h * ratio);
      var g = curve.getContext("2d");
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, w, h);
      var top = 4.4, pad = 3;
      var x = function (s) { return pad + (w - 2 * pad) * s / last; };
      var y = function (v) { return pad + (h - 2 * pad) * (1 - Math.min(v, top) / top); };
      var t = theme();
      g.strokeStyle = t.muted;
      g.setLineDash([4, 3]);
      g.beginPath(); g.moveTo(x(0), y(data.chance)); g.lineTo(x(last), y(data.chance)); g.stroke();
      g.setLineDash([]);
      [["other_loss", t.accent2, 1.5], ["repeat_loss", t.accent, 2.5]].forEach(function (line) {
        g.strokeStyle = line[1];
        g.lineWidth = line[2];
        g.beginPath();
        data[line[0]].forEach(function (v, c) { if (c) g.lineTo(x(data.steps[c]), y(v)); else g.moveTo(x(0), y(v)); });
        g.stroke();
      });
      g.lineWidth = 2;
      g.strokeStyle = t.text;
      g.beginPath(); g.moveTo(x(data.steps[state.c]), 0); g.lineTo(x(data.steps[state.c]), h); g.stroke();
    }

    function render() {
      state.pending = false;
      var c = state.c;
      slider.value = String(c);
      slider.setAttribute("aria-valuetext", "스텝 " + data.steps[c] + " / " + last);
      back.disabled = c === 0;
      ahead.disabled = c === C - 1;
      status.textContent = "스텝 " + data.steps[c] + " / " + last + ": 둘째 토막 손실 " + data.repeat_loss[c].toFixed(2) +
        ", 나머지 자리 " + data.other_loss[c].toFixed(2) + " (찍기 " + data.chance.toFixed(2) + ")";
      status.setAttribute("data-step", String(data.steps[c]));
      status.setAttribute("data-repeat", data.repeat_loss[c].toFixed(2));
      status.setAttribute("data-other", data.other_loss[c].toFixed(2));
      drawHeads();
      drawCurve();
      root.setAttribute("data-index", String(c));
    }

    /* 슬라이더를 끄는 동안 입력이 프레임보다 잦아도 한 프레임에 한 번만 그립니다 */
    function go(c) {
      state.c = Math.max(0, Math.min(C - 1, c));
      if (!state.pending) {
        state.pending = true;
        requestAnimationFrame(render);
      }
    }

    slider.addEventListener("input", function () { go(Number(slider.value)); });
    back.addEventListener("click", function () { go(state.c - 1); });
    ahead.addEventListener("click", function () { go(state.c + 1); });
    window.addEventListener("resize", function () { requestAnimationFrame(drawCurve); });
    /* Material 의 팔레트 단추는 body 의 data-md-color-scheme 을 바꿉니다: 곡선의 색을 다시 읽습니다 */
    new MutationObserver(function () { requestAnimationFrame(drawCurve); })
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    render();
  }

  function init() {
    window.attentionExplorers.mountAll(".training-explorer[data-src]", build, "학습 기록을 읽지 못했습니다");
  }

  window.trainingExplorer = { decode: decode, percentAt: percentAt };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
