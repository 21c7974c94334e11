/* 2장 ① 의 움직이는 q·k 그림: 2차원 쿼리 q 와 키 셋을 끌면 내적 q·k, √d_k 로 나눈 점수, 소프트맥스 가중치가 바로 바뀝니다.
 *
 * 페이지에 <div class="qk-picture" data-src="../data/four_steps-qk_picture.json"></div> 를 두면, 이 스크립트가 빌드 때
 * 스니펫(four_steps.py 의 data_qk_picture)이 만든 JSON(처음 위치, d_k, 눈금)을 읽어 그림과 표를 그립니다. 계산은
 * 코어(snippets/attention.py)의 scaled_dot_product_attention 과 같은 순서입니다: 내적, √d_k 로 나누기, 최댓값을 뺀
 * 소프트맥스. 그 숫자가 numpy 코어와 같다는 것은 tests/test_predict_browser.py 가 확인합니다.
 * 끝점은 손가락·마우스로 끌거나, 끝점에 초점을 두고 화살표 키로 움직입니다 (Shift 를 함께 누르면 다섯 칸씩).
 * 화면 읽기 프로그램에는 움직임이 멈출 때 지금 상태를 한 문단으로 알립니다 (aria-live).
 * 사이트 스크립트(docs/assets/site.js)가 독자가 그림 가까이 내려올 때 이 파일을 붙입니다. 프레임워크 없는 JavaScript 입니다.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";

  function dot(a, b) { return a[0] * b[0] + a[1] * b[1]; }

  /* 코어와 같은 소프트맥스: 최댓값을 빼고 지수를 취해 합으로 나눕니다. */
  function softmax(row) {
    var max = Math.max.apply(null, row);
    var exps = row.map(function (v) { return Math.exp(v - max); });
    var sum = exps.reduce(function (a, b) { return a + b; }, 0);
    return exps.map(function (e) { return e / sum; });
  }

  /* 쿼리 하나와 키들 → 점수, 나눈 점수, 가중치, 나누지 않았을 때의 가중치 */
  function compute(q, keys, dK) {
    var scores = keys.map(function (k) { return dot(q, k); });
    var scaled = scores.map(function (s) { return s / Math.sqrt(dK); });
    return { scores: scores, scaled: scaled, weights: softmax(scaled), raw: softmax(scores) };
  }

  /* 소수 둘째 자리까지. -0.00 은 0.00 으로 */
  function two(x) {
    var t = x.toFixed(2);
    return t === "-0.00" ? "0.00" : t;
  }
  function one(x) {
    var t = x.toFixed(1);
    return t === "-0.0" ? "0.0" : t;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  function build(root, data) {
    var dK = data.d_k, limit = data.limit, step = data.step;
    var names = ["q"].concat(data.names);
    var start = [data.q].concat(data.keys);
    var points = start.map(function (p) { return p.slice(); });
    var id = "qk-" + Math.random().toString(36).slice(2, 8);
    var pad = 0.45;  /* 그림 둘레의 여백 (이름표 자리) */

    root.textContent = "";
    root.appendChild(el("p", { "class": "qk-picture__title" }, data.title));
    root.appendChild(el("p", { "class": "qk-picture__hint", id: id + "-hint" }, data.hint));

    var box = -limit - pad, size = 2 * (limit + pad);
    var picture = svg("svg", { viewBox: [box, box, size, size].join(" "), "class": "qk-picture__plane",
                               role: "group", "aria-label": data.plane_label });
    var grid = svg("g", { "class": "qk-picture__grid", "aria-hidden": "true" });
    for (var g = -limit; g <= limit + 1e-9; g += 0.5) {
      var major = Math.abs(g) < 1e-9;
      grid.appendChild(svg("line", { x1: g, y1: -limit, x2: g, y2: limit, "class": major ? "is-axis" : "" }));
      grid.appendChild(svg("line", { x1: -limit, y1: g, x2: limit, y2: g, "class": major ? "is-axis" : "" }));
    }
    picture.appendChild(grid);
    /* 쿼리의 방향을 잇는 점선: 이 선에 가까운 키일수록 "같은 방향" 입니다 */
    var guide = svg("line", { "class": "qk-picture__guide", "aria-hidden": "true" });
    picture.appendChild(guide);

    var arrows = [], labels = [], handles = [];
    names.forEach(function (name, i) {
      var color = "var(--qk-" + i + ")";
      var line = svg("line", { x1: 0, y1: 0, "class": "qk-picture__arrow" + (i === 0 ? " is-query" : ""),
                               stroke: color, "aria-hidden": "true" });
      var label = svg("text", { "class": "qk-picture__name", fill: color, "aria-hidden": "true" });
      label.textContent = name;
      var handle = svg("g", {
        "class": "qk-picture__handle", tabindex: "0", role: "slider", "data-index": String(i),
        "aria-label": (i === 0 ? "쿼리 " : "키 ") + name + "의 끝점", "aria-describedby": id + "-hint",
        "aria-valuemin": String(-limit), "aria-valuemax": String(limit)
      });
      handle.appendChild(svg("circle", { r: 0.2, "class": "qk-picture__hit" }));
      handle.appendChild(svg("circle", { r: 0.15, "class": "qk-picture__ring" }));
      handle.appendChild(svg("circle", { r: 0.085, "class": "qk-picture__dot", fill: color }));
      arrows.push(line);
      labels.push(label);
      handles.push(handle);
    });
    /* 화살은 쿼리를 맨 아래에 (같은 쪽의 키가 쿼리 위로 보이게), 끝점은 쿼리를 맨 위에 (겹치면 쿼리를 잡습니다) */
    arrows.forEach(function (a) { picture.appendChild(a); });
    labels.forEach(function (l) { picture.appendChild(l); });
    for (var j = names.length - 1; j >= 0; j--) picture.appendChild(handles[j]);
    var frame = el("div", { "class": "qk-picture__frame" });
    frame.appendChild(picture);
    root.appendChild(frame);

    var where = el("p", { "class": "qk-picture__where" });
    root.appendChild(where);

    var table = el("table", { "class": "qk-picture__table" });
    var head = el("tr");
    data.columns.forEach(function (c, k) { head.appendChild(el("th", { scope: "col" }, c)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = el("tbody");
    var cells = data.names.map(function (name, i) {
      var tr = el("tr");
      var th = el("th", { scope: "row" });
      th.appendChild(el("span", { "class": "qk-picture__swatch", style: "background: var(--qk-" + (i + 1) + ")",
                                  "aria-hidden": "true" }));
      th.appendChild(document.createTextNode(name));
      tr.appendChild(th);
      var row = {};
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
    root.appendChild(table);
    root.appendChild(el("p", { "class": "qk-picture__note" }, data.note));

    var controls = el("div", { "class": "qk-picture__controls" });
    var reset = el("button", { type: "button", "class": "md-button" }, "처음 위치로");
    controls.appendChild(reset);
    root.appendChild(controls);
    var live = el("p", { "class": "qk-picture__sr", "aria-live": "polite" });
    root.appendChild(live);

    function coords(p) { return "(" + one(p[0]) + ", " + one(p[1]) + ")"; }

    function render() {
      var q = points[0], keys = points.slice(1);
      var r = compute(q, keys, dK);
      points.forEach(function (p, i) {
        arrows[i].setAttribute("x2", p[0]);
        arrows[i].setAttribute("y2", -p[1]);
        handles[i].setAttribute("transform", "translate(" + p[0] + " " + (-p[1]) + ")");
        handles[i].setAttribute("data-x", String(p[0]));
        handles[i].setAttribute("data-y", String(p[1]));
        handles[i].setAttribute("aria-valuenow", String(p[0]));
        handles[i].setAttribute("aria-valuetext", names[i] + " = " + coords(p));
        var len = Math.hypot(p[0], p[1]);
        var ux = len > 1e-9 ? p[0] / len : 0.7071, uy = len > 1e-9 ? p[1] / len : 0.7071;
        var lx = Math.max(box + 0.15, Math.min(-box - 0.15, p[0] + ux * 0.32));
        var ly = Math.max(box + 0.15, Math.min(-box - 0.15, p[1] + uy * 0.32));
        labels[i].setAttribute("x", lx);
        labels[i].setAttribute("y", -ly + 0.08);
      });
      var qlen = Math.hypot(q[0], q[1]);
      if (qlen > 1e-9) {
        var far = (limit * 2) / qlen;
        guide.setAttribute("x1", -q[0] * far); guide.setAttribute("y1", q[1] * far);
        guide.setAttribute("x2", q[0] * far); guide.setAttribute("y2", -q[1] * far);
        guide.removeAttribute("visibility");
      } else {
        guide.setAttribute("visibility", "hidden");
      }
      where.textContent = "";
      points.forEach(function (p, i) { where.appendChild(el("span", {}, names[i] + " " + coords(p))); });
      var best = r.weights.indexOf(Math.max.apply(null, r.weights));
      cells.forEach(function (row, i) {
        var values = { score: r.scores[i], scaled: r.scaled[i], weight: r.weights[i], raw: r.raw[i] };
        Object.keys(values).forEach(function (key) {
          var cell = row[key];
          cell.text.textContent = two(values[key]);
          cell.td.setAttribute("data-value", values[key].toPrecision(17));
          if (cell.bar) cell.bar.style.width = (100 * values[key]).toFixed(1) + "%";
        });
        row.weight.td.parentNode.classList.toggle("is-best", i === best);
      });
      root.setAttribute("data-best", data.names[best]);
      return r;
    }

    var announceTimer = null;
    function announce() {
      window.clearTimeout(announceTimer);
      announceTimer = window.setTimeout(function () {
        var r = compute(points[0], points.slice(1), dK);
        var best = r.weights.indexOf(Math.max.apply(null, r.weights));
        var parts = ["q " + coords(points[0]) + "."];
        data.names.forEach(function (name, i) {
          parts.push(name + " " + coords(points[i + 1]) + ": 점수 " + two(r.scores[i]) + ", 나눈 점수 " +
                     two(r.scaled[i]) + ", 가중치 " + two(r.weights[i]) + ".");
        });
        parts.push("가중치가 가장 큰 키는 " + data.names[best] + "입니다.");
        live.textContent = parts.join(" ");
      }, 400);
    }

    var pending = false;
    function later() {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; render(); });
    }

    function snap(v) {
      var s = Math.round(v / step) * step;
      s = Math.max(-limit, Math.min(limit, s));
      return Math.round(s * 1e6) / 1e6;  /* 0.30000000000000004 같은 꼬리를 지웁니다 */
    }
    function place(i, x, y) {
      points[i] = [snap(x), snap(y)];
      later();
    }

    function toPlane(event) {
      var m = picture.getScreenCTM();
      if (!m) return null;
      var p = picture.createSVGPoint();
      p.x = event.clientX;
      p.y = event.clientY;
      var local = p.matrixTransform(m.inverse());
      return [local.x, -local.y];
    }

    handles.forEach(function (handle, i) {
      handle.addEventListener("pointerdown", function (event) {
        if (event.button !== undefined && event.button !== 0) return;
        event.preventDefault();
        handle.focus({ preventScroll: true });
        handle.setPointerCapture(event.pointerId);
        handle.classList.add("is-dragging");
      });
      handle.addEventListener("pointermove", function (event) {
        if (!handle.hasPointerCapture(event.pointerId)) return;
        var p = toPlane(event);
        if (p) place(i, p[0], p[1]);
      });
      function end(event) {
        if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
        handle.classList.remove("is-dragging");
        announce();
      }
      handle.addEventListener("pointerup", end);
      handle.addEventListener("pointercancel", end);
      handle.addEventListener("keydown", function (event) {
        var d = event.shiftKey ? 5 * step : step;
        var moves = { ArrowLeft: [-d, 0], ArrowRight: [d, 0], ArrowUp: [0, d], ArrowDown: [0, -d] };
        var move = moves[event.key];
        if (!move) return;
        event.preventDefault();
        place(i, points[i][0] + move[0], points[i][1] + move[1]);
        announce();
      });
    });
    reset.addEventListener("click", function () {
      points = start.map(function (p) { return p.slice(); });
      later();
      announce();
    });

    render();
    live.textContent = "";
  }

  function init() {
    document.querySelectorAll(".qk-picture[data-src]").forEach(function (root) {
      var state = root.getAttribute("data-ready");
      if (state === "loading" || state === "yes") return;
      root.setAttribute("data-ready", "loading");
      fetch(root.getAttribute("data-src"))
        .then(function (r) {
          if (!r.ok) throw new Error(r.status + " " + r.statusText);
          return r.json();
        })
        .then(function (data) { build(root, data); root.setAttribute("data-ready", "yes"); })
        .catch(function (err) {
          root.setAttribute("data-ready", "error");
          root.textContent = "그림 데이터를 읽지 못했습니다: " + err.message;
        });
    });
  }

  window.qkPicture = { compute: compute, softmax: softmax };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
