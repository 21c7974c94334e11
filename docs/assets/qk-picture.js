/* 2장 ① 의 움직이는 q·k 그림: 2차원 쿼리 q 와 키 셋을 끌면 내적 q·k, √d_k 로 나눈 점수, 소프트맥스 가중치가 바로 바뀝니다.
 *
 * 페이지에 <div class="qk-picture" data-src="../data/four_steps-qk_picture.json"></div> 를 두면, 이 스크립트가 빌드 때
 * 스니펫(four_steps.py 의 data_qk_picture)이 만든 JSON(처음 위치, d_k, 눈금)을 읽어 그림과 표를 그립니다. 계산은
 * 코어(snippets/lib/attention.py)의 scaled_dot_product_attention 과 같은 순서입니다: 내적, √d_k 로 나누기, 최댓값을 뺀
 * 소프트맥스. 그 숫자가 numpy 코어와 같다는 것은 tests/test_predict_browser.py 가 확인합니다.
 * 끝점은 손가락·마우스로 끌거나, 끝점에 초점을 두고 화살표 키로 움직입니다 (Shift 를 함께 누르면 다섯 칸씩).
 * 화면 읽기 프로그램에는 움직임이 멈출 때 지금 상태를 한 문단으로 알립니다 (aria-live).
 * 사이트 스크립트(docs/assets/site.js)가 독자가 그림 가까이 내려올 때 이 파일을 붙입니다. 프레임워크 없는 JavaScript 입니다.
 *
 * 차례: 계산(compute) → 그리기(평면 drawPlane, 화살과 끝점 drawVectors, 표 drawTable) → 다시 그리기(render) →
 * 알리기(announcer) → 움직이기(끌기 attachDrag, 키보드 attachKeys) → 조립(build) → 시작(init).
 */
(function () {
  "use strict";

  var common = window.attentionExplorers;  /* 공통 도구 (explorer-common.js, 이 파일보다 먼저 붙습니다) */
  var el = common.el, svg = common.svg, softmax = common.softmax;
  var PAD = 0.45;  /* 그림 둘레의 여백 (이름표 자리) */

  function dot(a, b) { return a[0] * b[0] + a[1] * b[1]; }

  /* 쿼리 하나와 키들 → 점수, 나눈 점수, 가중치, 나누지 않았을 때의 가중치 */
  function compute(q, keys, dK) {
    var scores = keys.map(function (k) { return dot(q, k); });
    var scaled = scores.map(function (s) { return s / Math.sqrt(dK); });
    return { scores: scores, scaled: scaled, weights: softmax(scaled), raw: softmax(scores) };
  }

  function best(weights) { return weights.indexOf(Math.max.apply(null, weights)); }

  /* 소수 둘째 자리까지. -0.00 은 0.00 으로 */
  function two(x) {
    var t = x.toFixed(2);
    return t === "-0.00" ? "0.00" : t;
  }
  function one(x) {
    var t = x.toFixed(1);
    return t === "-0.0" ? "0.0" : t;
  }
  function coords(p) { return "(" + one(p[0]) + ", " + one(p[1]) + ")"; }

  /* ------------------------------------------------------------ 그리기 */

  /* 평면(SVG): 0.5 칸마다 눈금, 축은 진하게, 쿼리의 방향을 잇는 점선 */
  function drawPlane(data) {
    var limit = data.limit, box = -limit - PAD, size = 2 * (limit + PAD);
    var picture = svg("svg", { viewBox: [box, box, size, size].join(" "), "class": "qk-picture__plane",
                               role: "group", "aria-label": data.plane_label });
    var grid = svg("g", { "class": "qk-picture__grid", "aria-hidden": "true" });
    for (var g = -limit; g <= limit + 1e-9; g += 0.5) {
      var major = Math.abs(g) < 1e-9;
      grid.appendChild(svg("line", { x1: g, y1: -limit, x2: g, y2: limit, "class": major ? "is-axis" : "" }));
      grid.appendChild(svg("line", { x1: -limit, y1: g, x2: limit, y2: g, "class": major ? "is-axis" : "" }));
    }
    picture.appendChild(grid);
    /* 이 선에 가까운 키일수록 "같은 방향" 입니다 */
    var guide = svg("line", { "class": "qk-picture__guide", "aria-hidden": "true" });
    picture.appendChild(guide);
    return { picture: picture, guide: guide, box: box };
  }

  /* 벡터마다 화살, 이름표, 끝점(슬라이더 역할). 화살은 쿼리를 맨 아래에 (같은 쪽의 키가 쿼리 위로 보이게),
     끝점은 쿼리를 맨 위에 (겹치면 쿼리를 잡습니다) 둡니다. */
  function drawVectors(picture, names, limit, hintId) {
    var arrows = [], labels = [], handles = [];
    names.forEach(function (name, i) {
      var color = "var(--qk-" + i + ")";
      arrows.push(svg("line", { x1: 0, y1: 0, "class": "qk-picture__arrow" + (i === 0 ? " is-query" : ""),
                                stroke: color, "aria-hidden": "true" }));
      var label = svg("text", { "class": "qk-picture__name", fill: color, "aria-hidden": "true" });
      label.textContent = name;
      labels.push(label);
      var handle = svg("g", {
        "class": "qk-picture__handle", tabindex: "0", role: "slider", "data-index": String(i),
        "aria-label": (i === 0 ? "쿼리 " : "키 ") + name + "의 끝점", "aria-describedby": hintId,
        "aria-valuemin": String(-limit), "aria-valuemax": String(limit)
      });
      handle.appendChild(svg("circle", { r: 0.2, "class": "qk-picture__hit" }));
      handle.appendChild(svg("circle", { r: 0.15, "class": "qk-picture__ring" }));
      handle.appendChild(svg("circle", { r: 0.085, "class": "qk-picture__dot", fill: color }));
      handles.push(handle);
    });
    arrows.forEach(function (a) { picture.appendChild(a); });
    labels.forEach(function (l) { picture.appendChild(l); });
    for (var j = names.length - 1; j >= 0; j--) picture.appendChild(handles[j]);
    return { arrows: arrows, labels: labels, handles: handles };
  }

  /* 키마다 한 행: 점수, 나눈 점수, 가중치(막대), 나누지 않은 가중치(막대). 칸은 {td, text, bar} */
  function drawTable(data) {
    var table = el("table", { "class": "qk-picture__table" });
    var head = el("tr"), thead = el("thead"), tbody = el("tbody");
    data.columns.forEach(function (c) { head.appendChild(el("th", { scope: "col" }, c)); });
    thead.appendChild(head);
    table.appendChild(thead);
    var cells = data.names.map(function (name, i) {
      var tr = el("tr"), th = el("th", { scope: "row" }), row = {};
      th.appendChild(el("span", { "class": "qk-picture__swatch", style: "background: var(--qk-" + (i + 1) + ")",
                                  "aria-hidden": "true" }));
      th.appendChild(document.createTextNode(name));
      tr.appendChild(th);
      ["score", "scaled", "weight", "raw"].forEach(function (key) {
        var td = el("td", { "data-key": key });
        if (key === "weight" || key === "raw") {
          var bar = el("span", { "class": "qk-picture__bar" + (key === "raw" ? " is-raw" : ""), "aria-hidden": "true" });
          var text = el("span", { "class": "qk-picture__value" });
          td.appendChild(bar);
          td.appendChild(text);
          row[key] = { td: td, bar: bar, text: text };
        } else {
          row[key] = { td: td, text: td };
        }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
      return row;
    });
    table.appendChild(tbody);
    return { table: table, cells: cells };
  }

  /* ------------------------------------------------------------ 다시 그리기 */

  /* 화살 끝, 끝점의 자리와 슬라이더 값, 이름표(끝점 바깥쪽, 그림 안으로) */
  function renderVectors(view, points, names) {
    var edge = -view.box - 0.15;
    points.forEach(function (p, i) {
      view.arrows[i].setAttribute("x2", p[0]);
      view.arrows[i].setAttribute("y2", -p[1]);
      var handle = view.handles[i];
      handle.setAttribute("transform", "translate(" + p[0] + " " + (-p[1]) + ")");
      handle.setAttribute("data-x", String(p[0]));
      handle.setAttribute("data-y", String(p[1]));
      handle.setAttribute("aria-valuenow", String(p[0]));
      handle.setAttribute("aria-valuetext", names[i] + " = " + coords(p));
      var len = Math.hypot(p[0], p[1]);
      var ux = len > 1e-9 ? p[0] / len : 0.7071, uy = len > 1e-9 ? p[1] / len : 0.7071;
      view.labels[i].setAttribute("x", Math.max(-edge, Math.min(edge, p[0] + ux * 0.32)));
      view.labels[i].setAttribute("y", -Math.max(-edge, Math.min(edge, p[1] + uy * 0.32)) + 0.08);
    });
  }

  /* 쿼리 방향의 점선: 그림 끝에서 끝까지. 쿼리가 0 이면 숨깁니다. */
  function renderGuide(guide, q, limit) {
    var qlen = Math.hypot(q[0], q[1]);
    if (qlen <= 1e-9) { guide.setAttribute("visibility", "hidden"); return; }
    var far = (limit * 2) / qlen;
    guide.setAttribute("x1", -q[0] * far); guide.setAttribute("y1", q[1] * far);
    guide.setAttribute("x2", q[0] * far); guide.setAttribute("y2", -q[1] * far);
    guide.removeAttribute("visibility");
  }

  /* 표의 숫자(소수 둘째 자리, data-value 에는 17자리)와 막대, 가중치가 가장 큰 행 */
  function renderTable(cells, r) {
    var top = best(r.weights);
    cells.forEach(function (row, i) {
      var values = { score: r.scores[i], scaled: r.scaled[i], weight: r.weights[i], raw: r.raw[i] };
      Object.keys(values).forEach(function (key) {
        var cell = row[key];
        cell.text.textContent = two(values[key]);
        cell.td.setAttribute("data-value", values[key].toPrecision(17));
        if (cell.bar) cell.bar.style.width = (100 * values[key]).toFixed(1) + "%";
      });
      row.weight.td.parentNode.classList.toggle("is-best", i === top);
    });
    return top;
  }

  function render(view, state) {
    var q = state.points[0], r = compute(q, state.points.slice(1), state.data.d_k);
    renderVectors(view, state.points, state.names);
    renderGuide(view.guide, q, state.data.limit);
    view.where.textContent = "";
    state.points.forEach(function (p, i) { view.where.appendChild(el("span", {}, state.names[i] + " " + coords(p))); });
    view.root.setAttribute("data-best", state.data.names[renderTable(view.cells, r)]);
  }

  /* 움직임이 멈추고 0.4초 뒤 지금 상태를 한 문단으로 알립니다 (화면 읽기 프로그램) */
  function announcer(view, state) {
    var timer = null;
    return function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        var names = state.data.names, r = compute(state.points[0], state.points.slice(1), state.data.d_k);
        var parts = ["q " + coords(state.points[0]) + "."];
        names.forEach(function (name, i) {
          parts.push(name + " " + coords(state.points[i + 1]) + ": 점수 " + two(r.scores[i]) + ", 나눈 점수 " +
                     two(r.scaled[i]) + ", 가중치 " + two(r.weights[i]) + ".");
        });
        parts.push("가중치가 가장 큰 키는 " + names[best(r.weights)] + "입니다.");
        view.live.textContent = parts.join(" ");
      }, 400);
    };
  }

  /* ------------------------------------------------------------ 움직이기 */

  /* 눈금(step)에 맞추고 평면 안(±limit)으로. 0.30000000000000004 같은 꼬리를 지웁니다. */
  function snap(v, data) {
    var s = Math.round(v / data.step) * data.step;
    s = Math.max(-data.limit, Math.min(data.limit, s));
    return Math.round(s * 1e6) / 1e6;
  }

  /* 화면의 (clientX, clientY) → 평면의 (x, y) */
  function toPlane(picture, event) {
    var m = picture.getScreenCTM();
    if (!m) return null;
    var p = picture.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    var local = p.matrixTransform(m.inverse());
    return [local.x, -local.y];
  }

  /* 손가락·마우스로 끌기. Chromium 은 SVG 안의 <g> 에 준 touch-action 을 보지 않아서, 끝점에서 시작한 터치는
     touchstart·touchmove 를 취소해(passive: false) 페이지가 스크롤되지 않게 합니다. 그림의 빈 곳과 페이지의 다른
     곳은 그대로 스크롤됩니다 (그림 전체는 touch-action: pan-y, hands-on.css). */
  function attachDrag(handle, i, view, state) {
    function still(event) { if (event.cancelable) event.preventDefault(); }
    handle.addEventListener("touchstart", still, { passive: false });
    handle.addEventListener("touchmove", still, { passive: false });
    handle.addEventListener("pointerdown", function (event) {
      if (event.button !== undefined && event.button !== 0) return;
      event.preventDefault();
      handle.focus({ preventScroll: true });
      handle.setPointerCapture(event.pointerId);
      handle.classList.add("is-dragging");
    });
    handle.addEventListener("pointermove", function (event) {
      if (!handle.hasPointerCapture(event.pointerId)) return;
      var p = toPlane(view.picture, event);
      if (p) state.place(i, p[0], p[1]);
    });
    function end(event) {
      if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
      handle.classList.remove("is-dragging");
      state.announce();
    }
    handle.addEventListener("pointerup", end);
    handle.addEventListener("pointercancel", end);
  }

  /* 화살표 키로 한 칸씩, Shift 와 함께 다섯 칸씩 */
  function attachKeys(handle, i, state) {
    handle.addEventListener("keydown", function (event) {
      var d = event.shiftKey ? 5 * state.data.step : state.data.step;
      var moves = { ArrowLeft: [-d, 0], ArrowRight: [d, 0], ArrowUp: [0, d], ArrowDown: [0, -d] };
      var move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      state.place(i, state.points[i][0] + move[0], state.points[i][1] + move[1]);
      state.announce();
    });
  }

  /* ------------------------------------------------------------ 조립 */

  /* 제목, 안내, 그림, 좌표 줄, 표, 설명, "처음 위치로" 단추, 알림 자리를 차례로 붙이고 화면 요소들(view)을 돌려줍니다. */
  function layout(root, data, names) {
    var id = "qk-" + Math.random().toString(36).slice(2, 8);
    root.textContent = "";
    root.appendChild(el("p", { "class": "qk-picture__title" }, data.title));
    root.appendChild(el("p", { "class": "qk-picture__hint", id: id + "-hint" }, data.hint));
    var plane = drawPlane(data), vectors = drawVectors(plane.picture, names, data.limit, id + "-hint");
    var frame = el("div", { "class": "qk-picture__frame" });
    frame.appendChild(plane.picture);
    root.appendChild(frame);
    var where = el("p", { "class": "qk-picture__where" });
    root.appendChild(where);
    var table = drawTable(data);
    root.appendChild(table.table);
    root.appendChild(el("p", { "class": "qk-picture__note" }, data.note));
    var controls = el("div", { "class": "qk-picture__controls" });
    var reset = el("button", { type: "button", "class": "md-button" }, "처음 위치로");
    controls.appendChild(reset);
    root.appendChild(controls);
    var live = el("p", { "class": "qk-picture__sr", "aria-live": "polite" });
    root.appendChild(live);
    return { root: root, picture: plane.picture, guide: plane.guide, box: plane.box, arrows: vectors.arrows,
             labels: vectors.labels, handles: vectors.handles, where: where, cells: table.cells, reset: reset, live: live };
  }

  function build(root, data) {
    var names = ["q"].concat(data.names), start = [data.q].concat(data.keys);
    var copy = function () { return start.map(function (p) { return p.slice(); }); };
    var view = layout(root, data, names);
    var state = { data: data, names: names, points: copy() };
    var pending = false;
    /* 한 프레임에 한 번만 다시 그립니다 */
    function later() {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; render(view, state); });
    }
    state.place = function (i, x, y) { state.points[i] = [snap(x, data), snap(y, data)]; later(); };
    state.announce = announcer(view, state);
    view.handles.forEach(function (handle, i) {
      attachDrag(handle, i, view, state);
      attachKeys(handle, i, state);
    });
    view.reset.addEventListener("click", function () {
      state.points = copy();
      later();
      state.announce();
    });
    render(view, state);
    view.live.textContent = "";
  }

  function init() {
    common.mountAll(".qk-picture[data-src]", build, "그림 데이터를 읽지 못했습니다");
  }

  window.qkPicture = { compute: compute, softmax: softmax };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
