/* 학습 슬라이더: "헤드는 어떻게 역할을 배우나" 장에서 학습 스텝을 옮기며 네 헤드의 어텐션 가중치를 다시 그립니다.
 *
 * 페이지에 <div class="training-explorer" data-src="../data/head_roles-training.json"></div> 를 두면, 독자가 가까이
 * 내려올 때 site.js 가 이 스크립트를 붙이고(data-loads), 이 스크립트가 빌드 때 스니펫(snippets/chapters/head_roles.py 의
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

  /* 차례: 데이터 읽기(decode, percentAt, check) → 틀 만들기(build 와 build… 함수들) → 그리기(render, drawHeads,
     drawCurve) → 옮기기(go, listen). 함수마다 첫 인자 tx 가 슬라이더 하나의 상태입니다 (newTrainer). */

  /* ---- 데이터 ----------------------------------------------------------------------------------- */

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

  /* 급락 스텝(phase_step)에 가장 가까운 기록의 번호: "급락 무렵" 단추가 가는 곳 */
  function phaseIndex(data) {
    return data.steps.reduce(function (best, s, c) {
      return Math.abs(s - data.phase_step) < Math.abs(data.steps[best] - data.phase_step) ? c : best;
    }, 0);
  }

  /* 곡선의 색: 페이지의 그림(snippets/lib/plotting.py 의 THEMES)과 같은 색을 팔레트마다 */
  var THEMES = {
    light: { text: "#1f2328", muted: "#57606a", accent: "#3949ab", accent2: "#d81b60" },
    dark: { text: "#e6e8ee", muted: "#aab1bf", accent: "#8c9eff", accent2: "#ff80ab" }
  };
  function theme() {
    return document.body.getAttribute("data-md-color-scheme") === "slate" ? THEMES.dark : THEMES.light;
  }

  /* ---- 틀 만들기 -------------------------------------------------------------------------------- */

  /* 슬라이더 하나를 root 에 그립니다. */
  function build(root, data) {
    var bytes = decode(data.percent);
    check(data, bytes);
    var tx = newTrainer(root, data, bytes);
    root.textContent = "";
    root.appendChild(el("p", { "class": "training-explorer__title" }, data.title));
    buildControls(tx);
    buildCurve(tx);
    buildProbe(tx);
    buildHeads(tx);
    listen(tx);
    render(tx);
  }

  /* 슬라이더 하나의 상태. 화면의 부분(slider, curve, views …)은 build… 함수들이 채웁니다. */
  function newTrainer(root, data, bytes) {
    return {
      root: root, data: data, bytes: bytes,
      C: data.steps.length, n: data.n, last: data.steps[data.steps.length - 1],
      id: "training-" + Math.random().toString(36).slice(2, 8),
      c: 0, pending: false  // c: 보이는 기록의 번호. pending: 다음 프레임에 그리기로 했는가
    };
  }

  /* 스텝 슬라이더와 그 양옆의 − / + 단추, 그리고 미리 정한 단추 셋 (처음, 급락 무렵, 끝) */
  function buildControls(tx) {
    var controls = el("div", { "class": "training-explorer__controls" });
    controls.appendChild(el("label", { "for": tx.id + "-step" }, "학습 스텝"));
    var row = el("div", { "class": "training-explorer__row" });
    tx.back = el("button", { type: "button", "class": "training-explorer__nudge", "aria-label": "스텝 20 줄이기" }, "−");
    tx.slider = el("input", { type: "range", id: tx.id + "-step", min: "0", max: String(tx.C - 1), step: "1", value: "0",
                              "aria-describedby": tx.id + "-status" });
    tx.ahead = el("button", { type: "button", "class": "training-explorer__nudge", "aria-label": "스텝 20 늘리기" }, "+");
    row.appendChild(tx.back);
    row.appendChild(tx.slider);
    row.appendChild(tx.ahead);
    controls.appendChild(row);
    var presets = el("div", { "class": "training-explorer__presets" });
    [["처음", 0], ["급락 무렵", phaseIndex(tx.data)], ["끝", tx.C - 1]].forEach(function (p) {
      var b = el("button", { type: "button", "class": "md-button", "data-index": String(p[1]) }, p[0]);
      b.addEventListener("click", function () { go(tx, p[1]); });
      presets.appendChild(b);
    });
    controls.appendChild(presets);
    tx.root.appendChild(controls);
  }

  /* 손실 곡선(화면 읽기 도구는 건너뜀)과 그 설명, 지금 스텝을 읽어 주는 상태 줄 */
  function buildCurve(tx) {
    tx.curve = el("canvas", { "class": "training-explorer__curve", "aria-hidden": "true" });
    tx.root.appendChild(tx.curve);
    tx.root.appendChild(el("p", { "class": "training-explorer__legend", "aria-hidden": "true" },
      "굵은 선: 둘째 토막의 손실 · 가는 선: 나머지 자리 · 점선: 찍기 · 세로선: 지금 스텝"));
    tx.status = el("p", { "class": "training-explorer__status", id: tx.id + "-status", "aria-live": "polite" });
    tx.root.appendChild(tx.status);
  }

  /* 확인용 수열: 두 토막을 대괄호로 (히트맵의 행과 열이 이 토큰들입니다) */
  function buildProbe(tx) {
    var seg = tx.data.segment, toks = tx.data.tokens;
    var text = toks.slice(0, seg[0]).join("") + "[" + toks.slice(seg[0], seg[0] + seg[2]).join("") + "]" +
      toks.slice(seg[0] + seg[2], seg[1]).join("") + "[" + toks.slice(seg[1], seg[1] + seg[2]).join("") + "]" +
      toks.slice(seg[1] + seg[2]).join("");
    var probe = el("p", { "class": "training-explorer__probe" });
    probe.appendChild(document.createTextNode("확인용 수열 (행 = 보는 자리, 열 = 보이는 자리): "));
    probe.appendChild(el("code", {}, text));
    tx.root.appendChild(probe);
  }

  /* 헤드마다 n × n 캔버스 하나와 그 아래 이름·두 점수 */
  function buildHeads(tx) {
    var grid = el("div", { "class": "training-explorer__heads" });
    tx.views = tx.data.heads.map(function (name) {
      var fig = el("figure", { "class": "training-explorer__head" });
      var canvas = el("canvas", { width: String(tx.n), height: String(tx.n), role: "img" });
      var cap = el("figcaption");
      var view = { name: name, canvas: canvas, prev: el("span", { "class": "training-explorer__score" }),
                   ind: el("span", { "class": "training-explorer__score" }),
                   image: canvas.getContext("2d").createImageData(tx.n, tx.n) };
      cap.appendChild(el("span", { "class": "training-explorer__name" }, "헤드 " + name));
      cap.appendChild(view.prev);
      cap.appendChild(view.ind);
      fig.appendChild(canvas);
      fig.appendChild(cap);
      grid.appendChild(fig);
      return view;
    });
    tx.root.appendChild(grid);
  }

  /* ---- 그리기 ----------------------------------------------------------------------------------- */

  function render(tx) {
    tx.pending = false;
    var data = tx.data, c = tx.c, step = data.steps[c];
    tx.slider.value = String(c);
    tx.slider.setAttribute("aria-valuetext", "스텝 " + step + " / " + tx.last);
    setBlocked(tx.back, c === 0);
    setBlocked(tx.ahead, c === tx.C - 1);
    tx.status.textContent = "스텝 " + step + " / " + tx.last + ": 둘째 토막 손실 " + data.repeat_loss[c].toFixed(2) +
      ", 나머지 자리 " + data.other_loss[c].toFixed(2) + " (찍기 " + data.chance.toFixed(2) + ")";
    tx.status.setAttribute("data-step", String(step));
    tx.status.setAttribute("data-repeat", data.repeat_loss[c].toFixed(2));
    tx.status.setAttribute("data-other", data.other_loss[c].toFixed(2));
    drawHeads(tx);
    drawCurve(tx);
    tx.root.setAttribute("data-index", String(c));
  }

  /* 네 헤드의 히트맵(가린 칸은 비워 둠)과 점수, 화면 읽기 도구가 읽을 이름 */
  function drawHeads(tx) {
    var n = tx.n, c = tx.c;
    tx.views.forEach(function (v, h) {
      var px = v.image.data;
      for (var i = 0; i < n; i++) {
        for (var j = 0; j < n; j++) {
          var k = 4 * (i * n + j);
          if (j > i) { px[k + 3] = 0; continue; }  /* 뒤 토큰은 볼 수 없습니다: 비워 둡니다 */
          var rgb = viridis(percentAt(tx.data, tx.bytes, c, h, i, j) / 100);
          px[k] = rgb[0]; px[k + 1] = rgb[1]; px[k + 2] = rgb[2]; px[k + 3] = 255;
        }
      }
      v.canvas.getContext("2d").putImageData(v.image, 0, 0);
      var prev = tx.data.scores[c][h][0].toFixed(2), ind = tx.data.scores[c][h][1].toFixed(2);
      v.prev.textContent = "이전 토큰 점수 " + prev;
      v.ind.textContent = "유도 점수 " + ind;
      v.prev.setAttribute("data-value", prev);
      v.ind.setAttribute("data-value", ind);
      v.canvas.setAttribute("aria-label", "헤드 " + v.name + ", 스텝 " + tx.data.steps[c] + "의 어텐션 가중치 " +
        n + " × " + n + ": 이전 토큰 점수 " + prev + ", 유도 점수 " + ind);
    });
  }

  /* 손실 곡선 두 줄(둘째 토막, 나머지 자리)과 찍기 선, 지금 스텝의 세로선 */
  function drawCurve(tx) {
    var data = tx.data, curve = tx.curve, last = tx.last;
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
    var now = x(data.steps[tx.c]);
    g.beginPath(); g.moveTo(now, 0); g.lineTo(now, h); g.stroke();
  }

  /* ---- 옮기기 ----------------------------------------------------------------------------------- */

  /* 양 끝의 − / + 는 disabled 대신 aria-disabled 로 막습니다: 초점이 있는 단추에 disabled 를 걸면 Chromium 은 초점을
     <body> 로 떨어뜨려, 키보드로 누른 독자가 자리를 잃습니다 ("여러분의 문장으로" 의 단추와 같은 까닭). 누름은 go 가
     범위 안으로 자르므로 막힌 단추를 눌러도 아무 일도 없습니다. */
  function setBlocked(button, on) {
    if (on) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }

  /* 슬라이더를 끄는 동안 입력이 프레임보다 잦아도 한 프레임에 한 번만 그립니다 */
  function go(tx, c) {
    tx.c = Math.max(0, Math.min(tx.C - 1, c));
    if (!tx.pending) {
      tx.pending = true;
      requestAnimationFrame(function () { render(tx); });
    }
  }

  function listen(tx) {
    var redraw = function () { requestAnimationFrame(function () { drawCurve(tx); }); };
    tx.slider.addEventListener("input", function () { go(tx, Number(tx.slider.value)); });
    tx.back.addEventListener("click", function () { go(tx, tx.c - 1); });
    tx.ahead.addEventListener("click", function () { go(tx, tx.c + 1); });
    window.addEventListener("resize", redraw);
    /* Material 의 팔레트 단추는 body 의 data-md-color-scheme 을 바꿉니다: 곡선의 색을 다시 읽습니다 */
    new MutationObserver(redraw).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  function init() {
    window.attentionExplorers.mountAll(".training-explorer[data-src]", build, "학습 기록을 읽지 못했습니다");
  }

  window.trainingExplorer = { decode: decode, percentAt: percentAt };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
