/* 다음 토큰 고르기 (docs/next_token.md): Gemma 3 270M 이 프롬프트 뒤에 고른 토큰을 한 걸음씩 봅니다.
 *
 * 페이지에 <div class="next-token" data-src="../data/next_token_data-steps-index.json"></div> 를 두면, 이 스크립트가
 * 빌드 때 스니펫(snippets/next_token_data.py)이 만든 JSON 을 읽어 도구를 그립니다. 목록(index)을 먼저 받고, 프롬프트
 * 하나의 파일(p0 … p7, 후보·히스토그램·어텐션)은 독자가 그 프롬프트를 고를 때 받습니다.
 *
 * - 온도·top-k·top-p 는 걸음마다 저장한 후보 50개의 로짓과 나머지 로짓의 히스토그램에 여기서 적용합니다.
 *   계산은 snippets/sampling.py 의 from_summary 와 같은 float64 계산을 같은 차례로 합니다 (브라우저 테스트가 견줍니다).
 * - 어텐션은 층·헤드마다 쿼리 한 행의 가중치(0..65535 정수)를 풀어 보입니다. 쿼리보다 오른쪽 키는 0 입니다.
 * 페이지는 독자가 도구 가까이 내려올 때 이 스크립트를 붙입니다 (overrides/main.html, docs/assets/site.js).
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  var el = window.attentionExplorers.el;  /* 공통 도구 (explorer-common.js) */
  var SPACE = "\u2581";
  var SHOWN = 10;  // 표에 보일 후보 수 (나머지 후보는 "그 밖의 후보" 한 줄)

  /* ---- 확률: sampling.from_summary 와 같은 계산 ------------------------------------------------ */

  /* 요약(summary: 후보의 로짓, 나머지의 히스토그램)과 세 손잡이 → { cand: 후보마다 확률, rest: 나머지 토큰의 몫,
     count: 나머지 가운데 남은 토큰 수 }. T = 0 은 1등 하나, k = 0 과 p = 1 은 끔. */
  function probabilities(summary, T, k, p) {
    var z = summary.logits, counts = summary.tail.counts, means = summary.tail.means;
    var n = z.length, i;
    var cand = new Float64Array(n);
    if (T === 0) {
      cand[0] = 1;
      return { cand: cand, rest: 0, count: 0 };
    }
    var each = new Float64Array(counts.length);
    var total = 0, tail = 0;
    for (i = 0; i < n; i++) { cand[i] = Math.exp((z[i] - z[0]) / T); total += cand[i]; }
    for (i = 0; i < counts.length; i++) {
      each[i] = counts[i] > 0 ? Math.exp((means[i] - z[0]) / T) : 0;
      tail += counts[i] * each[i];
    }
    total += tail;
    for (i = 0; i < n; i++) cand[i] /= total;
    for (i = 0; i < counts.length; i++) each[i] /= total;
    var useTail = true;
    if (k > 0) {  /* 상위 k 개는 모두 후보 안에 있습니다: 나머지 토큰은 모두 잘립니다 */
      var sumK = 0;
      for (i = 0; i < n; i++) { if (i >= k) cand[i] = 0; sumK += cand[i]; }
      for (i = 0; i < n; i++) cand[i] /= sumK;
      useTail = false;
    }
    var rest = 0, count = 0;
    if (p >= 1) {
      if (useTail) for (i = 0; i < counts.length; i++) { rest += counts[i] * each[i]; count += counts[i]; }
    } else {
      var cum = 0, cut = -1;
      for (i = 0; i < n; i++) { cum += cand[i]; if (cut < 0 && cum >= p - 1e-12) cut = i + 1; }
      if (cut >= 0) {
        for (i = cut; i < n; i++) cand[i] = 0;
      } else if (useTail) {  /* 후보를 모두 남기고, 나머지의 위쪽 칸부터 더합니다 */
        for (i = 0; i < counts.length; i++) {
          if (counts[i] === 0) continue;
          var m = Math.max(0, Math.min(counts[i], Math.ceil((p - cum - rest) / each[i] - 1e-9)));
          rest += m * each[i];
          count += m;
          if (m < counts[i]) break;
        }
      }
    }
    var kept = rest;
    for (i = 0; i < n; i++) kept += cand[i];
    for (i = 0; i < n; i++) cand[i] /= kept;
    return { cand: cand, rest: rest / kept, count: count };
  }

  /* 나머지 토큰 전체의 몫 (손잡이를 적용하기 전, 온도만): 잘리기 전에 나머지가 얼마였는지 보입니다. */
  function restShare(summary, T) {
    return T === 0 ? 0 : probabilities(summary, T, 0, 1).rest;
  }

  /* base64 → 0..65535 정수 배열 (리틀 엔디언 uint16) → 0..1 */
  function decodeWeights(text) {
    var bin = atob(text);
    var out = new Float64Array(bin.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = (bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8)) / 65535;
    return out;
  }

  /* ---- 글자 -------------------------------------------------------------------------------------- */

  function percent(x) {
    if (x > 0 && x < 0.0005) return "<0.1%";
    return (100 * x).toFixed(1) + "%";
  }

  function fixed3(x) { return x.toFixed(3); }

  /* 조각 이름: ▁ (여기서 띄어쓰기가 있었다는 표시)는 흐리게, 화면 읽기 프로그램에는 "띄어쓰기" 로 읽힙니다. */
  function pieceLabel(piece) {
    var span = el("span", { "class": "next-token__piece" });
    if (piece === SPACE) {
      span.appendChild(el("span", { "class": "next-token__space is-alone", "aria-hidden": "true" }, SPACE));
      span.appendChild(el("span", { "class": "next-token__sr" }, "띄어쓰기"));
      return span;
    }
    if (piece.charAt(0) === SPACE) {
      span.appendChild(el("span", { "class": "next-token__space", "aria-hidden": "true" }, SPACE));
      span.appendChild(el("span", { "class": "next-token__sr" }, "띄어쓰기 "));
      piece = piece.slice(1);
    }
    span.appendChild(document.createTextNode(piece));
    return span;
  }

  function plainText(piece) {
    return piece.split(SPACE).join(" ");
  }

  /* ---- 도구 -------------------------------------------------------------------------------------- */

  function field(cls, labelText, input, output) {
    var wrap = el("div", { "class": "next-token__field " + cls });
    var label = el("label", { "for": input.id }, labelText);
    wrap.appendChild(label);
    wrap.appendChild(input);
    if (output) wrap.appendChild(output);
    return wrap;
  }

  var counter = 0;

  function mount(box) {
    counter += 1;
    var id = "next-token-" + counter;
    var src = box.getAttribute("data-src");
    var state = { prompt: 0, step: 0, T: 1, k: 0, p: 1, layer: 5, head: 0, hideBos: false, query: null };
    var index = null, part = null, parts = {};
    box.setAttribute("data-ready", "loading");
    box.textContent = "데이터를 받고 있습니다…";

    function partUrl(j) { return src.replace(/index\.json$/, "p" + j + ".json"); }

    function fetchJson(url) {
      return fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + " " + r.status);
        return r.json();
      });
    }

    /* 화면 조각 */
    var promptSelect = el("select", { id: id + "-prompt" });
    var stepInput = el("input", { id: id + "-step", type: "range", min: "1", max: "20", step: "1", value: "1" });
    var stepOut = el("output", { "for": id + "-step", "class": "next-token__value" });
    var prev = el("button", { type: "button", "class": "next-token__button", "aria-label": "이전 걸음" }, "◀");
    var next = el("button", { type: "button", "class": "next-token__button", "aria-label": "다음 걸음" }, "▶");
    var textLine = el("p", { "class": "next-token__text", "aria-live": "polite" });
    var tokensLine = el("p", { "class": "next-token__tokens" });
    var tInput = el("input", { id: id + "-t", type: "range", min: "0", max: "2", step: "0.05", value: "1" });
    var tOut = el("output", { "for": id + "-t", "class": "next-token__value" });
    var kInput = el("input", { id: id + "-k", type: "range", min: "0", max: "50", step: "1", value: "0" });
    var kOut = el("output", { "for": id + "-k", "class": "next-token__value" });
    var pInput = el("input", { id: id + "-p", type: "range", min: "0.05", max: "1", step: "0.05", value: "1" });
    var pOut = el("output", { "for": id + "-p", "class": "next-token__value" });
    var table = el("table", { "class": "next-token__table" });
    var summaryLine = el("p", { "class": "next-token__summary", "aria-live": "polite" });
    var drawButton = el("button", { type: "button", "class": "next-token__button next-token__draw" }, "10번 뽑기");
    var draws = el("p", { "class": "next-token__draws", "aria-live": "polite" });
    var layerSelect = el("select", { id: id + "-layer" });
    var headSelect = el("select", { id: id + "-head" });
    var bosInput = el("input", { id: id + "-bos", type: "checkbox" });
    var strip = el("div", { "class": "next-token__strip", role: "group", "aria-label": "쿼리로 고를 토큰" });
    var attnNote = el("p", { "class": "next-token__note", "aria-live": "polite" });
    var attnTop = el("p", { "class": "next-token__top" });

    function build() {
      box.textContent = "";
      index.prompts.forEach(function (text, j) { promptSelect.appendChild(el("option", { value: String(j) }, text)); });
      stepInput.max = String(index.steps);
      for (var l = 0; l < index.layers; l++) {
        var global = index.global_layers.indexOf(l) >= 0;
        layerSelect.appendChild(el("option", { value: String(l) }, (l + 1) + "층" + (global ? " (전역)" : " (지역, 창 " + index.window + ")")));
      }
      for (var h = 0; h < index.heads; h++) headSelect.appendChild(el("option", { value: String(h) }, "헤드 " + (h + 1)));
      layerSelect.value = String(state.layer);

      var top = el("div", { "class": "next-token__controls" });
      top.appendChild(field("next-token__field--prompt", "프롬프트", promptSelect));
      var stepWrap = field("next-token__field--step", "걸음", stepInput, stepOut);
      stepWrap.appendChild(prev);
      stepWrap.appendChild(next);
      top.appendChild(stepWrap);
      box.appendChild(top);
      box.appendChild(textLine);
      box.appendChild(tokensLine);

      box.appendChild(el("p", { "class": "next-token__heading" }, "다음 토큰의 후보"));
      var knobs = el("div", { "class": "next-token__controls" });
      knobs.appendChild(field("", "온도 T", tInput, tOut));
      knobs.appendChild(field("", "top-k", kInput, kOut));
      knobs.appendChild(field("", "top-p", pInput, pOut));
      box.appendChild(knobs);
      box.appendChild(table);
      box.appendChild(summaryLine);
      box.appendChild(drawButton);
      box.appendChild(draws);

      box.appendChild(el("p", { "class": "next-token__heading" }, "쿼리 하나의 어텐션 가중치"));
      var attn = el("div", { "class": "next-token__controls" });
      attn.appendChild(field("", "층", layerSelect));
      attn.appendChild(field("", "헤드", headSelect));
      var bosWrap = el("div", { "class": "next-token__field next-token__field--check" });
      bosWrap.appendChild(bosInput);
      bosWrap.appendChild(el("label", { "for": bosInput.id }, "<bos> 를 빼고 나머지로 다시 나누기"));
      attn.appendChild(bosWrap);
      box.appendChild(attn);
      box.appendChild(attnNote);
      box.appendChild(strip);
      box.appendChild(attnTop);

      promptSelect.addEventListener("change", function () { choosePrompt(Number(promptSelect.value)); });
      stepInput.addEventListener("input", function () { state.step = Number(stepInput.value) - 1; state.query = null; render(); });
      prev.addEventListener("click", function () { if (state.step > 0) { state.step -= 1; state.query = null; render(); } });
      next.addEventListener("click", function () { if (state.step < index.steps - 1) { state.step += 1; state.query = null; render(); } });
      tInput.addEventListener("input", function () { state.T = Number(tInput.value); render(); });
      kInput.addEventListener("input", function () { state.k = Number(kInput.value); render(); });
      pInput.addEventListener("input", function () { state.p = Number(pInput.value); render(); });
      layerSelect.addEventListener("change", function () { state.layer = Number(layerSelect.value); renderAttention(); });
      headSelect.addEventListener("change", function () { state.head = Number(headSelect.value); renderAttention(); });
      bosInput.addEventListener("change", function () { state.hideBos = bosInput.checked; renderAttention(); });
      drawButton.addEventListener("click", draw);
    }

    function choosePrompt(j) {
      state.prompt = j;
      state.query = null;
      if (parts[j]) { part = parts[j]; render(); return; }
      box.setAttribute("data-ready", "loading");
      fetchJson(partUrl(j)).then(function (data) {
        data.prefillWeights = decodeWeights(data.prefill);
        data.steps.forEach(function (s) { s.weights = decodeWeights(s.attention); });
        parts[j] = data;
        if (state.prompt === j) { part = data; render(); }
      }).catch(failed);
    }

    function piece(i) { return part.pieces[String(i)]; }

    /* 지금 걸음까지의 토큰: 프롬프트 + 앞 걸음에서 고른 토큰들 */
    function context(step) {
      return part.ids.concat(part.steps.slice(0, step).map(function (s) { return s.token; }));
    }

    function render() {
      if (!part) return;
      var s = part.steps[state.step];
      stepInput.value = String(state.step + 1);
      stepOut.textContent = (state.step + 1) + " / " + index.steps;
      prev.disabled = state.step === 0;
      next.disabled = state.step === index.steps - 1;
      tOut.textContent = state.T === 0 ? "0 (1등만)" : state.T.toFixed(2);
      kOut.textContent = state.k === 0 ? "끔" : String(state.k);
      pOut.textContent = state.p >= 1 ? "끔" : state.p.toFixed(2);

      textLine.textContent = "";
      var ctx = context(state.step);
      textLine.appendChild(document.createTextNode(part.prompt));
      var gen = ctx.slice(part.ids.length).map(function (i) { return plainText(piece(i)); }).join("");
      textLine.appendChild(el("span", { "class": "next-token__generated" }, gen));
      textLine.appendChild(el("span", { "class": "next-token__cursor" }, " ▮"));
      textLine.appendChild(el("span", { "class": "next-token__sr" }, " (여기에 올 토큰을 고릅니다)"));
      tokensLine.textContent = "프롬프트의 토큰 " + part.ids.length + "개: ";
      part.ids.forEach(function (i, j) {
        if (j) tokensLine.appendChild(document.createTextNode(" · "));
        tokensLine.appendChild(pieceLabel(piece(i)));
      });

      var r = probabilities(s, state.T, state.k, state.p);
      var raw = probabilities(s, 1, 0, 1);  // 손잡이를 모두 끈 확률 (T = 1)
      table.textContent = "";
      table.appendChild(el("caption", { "class": "next-token__sr" }, "후보 " + SHOWN + "개와 뽑을 확률"));
      var head = el("tr");
      ["후보", "T = 1", "지금 손잡이"].forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el("tbody");
      var keptCand = 0, keptOther = 0, otherMass = 0;
      for (var i = 0; i < s.ids.length; i++) {
        if (r.cand[i] > 0) keptCand += 1;
        if (i >= SHOWN) { otherMass += r.cand[i]; if (r.cand[i] > 0) keptOther += 1; }
      }
      for (var c = 0; c < SHOWN; c++) {
        var row = el("tr", { "data-id": String(s.ids[c]) });
        if (r.cand[c] === 0) row.className = "is-cut";
        if (s.ids[c] === s.token) row.className += " is-chosen";
        var th = el("th", { scope: "row" });
        th.appendChild(pieceLabel(piece(s.ids[c])));
        if (s.ids[c] === s.token) th.appendChild(el("span", { "class": "next-token__mark" }, " 고름"));
        row.appendChild(th);
        row.appendChild(el("td", { "data-value": "raw" }, percent(raw.cand[c])));
        row.appendChild(probCell("p", r.cand[c], r.cand[c] === 0));
        body.appendChild(row);
      }
      var more = el("tr", { "class": "next-token__more" });
      more.appendChild(el("th", { scope: "row" }, "그 밖의 후보 " + (s.ids.length - SHOWN) + "개"));
      more.appendChild(el("td", { "data-value": "raw-more" }, percent(sum(raw.cand, SHOWN))));
      more.appendChild(probCell("p-more", otherMass, !keptOther));
      body.appendChild(more);
      var rest = el("tr", { "class": "next-token__rest" });
      var others = index.vocab - s.ids.length;
      rest.appendChild(el("th", { scope: "row" }, "나머지 토큰 " + others.toLocaleString("en-US") + "개"));
      rest.appendChild(el("td", { "data-value": "raw-rest" }, percent(raw.rest)));
      rest.appendChild(probCell("p-rest", r.rest, !r.count));
      body.appendChild(rest);
      table.appendChild(body);

      var before = restShare(s, state.T);
      summaryLine.textContent = "남은 토큰: 후보 " + keptCand + "개" +
        (r.count ? " + 나머지 가운데 약 " + Math.round(r.count).toLocaleString("en-US") + "개" : "") + ". " +
        (state.T === 0 ? "온도 0 은 로짓이 가장 큰 토큰 하나만 남깁니다." :
          "이 온도에서 후보 " + s.ids.length + "개 밖의 토큰이 가진 몫은 " + percent(before) + "입니다.");
      box.setAttribute("data-state", JSON.stringify({ prompt: state.prompt, step: state.step, T: state.T, k: state.k,
        p: state.p, cand: Array.prototype.slice.call(r.cand, 0, SHOWN), rest: r.rest, count: r.count }));
      draws.textContent = "";
      renderAttention();
      box.setAttribute("data-ready", "yes");
    }

    /* 지금 손잡이의 확률 칸: 백분율과 막대 (잘렸으면 "잘림") */
    function probCell(name, value, cut) {
      var cell = el("td", { "data-value": name });
      var wrap = el("span", { "class": "next-token__cell" });
      wrap.appendChild(el("span", { "class": "next-token__num" }, cut ? "잘림" : percent(value)));
      var track = el("span", { "class": "next-token__track", "aria-hidden": "true" });
      var bar = el("span", { "class": "next-token__bar" });
      bar.style.width = cut ? "0" : (100 * value).toFixed(1) + "%";
      track.appendChild(bar);
      wrap.appendChild(track);
      cell.appendChild(wrap);
      return cell;
    }

    function sum(a, from) { var t = 0; for (var i = from; i < a.length; i++) t += a[i]; return t; }

    /* 지금 손잡이로 10번 뽑기: 후보, 또는 "나머지 토큰 가운데 하나" */
    function draw() {
      var s = part.steps[state.step];
      var r = probabilities(s, state.T, state.k, state.p);
      var out = [];
      for (var t = 0; t < 10; t++) {
        var u = Math.random(), acc = 0, got = null;
        for (var i = 0; i < r.cand.length && got === null; i++) { acc += r.cand[i]; if (u < acc) got = plainText(piece(s.ids[i])); }
        out.push(got === null ? "(나머지 토큰 가운데 하나)" : "'" + got + "'");
      }
      draws.textContent = "뽑은 것: " + out.join(", ");
    }

    /* 쿼리 한 행: [키마다 가중치] (쿼리 자리 q 까지). 프롬프트 안의 자리는 첫 걸음의 모든 행에서, 그 뒤는 걸음마다. */
    function row(q) {
      var n = part.ids.length, L = index.layers, H = index.heads;
      var out = [];
      if (q < n - 1) {  /* 프롬프트 안: (층, 헤드, 쿼리 × 키) */
        var base = ((state.layer * H + state.head) * n + q) * n;
        for (var j = 0; j <= q; j++) out.push(part.prefillWeights[base + j]);
        return out;
      }
      var step = q - (n - 1);  /* 이 자리의 토큰을 읽은 걸음: 그 걸음에 다음 토큰을 골랐습니다 */
      var w = part.steps[step].weights, t = q + 1;
      for (var k = 0; k < t; k++) out.push(w[(state.layer * H + state.head) * t + k]);
      return out;
    }

    function renderAttention() {
      if (!part) return;
      var n = part.ids.length;
      var all = context(index.steps);  /* 프롬프트 + 20걸음의 토큰 (마지막 것은 읽지 않았습니다) */
      var q = state.query === null ? n - 1 + state.step : state.query;
      var w = row(q);
      var bos = w[0];
      /* 나머지의 합(= 1 − <bos> 의 몫; 저장한 값은 1/65535 단위로 반올림돼 있어 그 합으로)으로 나눠 합을 1로 */
      var others = w.reduce(function (a, x) { return a + x; }, 0) - bos;
      if (state.hideBos) w = w.map(function (x, j) { return j === 0 ? 0 : x / others; });
      strip.textContent = "";
      var maxW = Math.max.apply(null, w.slice(state.hideBos ? 1 : 0).concat([1e-12]));
      all.slice(0, all.length - 1).forEach(function (token, j) {
        var b = el("button", { type: "button", "class": "next-token__chip" });
        if (j === q) b.className += " is-query";
        if (j > q) b.className += " is-masked";
        if (j === 0 && state.hideBos) b.className += " is-hidden";
        b.setAttribute("aria-pressed", j === q ? "true" : "false");
        b.appendChild(pieceLabel(piece(token)));
        var value = j > q ? "가려짐" : (j === 0 && state.hideBos ? "뺌" : fixed3(w[j]));
        b.appendChild(el("span", { "class": "next-token__w", "data-key": String(j) }, value));
        var bar = el("span", { "class": "next-token__wbar", "aria-hidden": "true" });
        bar.style.width = j > q ? "0" : (100 * w[j] / maxW).toFixed(1) + "%";
        b.appendChild(bar);
        b.addEventListener("click", function () { state.query = j; renderAttention(); });
        strip.appendChild(b);
      });
      var layerName = (state.layer + 1) + "층 헤드 " + (state.head + 1);
      var masked = all.length - 1 - (q + 1);
      attnNote.textContent = layerName + ": 쿼리는 " + (q + 1) + "번째 토큰 '" + piece(all[q]) + "'입니다. " +
        "왼쪽 " + (q + 1) + "개(자기 포함)만 보고, 오른쪽 " + masked + "개는 인과 마스크로 가려져 가중치가 0입니다." +
        (state.hideBos ? " <bos>의 몫 " + fixed3(bos) + "을 빼고, 나머지를 그 합 " + fixed3(others) + "로 나눠 합을 1로 맞췄습니다." : "");
      var order = w.map(function (x, j) { return [x, j]; }).filter(function (e) { return !(state.hideBos && e[1] === 0); });
      order.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
      attnTop.textContent = "가장 많이 본 키: " + order.slice(0, 3).map(function (e) {
        return "'" + piece(all[e[1]]) + "' " + fixed3(e[0]);
      }).join(", ");
      box.setAttribute("data-attention", JSON.stringify({ prompt: state.prompt, layer: state.layer, head: state.head,
        query: q, hideBos: state.hideBos, weights: w }));
    }

    function failed(err) {
      box.setAttribute("data-ready", "failed");
      box.textContent = "데이터를 받지 못했습니다 (" + err.message + "). 페이지를 새로 고쳐 보세요.";
    }

    fetchJson(src).then(function (data) {
      index = data;
      build();
      choosePrompt(0);
    }).catch(failed);
  }

  window.nextToken = { probabilities: probabilities, decodeWeights: decodeWeights };
  document.querySelectorAll(".next-token[data-src]").forEach(mount);
})();
