/* 2장의 "실제 모델에서 쿼리 하나 따라가기": 실제 모델의 쿼리 하나가 어텐션의 네 단계를 지나는 모습을 한 걸음씩 보입니다.
 *
 * 페이지에 <div class="journey" data-src="../data/journey-e5.json"></div> 를 두면, 이 스크립트가 빌드 때 스니펫
 * (snippets/chapters/journey.py 의 data_e5)이 만든 JSON 을 읽어 그립니다: multilingual-e5-small 의 한 헤드에서 쿼리 하나의 q 와
 * 문장의 모든 토큰의 k, v (float32 그대로), 그리고 그림의 두 축(2차원으로 줄이는 방법은 스니펫의 설명).
 * 숫자는 모두 여기서 float32 값을 float64 로 계산합니다: 내적, √d_k 로 나누기, 최댓값을 뺀 소프트맥스, 가중합.
 * 그 숫자가 numpy 코어와 같다는 것은 tests/test_journey_browser.py 가 확인합니다 (숫자마다 data-value 에 전체 값).
 *
 * 시간 t 는 0(준비)에서 4(④ 가중합)까지이고, 화면은 t 만의 함수입니다 (draw). 재생·멈춤·한 단계·처음으로 단추와 막대
 * (input range)로 t 를 움직이고, 막대는 화살표 키로 한 단계씩 옮깁니다. prefers-reduced-motion 이면 움직이는 그림 없이
 * 단계만 바뀝니다. 숫자는 그 단계에 다다랐을 때만 나타나므로, 화면에 보이는 숫자는 언제나 참값입니다 (그림만 사이를 잇습니다).
 *
 * 사이트 스크립트(docs/assets/site.js)가 이 페이지의 도구들 가운데 하나에 독자가 다가오면 이 파일을 붙입니다. 이 파일은
 * 데이터를 받고 그리는 일을 제 상자 가까이(한 화면 앞) 올 때까지 미룹니다 (whenNear). 프레임워크 없는 JavaScript 입니다.
 */
(function () {
  "use strict";

  var FORMAT = "journey/1";
  var common = window.attentionExplorers;  /* 공통 도구 (explorer-common.js, 이 파일보다 먼저 붙습니다) */
  var el = common.el, svg = common.svg, softmax = common.softmax;
  var LAST = 4;  // 단계: 0 준비, 1 내적, 2 ÷√d_k, 3 소프트맥스, 4 가중합
  var PACE = [3200, 1200, 1600, 3200];  // 단계마다 재생에 드는 시간 (ms)
  var DWELL = 700;  // 재생 중 단계마다 멈춰 읽을 시간 (ms)
  var STILL_STEP = 2500;  // 움직임을 줄인 화면에서 재생이 단계를 넘기는 간격 (ms)
  var EPS = 1e-9;
  var W = 320, PAD = 22;  // 그림의 폭(viewBox 단위)과 둘레의 여백

  /* ---- 숫자 ------------------------------------------------------------------------------------- */

  function dot(a, b) {
    var s = 0;
    for (var i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }
  function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); }

  /* 소수점 아래 digits 자리. -0.00 은 0.00 으로 */
  function fixed(x, digits) {
    var s = x.toFixed(digits);
    return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
  }

  /* JSON 의 수 → float32 값 그대로의 float64 (스니펫은 float32 로 되읽으면 같은 값이 되는 가장 짧은 글자로 적습니다). */
  function f32(list) { return list.map(Math.fround); }

  /* 데이터 → 네 단계의 모든 수. 화면에 찍는 수는 모두 여기서 나옵니다. */
  function compute(data) {
    var q = f32(data.q), K = data.k.map(f32), V = data.v.map(f32), n = K.length;
    var qLen = Math.sqrt(dot(q, q)), sqrtD = Math.sqrt(data.d_k);
    var scores = K.map(function (k) { return dot(q, k); });
    var scaled = scores.map(function (s) { return s / sqrtD; });
    var weights = softmax(scaled);
    var out = q.map(function (_, d) {
      var s = 0;
      for (var j = 0; j < n; j++) s += weights[j] * V[j][d];
      return s;
    });
    var oLen = Math.sqrt(dot(out, out));
    var oDir = out.map(function (x) { return x / oLen; });
    var order = weights.map(function (_, j) { return j; }).sort(function (a, b) { return weights[b] - weights[a]; });
    return {
      n: n, q: q, K: K, V: V, qLen: qLen, sqrtD: sqrtD, scores: scores, scaled: scaled, weights: weights,
      shadows: scores.map(function (s) { return s / qLen; }),
      parts: V.map(function (v, j) { return weights[j] * dot(v, oDir); }),
      wSum: weights.reduce(function (a, b) { return a + b; }, 0),
      out: out, oLen: oLen, order: order, top: order[0], second: order[1],
      maxScore: Math.max.apply(null, scores.map(Math.abs))
    };
  }

  /* 글의 {이름} 자리에 넣을 값: [수, 자리수] 또는 글자. 이름은 스니펫(journey.py 의 STAGES, TEXT)과 같습니다. */
  /* 글의 {이름} 자리에 채울 값. focus 는 독자가 고른 키(① 을 지나는 동안에는 그림자를 내리는 키): ③ 은 그 키를 1등과
     (고른 키가 1등이면 둘째와) 견주고, ④ 는 그 키에서 온 몫을 말합니다. */
  function values(jo, focus) {
    var d = jo.data, m = jo.m, top = focus === m.top;
    var other = top ? m.second : m.top, gap = Math.abs(m.scaled[focus] - m.scaled[other]);
    return {
      model: d.model, n: [m.n, 0], layer: [d.layer, 0], head: [d.head, 0], layers: [d.layers, 0], heads: [d.heads, 0],
      d_k: [d.d_k, 0], sentence: d.sentence, focus: quoted(d.tokens[focus]),
      shadow: [m.shadows[focus], 2], q_len: [m.qLen, 2], score: [m.scores[focus], 2], sqrt_d: [m.sqrtD, 2],
      top: quoted(d.tokens[m.top]), second: quoted(d.tokens[m.second]), gap: [gap, 2], ratio: [Math.exp(gap), 1],
      other: (top ? "둘째인 " : "1등인 ") + quoted(d.tokens[other]), differ: top ? "크고" : "작고",
      times: top ? "배" : "분의 1", weight: [m.weights[focus], 3], part: [m.parts[focus], 3],
      w_sum: [m.wSum, 3], o_len: [m.oLen, 3], top_part: [m.parts[m.top], 3]
    };
  }
  function quoted(token) { return "“" + token + "”"; }

  /* 토큰 이름: SentencePiece 의 ▁(띄어쓰기 자리)는 흐리게. ▁ 하나뿐인 토큰은 그대로 진하게 둡니다. */
  var SPACE = "\u2581";
  function tokenNode(token) {
    var span = el("span", { "class": "journey__token" });
    if (token.length > 1 && token.charAt(0) === SPACE) {
      span.appendChild(el("span", { "class": "journey__space" }, SPACE));
      token = token.slice(1);
    }
    span.appendChild(document.createTextNode(token));
    return span;
  }

  /* ---- 그림의 좌표 ---------------------------------------------------------------------------------- */

  /* 벡터들 → 그림의 두 축(데이터의 axes)에 내린 좌표 [x, y] */
  function project(vectors, axes) {
    return vectors.map(function (v) { return [dot(v, axes[0]), dot(v, axes[1])]; });
  }

  /* 점들을 폭 W 의 그림에 넣는 방법: 회전(그림이 덜 길쭉하도록 5° 간격에서 고름)과 배율. 회전과 같은 배율은 길이와
     각을 바꾸지 않으므로, 그림자(수선의 발까지의 길이)도 그대로입니다. height 를 주면 그 높이의 가운데에 둡니다
     (키 그림과 밸류 그림의 높이를 같게 해, 그림이 바뀔 때 아래의 글이 움직이지 않게). */
  function fit(points, height, turn) {
    var best = null;
    for (var deg = turn[0]; deg <= turn[1]; deg += 5) {
      var a = deg * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
      var xs = points.map(function (p) { return c * p[0] - s * p[1]; });
      var ys = points.map(function (p) { return s * p[0] + c * p[1]; });
      var box = [Math.min.apply(null, xs), Math.min.apply(null, ys), Math.max.apply(null, xs), Math.max.apply(null, ys)];
      var w = box[2] - box[0], h = box[3] - box[1], cost = Math.max(w, 1.25 * h);
      if (!best || cost < best.cost - 1e-9) best = { cost: cost, c: c, s: s, box: box, w: w, h: h };
    }
    var scale = (W - 2 * PAD) / Math.max(best.w, 1e-9);
    var natural = best.h * scale + 2 * PAD;
    height = Math.max(height || natural, natural);
    var shift = (height - natural) / 2;
    return {
      height: height,
      at: function (p) {
        var x = best.c * p[0] - best.s * p[1], y = best.s * p[0] + best.c * p[1];
        return [PAD + (x - best.box[0]) * scale, PAD + shift + (best.box[3] - y) * scale];
      }
    };
  }

  function lerp(a, b, f) { return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]; }

  /* 키 그림과 밸류 그림에 쓸 2차원 좌표 (한 번만 계산합니다) */
  function geometry(jo) {
    var d = jo.data, m = jo.m;
    var keys = project(m.K, d.key_axes), q = project([m.q], d.key_axes)[0];
    var feet = keys.map(function (k) { return [k[0], 0]; });
    var vals = project(m.V, d.value_axes), o = project([m.out], d.value_axes)[0];
    var tips = [[0, 0]];  // 가중치가 큰 밸류부터 이어 붙인 끝점들
    m.order.forEach(function (j) {
      var t = tips[tips.length - 1];
      tips.push([t[0] + m.weights[j] * vals[j][0], t[1] + m.weights[j] * vals[j][1]]);
    });
    var reach = Math.max.apply(null, feet.map(function (f) { return Math.abs(f[0]); }).concat([q[0]])) * 1.08;
    var keyPoints = [[0, 0], q, [reach, 0]].concat(keys, feet), valuePoints = [[0, 0], o].concat(vals, tips);
    // 돌리는 범위: 첫 축(q, o 의 방향)이 오른쪽을 향하게. 키는 모두 q 의 한쪽에 있어 더 돌려야 덜 길쭉합니다.
    var keyTurn = [-60, 30], valueTurn = [-20, 20];
    var height = Math.max(fit(keyPoints, 0, keyTurn).height, fit(valuePoints, 0, valueTurn).height, 160);
    return {
      q: q, keys: keys, feet: feet, vals: vals, o: o, tips: tips, reach: reach,
      keyView: fit(keyPoints, height, keyTurn), valueView: fit(valuePoints, height, valueTurn)
    };
  }

  /* ---- 화면 조각 --------------------------------------------------------------------------------- */

  /* 글(template)의 {이름} 자리를 vals 로 채워 node 에 넣습니다. 수는 <span data-name data-value> 로: 테스트가 numpy 와
     견주는 자리입니다. 글자만 바뀌면 다시 쓰지 않습니다 (재생 중 매 프레임 부릅니다). */
  function fill(node, template, vals) {
    var key = filled(template, vals);
    if (node.journeyText === key) return;
    node.journeyText = key;
    node.textContent = "";
    var text = "";  // 이어진 글 조각들 (값의 글자 “에” 와 뒤의 "이고" 를 한 덩어리로 보고 묶습니다)
    template.split(/(\{[a-z_]+\})/).forEach(function (part) {
      var name = /^\{([a-z_]+)\}$/.exec(part);
      if (!name) { text += part; return; }
      var v = vals[name[1]];
      if (v === undefined) throw new Error("글의 자리 {" + name[1] + "} 에 값이 없습니다");
      if (typeof v === "string") { text += v; return; }
      glue(node, text);
      text = "";
      node.appendChild(el("span", { "class": "journey__num", "data-name": name[1], "data-value": v[0].toPrecision(17) },
                          fixed(v[0], v[1])));
    });
    glue(node, text);
  }

  /* 닫는 따옴표·괄호 바로 뒤에 붙은 한글(조사)을 그 앞 글자와 함께 <span class="glue"> 로 묶어 node 에 붙입니다.
     브라우저는 keep-all 에서도 닫는 글자 뒤를 줄바꿈 자리로 봐서 "“에”⏎이고" 처럼 조사가 혼자 줄 맨 앞에 떨어집니다.
     빌드가 본문에 하는 일(overrides/hooks/sitebuild/glue.py 의 _ATTACHED)과 같은 규칙, 같은 클래스(site.css 의 .glue)입니다. */
  var ATTACHED = /[^\s)\]}〉》」』】”’"'%‰][)\]}〉》」』】”’"'%‰]+[가-힣]+/g;
  function glue(node, text) {
    var last = 0, m;
    ATTACHED.lastIndex = 0;
    while ((m = ATTACHED.exec(text)) !== null) {
      if (m.index > last) node.appendChild(document.createTextNode(text.slice(last, m.index)));
      node.appendChild(el("span", { "class": "glue" }, m[0]));
      last = m.index + m[0].length;
    }
    if (last < text.length) node.appendChild(document.createTextNode(text.slice(last)));
  }

  /* 머리: 제목과 쓰는 법 */
  function buildHead(jo) {
    var d = jo.data;
    jo.root.appendChild(el("p", { "class": "journey__title" }, d.text.title));
    fill(jo.root.appendChild(el("p", { "class": "journey__hint" })), d.text.hint, values(jo, jo.focus));
  }

  /* 평면(SVG): 키 그림과 밸류 그림, 두 겹. 점선(q 나 o 의 방향), 화살표, 수선, 발, 이어 붙인 화살표, 이름표. */
  function buildPlane(jo) {
    var g = jo.g, n = jo.m.n, vals = values(jo, jo.focus);
    var plane = svg("svg", { "class": "journey__plane", role: "img" });
    var keys = svg("g", { "class": "journey__keys" }), values_ = svg("g", { "class": "journey__values" });
    var parts = { plane: plane, keysLayer: keys, valuesLayer: values_ };
    parts.keyLabel = filled(jo.data.text.key_plane, vals);
    parts.valueLabel = filled(jo.data.text.value_plane, vals);
    parts.guide = keys.appendChild(svg("line", { "class": "journey__guide" }));
    parts.drops = range(n).map(function () { return keys.appendChild(svg("line", { "class": "journey__drop" })); });
    parts.keyArrows = range(n).map(function () { return keys.appendChild(svg("line", { "class": "journey__key" })); });
    parts.keyTips = range(n).map(function () { return keys.appendChild(svg("circle", { "class": "journey__tip", r: 3 })); });
    parts.feet = range(n).map(function () { return keys.appendChild(svg("circle", { "class": "journey__foot", r: 3.2 })); });
    parts.q = keys.appendChild(svg("line", { "class": "journey__q" }));
    parts.qTip = keys.appendChild(svg("circle", { "class": "journey__q-tip", r: 4 }));
    parts.qName = keys.appendChild(label("q"));
    parts.keyName = keys.appendChild(label(""));
    parts.oGuide = values_.appendChild(svg("line", { "class": "journey__guide" }));
    parts.valArrows = range(n).map(function () { return values_.appendChild(svg("line", { "class": "journey__value" })); });
    parts.o = values_.appendChild(svg("line", { "class": "journey__o" }));  // 이어 붙인 화살표 밑에 굵게
    parts.links = range(n).map(function () { return values_.appendChild(svg("line", { "class": "journey__link" })); });
    parts.joints = range(n).map(function () { return values_.appendChild(svg("circle", { "class": "journey__joint", r: 2.2 })); });
    parts.oName = values_.appendChild(label("o"));
    parts.valueName = values_.appendChild(label(""));
    plane.appendChild(keys);
    plane.appendChild(values_);
    var frame = el("div", { "class": "journey__frame" });
    frame.appendChild(plane);
    jo.root.appendChild(frame);
    jo.plane = parts;
    place(parts.guide, [g.keyView.at([-g.reach * 0.08, 0]), g.keyView.at([g.reach, 0])]);
    place(parts.q, [g.keyView.at([0, 0]), g.keyView.at(g.q)]);
    dotAt(parts.qTip, g.keyView.at(g.q));
    var o0 = g.valueView.at([0, 0]), o1 = g.valueView.at(g.o);
    place(parts.oGuide, [lerp(o1, o0, 1.25), lerp(o0, o1, 1.25)]);
  }
  function range(n) { var out = []; for (var i = 0; i < n; i++) out.push(i); return out; }
  function label(text) {
    var t = svg("text", { "class": "journey__name", "aria-hidden": "true" });
    t.textContent = text;
    return t;
  }
  function filled(text, vals) {
    return text.replace(/\{([a-z_]+)\}/g, function (_, k) {
      var v = vals[k];
      if (v === undefined) throw new Error("글의 자리 {" + k + "} 에 값이 없습니다");
      return typeof v === "string" ? v : fixed(v[0], v[1]);
    });
  }
  function place(line, ends) {
    line.setAttribute("x1", ends[0][0].toFixed(2));
    line.setAttribute("y1", ends[0][1].toFixed(2));
    line.setAttribute("x2", ends[1][0].toFixed(2));
    line.setAttribute("y2", ends[1][1].toFixed(2));
  }
  function dotAt(circle, p) {
    circle.setAttribute("cx", p[0].toFixed(2));
    circle.setAttribute("cy", p[1].toFixed(2));
  }
  /* 이름표: 점의 오른쪽 위에. 그림의 오른쪽 끝에 가까우면 왼쪽에 붙입니다 (잘리지 않게). */
  function nameAt(text, p, content) {
    var right = p[0] > W - 70;
    text.setAttribute("x", (p[0] + (right ? -8 : 8)).toFixed(2));
    text.setAttribute("y", Math.max(14, p[1] - 8).toFixed(2));
    text.setAttribute("text-anchor", right ? "end" : "start");
    if (text.textContent !== content) text.textContent = content;
  }

  /* 단추, 막대, 지금 단계의 글, 화면 읽기 프로그램에 알리는 자리 */
  function buildControls(jo) {
    var bar = el("div", { "class": "journey__controls" });
    var buttons = {};
    [["first", "처음"], ["prev", "이전"], ["play", "재생"], ["next", "다음"]].forEach(function (b) {
      buttons[b[0]] = bar.appendChild(el("button", { type: "button", "class": "md-button journey__" + b[0] }, b[1]));
    });
    var id = jo.uid + "-range";
    var scrub = el("div", { "class": "journey__scrub" });
    scrub.appendChild(el("label", { "for": id }, "단계"));
    var input = scrub.appendChild(el("input", { type: "range", id: id, min: "0", max: String(LAST), step: "any",
                                                 value: "0", "class": "journey__range" }));
    jo.root.appendChild(bar);
    jo.root.appendChild(scrub);
    var caption = el("div", { "class": "journey__caption" });
    jo.captionTitle = caption.appendChild(el("p", { "class": "journey__stage" }));
    jo.captionText = caption.appendChild(el("p", { "class": "journey__text" }));
    jo.root.appendChild(caption);
    jo.live = el("p", { "class": "journey__sr", "aria-live": "polite" });
    jo.root.appendChild(jo.live);
    jo.buttons = buttons;
    jo.range = input;
  }

  /* 표: 키마다 한 줄 (이름은 고르는 단추), 단계마다 채워지는 네 열, 지금 단계의 크기를 보이는 막대, 합계 줄 */
  function buildTable(jo) {
    var d = jo.data;
    var table = el("table", { "class": "journey__table" });
    var head = el("tr");
    ["키", "q·k", "÷√d_k", "가중치", "출력 쪽 몫"].forEach(function (c) { head.appendChild(el("th", { scope: "col" }, c)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    jo.rows = d.tokens.map(function (token, j) {
      var tr = body.appendChild(el("tr", j === d.query ? { "class": "is-query" } : {}));
      var th = tr.appendChild(el("th", { scope: "row" }));
      var pick = th.appendChild(el("button", { type: "button", "class": "journey__pick", "aria-pressed": "false",
                                               tabindex: "-1" }));
      pick.appendChild(tokenNode(token));
      if (j === d.query) pick.appendChild(el("span", { "class": "journey__sr" }, " (쿼리)"));
      // 지금 단계의 크기를 보이는 막대 (① q·k, ② 줄어든 q·k, ③–④ 가중치): 이름 아래 한 줄
      var row = { tr: tr, pick: pick, cells: {}, bar: th.appendChild(el("span", { "class": "journey__bar", "aria-hidden": "true" })) };
      ["score", "scaled", "weight", "part"].forEach(function (key) {
        row.cells[key] = tr.appendChild(el("td", { "data-key": key }));
      });
      return row;
    });
    var foot = table.appendChild(el("tfoot")).appendChild(el("tr"));
    foot.appendChild(el("th", { scope: "row" }, "합"));
    jo.sums = {};
    ["score", "scaled", "weight", "part"].forEach(function (key) { jo.sums[key] = foot.appendChild(el("td", { "data-key": key })); });
    var wrap = el("div", { "class": "journey__tablewrap" });
    wrap.appendChild(table);
    jo.root.appendChild(wrap);
    ["tokens", "keeps", "why"].forEach(function (key) {
      fill(jo.root.appendChild(el("p", { "class": "journey__note" })), d.text[key], values(jo, jo.focus));
    });
  }

  /* ---- 그리기: 화면은 t 만의 함수입니다 --------------------------------------------------------------- */

  /* 지금 단계(글과 막대가 따르는 것): 0 이면 준비, 그 밖에는 t 를 올림 (① 을 지나는 중이면 ①) */
  function stageOf(t) { return t <= EPS ? 0 : Math.ceil(t - EPS); }
  /* ① 을 지나는 동안 지금 그림자를 내리는 키 (그 밖에는 독자가 고른 키) */
  function focusOf(jo, t) { return t > EPS && t < 1 - EPS ? Math.min(jo.m.n - 1, Math.floor(t * jo.m.n)) : jo.focus; }

  function draw(jo, t) {
    jo.t = t;
    var stage = stageOf(t), focus = focusOf(jo, t);
    drawKeys(jo, t, focus);
    drawValues(jo, t, focus);
    drawTable(jo, t, focus);
    var s = jo.data.stages[stage], vals = values(jo, focus);
    fill(jo.captionTitle, s.title, vals);
    fill(jo.captionText, s.text, vals);
    var showValues = t > 3 + EPS;
    jo.plane.keysLayer.style.display = showValues ? "none" : "";
    jo.plane.valuesLayer.style.display = showValues ? "" : "none";
    jo.plane.plane.setAttribute("viewBox", "0 0 " + W + " " + (showValues ? jo.g.valueView : jo.g.keyView).height.toFixed(1));
    jo.plane.plane.setAttribute("aria-label", showValues ? jo.plane.valueLabel : jo.plane.keyLabel);
    jo.range.value = String(t);
    jo.range.setAttribute("aria-valuetext", stageText(jo, t));
    jo.root.setAttribute("data-t", String(t));
    jo.root.setAttribute("data-focus", String(focus));
    jo.root.setAttribute("data-stage", Math.abs(t - Math.round(t)) < EPS ? String(Math.round(t)) : "");
  }

  function stageText(jo, t) {
    var stage = stageOf(t), name = jo.data.stages[stage].name;
    if (Math.abs(t - Math.round(t)) < EPS) return name + " (" + LAST + "단계 가운데 " + stage + ")";
    return jo.data.stages[stage - 1].name + "에서 " + name + "(으)로 가는 중";
  }

  /* 키 그림: ① 을 지나며 키마다 차례로 수선을 내리고, 발이 점선 위에 닿으면 그 키의 q·k 가 표에 나옵니다 (발은 남습니다). */
  function drawKeys(jo, t, focus) {
    var g = jo.g, v = g.keyView, p = jo.plane, n = jo.m.n;
    for (var j = 0; j < n; j++) {
      var f = clamp(t * n - j, 0, 1), tip = v.at(g.keys[j]), foot = v.at(g.feet[j]);
      place(p.keyArrows[j], [v.at([0, 0]), tip]);
      dotAt(p.keyTips[j], tip);
      place(p.drops[j], [tip, lerp(tip, foot, f)]);
      // 수선은 지금 보는 키(① 을 지나는 중이면 그림자를 내리는 키)만: 열 개를 모두 그리면 서로 가립니다
      p.drops[j].style.display = f > 0 && j === focus ? "" : "none";
      dotAt(p.feet[j], foot);
      p.feet[j].style.display = f >= 1 - EPS ? "" : "none";
      // ③ 소프트맥스를 지나며 키 끝의 점은 넓이가 가중치에 비례하는 크기로 바뀝니다
      var r = 3 + (12 * Math.sqrt(jo.m.weights[j]) - 3) * clamp(t - 2, 0, 1);
      p.keyTips[j].setAttribute("r", r.toFixed(2));
      var on = j === focus;
      [p.keyArrows[j], p.keyTips[j], p.drops[j], p.feet[j]].forEach(function (node) {
        node.classList.toggle("is-focus", on);
      });
    }
    nameAt(p.qName, v.at(g.q), "q");
    nameAt(p.keyName, v.at(g.keys[focus]), jo.data.tokens[focus]);
  }

  /* 밸류 그림: ④ 에서 가중치가 큰 밸류부터, 원점에서 v 로 시작한 화살표가 가중치만큼 줄며 앞 화살표의 끝으로 옮겨 갑니다.
     다 이으면 끝이 출력 o 입니다. */
  function drawValues(jo, t, focus) {
    var g = jo.g, v = g.valueView, p = jo.plane, m = jo.m, n = m.n, origin = v.at([0, 0]);
    m.order.forEach(function (j, i) {
      var f = clamp((t - 3) * n - i, 0, 1);
      place(p.valArrows[j], [origin, v.at(g.vals[j])]);
      var from = lerp([0, 0], g.tips[i], f), to = lerp(g.vals[j], g.tips[i + 1], f);
      place(p.links[j], [v.at(from), v.at(to)]);
      dotAt(p.joints[i], v.at(to));
      p.links[j].style.display = p.joints[i].style.display = t > 3 + EPS && f > 0 ? "" : "none";
      p.links[j].classList.toggle("is-focus", j === focus);
      p.valArrows[j].classList.toggle("is-focus", j === focus);
    });
    var done = t >= LAST - EPS;
    place(p.o, [origin, v.at(g.o)]);
    p.o.style.display = done ? "" : "none";
    p.oName.style.display = done ? "" : "none";
    nameAt(p.oName, v.at(g.o), "o");
    nameAt(p.valueName, v.at(g.vals[focus]), jo.data.tokens[focus]);
  }

  /* 표: 그 단계에 다다른 칸만 숫자를 보입니다. 막대는 지금 단계의 크기 (① q·k, ② 그 q·k 가 줄어듦, ③–④ 가중치). */
  function drawTable(jo, t, focus) {
    var m = jo.m, n = m.n;
    jo.rows.forEach(function (row, j) {
      var at = m.order.indexOf(j);
      cell(row.cells.score, t >= (j + 1) / n - EPS, m.scores[j], 2);
      cell(row.cells.scaled, t >= 2 - EPS, m.scaled[j], 2);
      cell(row.cells.weight, t >= 3 - EPS, m.weights[j], 3);
      cell(row.cells.part, t >= 3 + (at + 1) / n - EPS, m.parts[j], 3);
      var score = clamp(t * n - j, 0, 1) * m.scores[j] / m.maxScore;
      var shrunk = score * (1 - clamp(t - 1, 0, 1) * (1 - 1 / m.sqrtD));
      var size = t <= 2 ? shrunk : shrunk + (m.weights[j] - shrunk) * clamp(t - 2, 0, 1);
      row.bar.style.width = (100 * Math.abs(size)).toFixed(1) + "%";
      row.bar.classList.toggle("is-negative", size < 0);
      var on = j === focus;
      if (row.tr.classList.contains("is-focus") !== on) row.tr.classList.toggle("is-focus", on);
    });
    cell(jo.sums.weight, t >= 3 - EPS, m.wSum, 3);
    cell(jo.sums.part, t >= LAST - EPS, m.oLen, 3);
  }

  function cell(td, shown, value, digits) {
    var text = shown ? fixed(value, digits) : "";
    if (td.textContent === text) return;
    td.textContent = text;
    if (shown) td.setAttribute("data-value", value.toPrecision(17));
    else td.removeAttribute("data-value");
  }

  /* ---- 시간 -------------------------------------------------------------------------------------- */

  /* 재생: requestAnimationFrame 마다 t 를 단계의 빠르기(PACE)로 늘리고, 단계 끝마다 DWELL 만큼 멈춥니다. 목표(to)에 닿으면
     멈춥니다. 움직임을 줄인 화면에서는 프레임 없이 STILL_STEP 마다 한 단계씩 넘깁니다. */
  function play(jo, to) {
    stop(jo);
    if (jo.t >= to - EPS) return;
    jo.playing = { to: to, hold: 0, last: null, raf: 0, timer: 0 };
    jo.buttons.play.textContent = to === LAST ? "멈춤" : "재생";
    if (reduced()) {
      var next = function () {
        draw(jo, Math.min(to, Math.floor(jo.t + EPS) + 1));
        if (jo.t >= to - EPS) return stop(jo, true);
        announce(jo);
        jo.playing.timer = setTimeout(next, STILL_STEP);
      };
      return next();
    }
    jo.playing.raf = requestAnimationFrame(function frame(now) { tick(jo, now, frame); });
  }

  function tick(jo, now, frame) {
    var p = jo.playing;
    if (!p) return;
    var dt = p.last === null ? 0 : Math.min(now - p.last, 100);  // 탭이 숨었다 돌아오면 한꺼번에 건너뛰지 않게
    p.last = now;
    if (p.hold > 0) {
      p.hold -= dt;
    } else {
      var t = jo.t, seg = Math.min(LAST, Math.floor(t + EPS) + 1), end = Math.min(seg, p.to);
      var next = t + dt / PACE[seg - 1];
      if (next >= end - EPS) { next = end; p.hold = DWELL; }
      draw(jo, next);
      if (next >= p.to - EPS) return stop(jo, true);
      if (p.hold > 0) announce(jo);
    }
    p.raf = requestAnimationFrame(frame);
  }

  function stop(jo, arrived) {
    var p = jo.playing;
    if (p) {
      cancelAnimationFrame(p.raf);
      clearTimeout(p.timer);
    }
    jo.playing = null;
    jo.buttons.play.textContent = "재생";
    if (p || arrived) announce(jo);
  }

  function seek(jo, t) {
    stop(jo);
    draw(jo, clamp(t, 0, LAST));
    announce(jo);
  }

  function reduced() { return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches; }

  /* 멈춘 자리의 글을 화면 읽기 프로그램에 알립니다 (막대를 끄는 동안에는 멈춘 뒤에 한 번) */
  function announce(jo) {
    clearTimeout(jo.announcing);
    jo.announcing = setTimeout(function () {
      jo.live.textContent = jo.captionTitle.textContent + ". " + jo.captionText.textContent;
    }, 300);
  }

  /* ---- 조작 -------------------------------------------------------------------------------------- */

  function wire(jo) {
    var b = jo.buttons;
    b.first.addEventListener("click", function () { seek(jo, 0); });
    b.prev.addEventListener("click", function () { seek(jo, Math.ceil(jo.t - EPS) - 1); });
    /* 다음: 곧바로 다음 단계의 끝 상태로 갑니다 (움직이는 그림은 재생이 보여 줍니다). 단계 하나를 그리는 데 3.2 초까지 걸려,
       그리는 도중에 누른 다음이 그 단계를 마저 그리기만 하면 독자는 기다려야 했습니다 (issue 41). 그리는 도중(t 가 단계
       사이)이면 지금 그리는 단계(글이 보이는 단계)의 다음 단계 끝으로, 단계 끝에 멈춰 있으면 바로 다음 단계 끝으로. */
    b.next.addEventListener("click", function () {
      seek(jo, Math.min(LAST, Math.ceil(jo.t - EPS) + 1));
    });
    b.play.addEventListener("click", function () {
      if (jo.playing && jo.playing.to === LAST) return stop(jo);
      if (jo.t >= LAST - EPS) draw(jo, 0);
      play(jo, LAST);
    });
    jo.range.addEventListener("input", function () { seek(jo, Number(jo.range.value)); });
    jo.range.addEventListener("keydown", function (ev) {
      var t = jo.t, to = {
        ArrowRight: Math.floor(t + EPS) + 1, ArrowUp: Math.floor(t + EPS) + 1, PageUp: Math.floor(t + EPS) + 1,
        ArrowLeft: Math.ceil(t - EPS) - 1, ArrowDown: Math.ceil(t - EPS) - 1, PageDown: Math.ceil(t - EPS) - 1,
        Home: 0, End: LAST
      }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      seek(jo, to);
    });
    wirePicks(jo);
  }

  /* 표의 키 이름: 한 번의 Tab 으로 들어와 위·아래 화살표로 옮기는 단추 묶음. 고른 키는 그림에서 강조하고, ① 의 글이 그 키의
     그림자와 q·k 를 풀어 보입니다. */
  function wirePicks(jo) {
    var picks = jo.rows.map(function (r) { return r.pick; });
    function choose(j, move) {
      jo.focus = j;
      picks.forEach(function (b, i) {
        b.setAttribute("aria-pressed", String(i === j));
        b.setAttribute("tabindex", i === j ? "0" : "-1");
      });
      if (move) picks[j].focus();
      draw(jo, jo.t);
    }
    picks.forEach(function (b, j) {
      b.addEventListener("click", function () { choose(j, false); });
      b.addEventListener("keydown", function (ev) {
        var to = { ArrowDown: j + 1, ArrowUp: j - 1, Home: 0, End: picks.length - 1 }[ev.key];
        if (to === undefined) return;
        ev.preventDefault();
        choose(clamp(to, 0, picks.length - 1), true);
      });
    });
    choose(jo.focus, false);
  }

  /* ---- 도구 하나 ---------------------------------------------------------------------------------- */

  function check(data) {
    if (!data || data.format !== FORMAT) throw new Error("데이터 형식이 " + FORMAT + " 이 아닙니다");
    var n = data.tokens.length, d = data.d_k;
    var ok = data.q.length === d && data.k.length === n && data.v.length === n &&
      data.k.concat(data.v, data.key_axes, data.value_axes).every(function (r) { return r.length === d; }) &&
      data.stages.length === LAST + 1 && data.query >= 0 && data.query < n;
    if (!ok) throw new Error("q, k, v, 축의 모양이 토큰 " + n + "개, d_k " + d + "와 맞지 않습니다");
  }

  function build(root, data) {
    check(data);
    var jo = { root: root, data: data, uid: "jo-" + Math.random().toString(36).slice(2, 8), t: 0, playing: null };
    jo.m = compute(data);
    jo.g = geometry(jo);
    jo.focus = jo.m.top;
    root.textContent = "";
    buildHead(jo);
    buildPlane(jo);
    buildControls(jo);
    buildTable(jo);
    wire(jo);
    draw(jo, 0);
    return jo;
  }

  /* 상자가 화면 가까이(한 화면 앞) 올 때 한 번 fn 을 부릅니다. */
  function whenNear(root, fn) {
    if (!("IntersectionObserver" in window)) return fn();
    var near = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) return;
      near.disconnect();
      fn();
    }, { rootMargin: "100% 0px" });
    near.observe(root);
  }

  function init() {
    document.querySelectorAll(".journey[data-src]").forEach(function (root) {
      whenNear(root, function () { common.mount(root, build, "그림 데이터를 읽지 못했습니다"); });
    });
  }

  window.queryJourney = { compute: compute, softmax: softmax };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
