/* 다음 토큰 고르기 (docs/next_token.md): Gemma 3 270M 이 프롬프트 뒤에 고른 토큰을 한 걸음씩 봅니다.
 *
 * 페이지에 <div class="next-token" data-src="../data/next_token_data-steps-index.json"></div> 를 두면, 이 스크립트가
 * 빌드 때 스니펫(snippets/sitedata/next_token_data.py)이 만든 JSON 을 읽어 도구를 그립니다. 목록(index)을 먼저 받고, 프롬프트
 * 하나의 파일(p0 … p7: 후보, 나머지 토큰의 몫, 어텐션)은 독자가 그 프롬프트를 고를 때 받습니다.
 *
 * - 온도·top-k·top-p 는 걸음마다 저장한 후보 50개의 로짓과, 손잡이의 자리마다 빌드가 어휘 전체로 더해 둔 나머지의
 *   몫(snippets/lib/sampling.py 의 summarize)에 여기서 적용합니다. 계산은 sampling.from_summary 와 같은 float64 계산을
 *   같은 차례로 합니다 (브라우저 테스트가 견줍니다). 그래서 손잡이의 어느 자리에서나 어휘 전체의 계산과 같습니다.
 * - 어텐션은 층·헤드마다 쿼리 한 행의 가중치(0..65535 정수)를 풀어 보입니다. 쿼리보다 오른쪽 키는 0 입니다.
 * 페이지는 독자가 도구 가까이 내려올 때 이 스크립트를 붙입니다 (overrides/main.html, docs/assets/site.js).
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 *
 * 차례: 확률 (probabilities) → 글자 (수, 조사, 조각 이름) → 도구 만들기 (newTool, build…) → 그리기 (render…) → 붙이기.
 */
(function () {
  "use strict";

  var el = window.attentionExplorers.el;  /* 공통 도구 (explorer-common.js) */
  var SPACE = "\u2581";
  var SHOWN = 10;  // 표에 보일 후보 수 (나머지 후보는 "그 밖의 후보" 한 줄)

  /* ---- 확률: sampling.from_summary 와 같은 계산 ------------------------------------------------ */

  /* 손잡이 값이 요약의 표(grid)에서 몇 번째인지. 표에 없으면 오류 (도구의 손잡이는 표의 값에만 섭니다). */
  function gridIndex(value, grid, name) {
    var best = 0;
    for (var i = 1; i < grid.length; i++) if (Math.abs(grid[i] - value) < Math.abs(grid[best] - value)) best = i;
    if (Math.abs(grid[best] - value) > 1e-9) throw new Error(name + "=" + value + " 는 요약의 표에 없는 값입니다");
    return best;
  }

  /* 요약(summary: 후보의 로짓과 나머지 토큰의 표)과 세 손잡이 → { cand: 후보마다 확률, rest: 나머지 토큰의 몫,
     count: 나머지 가운데 남은 토큰 수 }. T = 0 은 1등 하나, k = 0 과 p = 1 은 끔. */
  function probabilities(summary, T, k, p) {
    var z = summary.logits, tail = summary.tail, n = z.length, i;
    var cand = new Float64Array(n);
    if (T === 0) {
      cand[0] = 1;
      return { cand: cand, rest: 0, count: 0 };
    }
    for (i = 0; i < n; i++) cand[i] = Math.exp((z[i] - z[0]) / T);
    var rest = 0, count = 0, total = 0;
    if (k > 0) {  /* 상위 k 개는 모두 후보 안에 있습니다: 나머지 토큰은 모두 잘립니다 */
      for (i = k; i < n; i++) cand[i] = 0;
      for (i = 0; i < n; i++) total += cand[i];
    } else {
      var t = gridIndex(T, tail.temperatures, "temperature");
      for (i = 0; i < n; i++) total += cand[i];
      total += tail.mass[t];
      if (p >= 1) {
        rest = tail.mass[t];
        count = tail.size;
      } else {
        var j = gridIndex(p, tail.top_ps, "top_p") - (tail.top_ps.length - tail.count[t].length);
        if (j >= 0) {  /* 경계가 나머지 안: 후보는 모두 남고, 나머지에서 표의 토큰들이 남습니다 */
          rest = tail.kept[t][j];
          count = tail.count[t][j];
          p = 1;
        }
      }
    }
    if (p < 1) cutAt(cand, total, p);
    var kept = 0;
    for (i = 0; i < n; i++) kept += cand[i];
    kept += rest;
    for (i = 0; i < n; i++) cand[i] /= kept;
    return { cand: cand, rest: rest / kept, count: count };
  }

  /* top-p 의 경계가 후보 안에 떨어질 때: 확률(cand / total)의 누적 합이 p 에 처음 닿는 자리 뒤를 0 으로. */
  function cutAt(cand, total, p) {
    var cum = 0, cut = -1, i;
    for (i = 0; i < cand.length && cut < 0; i++) {
      cum += cand[i] / total;
      if (cum >= p - 1e-12) cut = i + 1;
    }
    if (cut < 0) throw new Error("요약이 맞지 않습니다: top_p=" + p + " 의 경계가 후보 안에도 표에도 없습니다");
    for (i = cut; i < cand.length; i++) cand[i] = 0;
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

  /* 수를 소리 내어 읽을 때 마지막 글자의 받침 번호 (snippets/lib/particles.py 의 final_consonant 와 같은 번호: 0 = 없음,
     8 = ㄹ). 소수점 아래는 숫자를 하나씩 읽고("0.879" → 영 점 팔칠구), 정수는 끝의 0 이 자리 이름이 됩니다
     ("20" → 이십, "300" → 삼백, "10,000" → 만). */
  var DIGIT_FINAL = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];  // 영 일 이 삼 사 오 육 칠 팔 구
  var PLACE_FINAL = [null, 17, 1, 4];  // 자리 안: 십(ㅂ) 백(ㄱ) 천(ㄴ)
  var GROUP_FINAL = [null, 4, 1, 0];  // 네 자리 묶음: 만(ㄴ) 억(ㄱ) 조(없음)
  function numberFinal(text) {
    var m = /^-?([\d,]*)(?:\.(\d+))?%?$/.exec(String(text));
    if (!m) return null;
    if (m[2]) return DIGIT_FINAL[Number(m[2].charAt(m[2].length - 1))];
    var digits = m[1].replace(/,/g, "").replace(/^0+(?=\d)/, "");
    if (!digits) return null;
    if (/^0+$/.test(digits)) return DIGIT_FINAL[0];
    var zeros = digits.length - digits.replace(/0+$/, "").length;
    var group = Math.floor(zeros / 4), place = zeros % 4;
    if (group > 0) return GROUP_FINAL[group];
    return place > 0 ? PLACE_FINAL[place] : DIGIT_FINAL[Number(digits.charAt(digits.length - 1))];
  }

  /* 수 뒤의 조사: pair 는 [받침 뒤, 받침 없을 때] ("을", "를"), ("으로", "로"). "으로" 는 ㄹ 받침 뒤에 "로" 가 됩니다
     (snippets/lib/particles.py 의 agrees 와 같은 규칙). */
  function withParticle(number, pair) {
    var jong = numberFinal(number);
    var consonant = jong !== null && jong !== 0 && !(pair[0] === "으로" && jong === 8);
    return number + (consonant ? pair[0] : pair[1]);
  }

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

  /* 글 속의 조각: '조각' 과 뒤에 붙는 글을 한 덩어리로 (휴대전화에서 "▁|학교" 처럼 갈라지지 않게, site.css 의 .glue) */
  function quotedPiece(piece, after) {
    var span = el("span", { "class": "glue" }, "'");
    span.appendChild(pieceLabel(piece));
    span.appendChild(document.createTextNode("'" + (after || "")));
    return span;
  }

  function plainText(piece) {
    return piece.split(SPACE).join(" ");
  }

  function setBlocked(button, on) {
    /* disabled 대신 aria-disabled: 초점이 있는 단추에 disabled 를 걸면 초점이 <body> 로 떨어집니다 (own-sentence.js 처럼) */
    if (on) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }

  function blocked(button) { return button.getAttribute("aria-disabled") === "true"; }

  /* ---- 도구 만들기 --------------------------------------------------------------------------------- */

  function field(cls, labelText, input, output) {
    var wrap = el("div", { "class": "next-token__field " + cls });
    wrap.appendChild(el("label", { "for": input.id }, labelText));
    wrap.appendChild(input);
    if (output) wrap.appendChild(output);
    return wrap;
  }

  function range(id, min, max, step, value) {
    return el("input", { id: id, type: "range", min: min, max: max, step: step, value: value });
  }

  var counter = 0;

  /* 도구 하나의 상태와 화면 조각 (아직 상자에 붙이지 않습니다) */
  function newTool(box) {
    counter += 1;
    var id = "next-token-" + counter;
    return {
      box: box, src: box.getAttribute("data-src"), index: null, part: null, parts: {}, chips: [],
      state: { prompt: 0, step: 0, T: 1, k: 0, p: 1, layer: 5, head: 0, hideBos: false, query: null },
      promptSelect: el("select", { id: id + "-prompt" }),
      stepInput: range(id + "-step", "1", "20", "1", "1"),
      stepOut: el("output", { "for": id + "-step", "class": "next-token__value" }),
      prev: el("button", { type: "button", "class": "next-token__button", "aria-label": "이전 걸음" }, "◀"),
      next: el("button", { type: "button", "class": "next-token__button", "aria-label": "다음 걸음" }, "▶"),
      textLine: el("p", { "class": "next-token__text", "aria-live": "polite" }),
      tokensLine: el("p", { "class": "next-token__tokens" }),
      tInput: range(id + "-t", "0", "2", "0.05", "1"),
      tOut: el("output", { "for": id + "-t", "class": "next-token__value" }),
      kInput: range(id + "-k", "0", "50", "1", "0"),
      kOut: el("output", { "for": id + "-k", "class": "next-token__value" }),
      pInput: range(id + "-p", "0.05", "1", "0.05", "1"),
      pOut: el("output", { "for": id + "-p", "class": "next-token__value" }),
      table: el("table", { "class": "next-token__table" }),
      summaryLine: el("p", { "class": "next-token__summary", "aria-live": "polite" }),
      drawButton: el("button", { type: "button", "class": "next-token__button next-token__draw" }, "10번 뽑기"),
      draws: el("p", { "class": "next-token__draws", "aria-live": "polite" }),
      layerSelect: el("select", { id: id + "-layer" }),
      headSelect: el("select", { id: id + "-head" }),
      bosInput: el("input", { id: id + "-bos", type: "checkbox" }),
      strip: el("div", { "class": "next-token__strip", role: "group", "aria-label": "쿼리로 고를 토큰" }),
      attnNote: el("p", { "class": "next-token__note", "aria-live": "polite" }),
      attnTop: el("p", { "class": "next-token__top" })
    };
  }

  /* 목록(index)을 받은 뒤: 고르기 상자의 항목을 채우고 화면 조각을 차례로 붙입니다. */
  function build(nt) {
    var index = nt.index;
    nt.box.textContent = "";
    index.prompts.forEach(function (text, j) { nt.promptSelect.appendChild(el("option", { value: String(j) }, text)); });
    nt.stepInput.max = String(index.steps);
    for (var l = 0; l < index.layers; l++) {
      var global = index.global_layers.indexOf(l) >= 0;
      nt.layerSelect.appendChild(el("option", { value: String(l) },
        (l + 1) + "층" + (global ? " (전역)" : " (지역, 창 " + index.window + ")")));
    }
    for (var h = 0; h < index.heads; h++) nt.headSelect.appendChild(el("option", { value: String(h) }, "헤드 " + (h + 1)));
    nt.layerSelect.value = String(nt.state.layer);
    buildStepper(nt);
    buildKnobs(nt);
    buildAttention(nt);
    listen(nt);
  }

  function buildStepper(nt) {
    var top = el("div", { "class": "next-token__controls" });
    top.appendChild(field("next-token__field--prompt", "프롬프트", nt.promptSelect));
    var stepWrap = field("next-token__field--step", "걸음", nt.stepInput, nt.stepOut);
    stepWrap.appendChild(nt.prev);
    stepWrap.appendChild(nt.next);
    top.appendChild(stepWrap);
    nt.box.appendChild(top);
    nt.box.appendChild(nt.textLine);
    nt.box.appendChild(nt.tokensLine);
  }

  function buildKnobs(nt) {
    nt.box.appendChild(el("p", { "class": "next-token__heading" }, "다음 토큰의 후보"));
    var knobs = el("div", { "class": "next-token__controls" });
    knobs.appendChild(field("", "온도 T", nt.tInput, nt.tOut));
    knobs.appendChild(field("", "top-k", nt.kInput, nt.kOut));
    knobs.appendChild(field("", "top-p", nt.pInput, nt.pOut));
    nt.box.appendChild(knobs);
    nt.box.appendChild(nt.table);
    nt.box.appendChild(nt.summaryLine);
    nt.box.appendChild(nt.drawButton);
    nt.box.appendChild(nt.draws);
  }

  function buildAttention(nt) {
    nt.box.appendChild(el("p", { "class": "next-token__heading" }, "쿼리 하나의 어텐션 가중치"));
    var attn = el("div", { "class": "next-token__controls" });
    attn.appendChild(field("", "층", nt.layerSelect));
    attn.appendChild(field("", "헤드", nt.headSelect));
    var bosWrap = el("div", { "class": "next-token__field next-token__field--check" });
    bosWrap.appendChild(nt.bosInput);
    bosWrap.appendChild(el("label", { "for": nt.bosInput.id }, "<bos>를 빼고 나머지로 다시 나누기"));
    attn.appendChild(bosWrap);
    nt.box.appendChild(attn);
    nt.box.appendChild(nt.attnNote);
    nt.box.appendChild(nt.strip);
    nt.box.appendChild(nt.attnTop);
  }

  /* 걸음을 옮깁니다: 쿼리는 다시 그 걸음의 자리로 */
  function goTo(nt, step) {
    if (step < 0 || step > nt.index.steps - 1) return;
    nt.state.step = step;
    nt.state.query = null;
    render(nt);
  }

  function listen(nt) {
    var state = nt.state;
    nt.promptSelect.addEventListener("change", function () { choosePrompt(nt, Number(nt.promptSelect.value)); });
    nt.stepInput.addEventListener("input", function () { goTo(nt, Number(nt.stepInput.value) - 1); });
    nt.prev.addEventListener("click", function () { if (!blocked(nt.prev)) goTo(nt, state.step - 1); });
    nt.next.addEventListener("click", function () { if (!blocked(nt.next)) goTo(nt, state.step + 1); });
    nt.tInput.addEventListener("input", function () { state.T = Number(nt.tInput.value); render(nt); });
    nt.kInput.addEventListener("input", function () { state.k = Number(nt.kInput.value); render(nt); });
    nt.pInput.addEventListener("input", function () { state.p = Number(nt.pInput.value); render(nt); });
    nt.layerSelect.addEventListener("change", function () { state.layer = Number(nt.layerSelect.value); renderAttention(nt); });
    nt.headSelect.addEventListener("change", function () { state.head = Number(nt.headSelect.value); renderAttention(nt); });
    nt.bosInput.addEventListener("change", function () { state.hideBos = nt.bosInput.checked; renderAttention(nt); });
    nt.drawButton.addEventListener("click", function () { draw(nt); });
  }

  function partUrl(nt, j) { return nt.src.replace(/index\.json$/, "p" + j + ".json"); }

  function fetchJson(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + " " + r.status);
      return r.json();
    });
  }

  function choosePrompt(nt, j) {
    nt.state.prompt = j;
    nt.state.query = null;
    if (nt.parts[j]) { showPart(nt, nt.parts[j]); return; }
    nt.box.setAttribute("data-ready", "loading");
    fetchJson(partUrl(nt, j)).then(function (data) {
      data.prefillWeights = decodeWeights(data.prefill);
      data.steps.forEach(function (s) { s.weights = decodeWeights(s.attention); });
      nt.parts[j] = data;
      if (nt.state.prompt === j) showPart(nt, data);
    }).catch(function (err) { failed(nt, err); });
  }

  /* 프롬프트 하나의 데이터로: 쿼리 칩은 프롬프트를 바꿀 때만 새로 만듭니다 (그리기는 칩을 그 자리에서 고칩니다:
     Enter 로 누른 칩이 초점을 잃지 않게) */
  function showPart(nt, part) {
    nt.part = part;
    buildChips(nt);
    render(nt);
  }

  function buildChips(nt) {
    nt.strip.textContent = "";
    nt.chips = context(nt, nt.index.steps).slice(0, -1).map(function (token, j) {
      var b = el("button", { type: "button", "class": "next-token__chip" });
      b.appendChild(pieceLabel(piece(nt, token)));
      var value = el("span", { "class": "next-token__w", "data-key": String(j) });
      var bar = el("span", { "class": "next-token__wbar", "aria-hidden": "true" });
      b.appendChild(value);
      b.appendChild(bar);
      b.addEventListener("click", function () { nt.state.query = j; renderAttention(nt); });
      nt.strip.appendChild(b);
      return { button: b, value: value, bar: bar };
    });
  }

  function piece(nt, i) { return nt.part.pieces[String(i)]; }

  /* 지금 걸음까지의 토큰: 프롬프트 + 앞 걸음에서 고른 토큰들 */
  function context(nt, step) {
    return nt.part.ids.concat(nt.part.steps.slice(0, step).map(function (s) { return s.token; }));
  }

  /* ---- 그리기 ---------------------------------------------------------------------------------------- */

  function render(nt) {
    if (!nt.part) return;
    var state = nt.state, s = nt.part.steps[state.step];
    nt.stepInput.value = String(state.step + 1);
    nt.stepOut.textContent = (state.step + 1) + " / " + nt.index.steps;
    setBlocked(nt.prev, state.step === 0);
    setBlocked(nt.next, state.step === nt.index.steps - 1);
    nt.tOut.textContent = state.T === 0 ? "0 (1등만)" : state.T.toFixed(2);
    nt.kOut.textContent = state.k === 0 ? "끔" : String(state.k);
    nt.pOut.textContent = state.p >= 1 ? "끔" : state.p.toFixed(2);
    renderText(nt);
    var r = probabilities(s, state.T, state.k, state.p);
    renderTable(nt, s, r);
    renderSummary(nt, s, r);
    nt.box.setAttribute("data-state", JSON.stringify({ prompt: state.prompt, step: state.step, T: state.T, k: state.k,
      p: state.p, cand: Array.prototype.slice.call(r.cand, 0, SHOWN), rest: r.rest, count: r.count }));
    nt.draws.textContent = "";
    renderAttention(nt);
    nt.box.setAttribute("data-ready", "yes");
  }

  /* 프롬프트와 지금까지 고른 글, 프롬프트의 토큰들 */
  function renderText(nt) {
    var part = nt.part;
    nt.textLine.textContent = "";
    nt.textLine.appendChild(document.createTextNode(part.prompt));
    var gen = context(nt, nt.state.step).slice(part.ids.length).map(function (i) { return plainText(piece(nt, i)); });
    nt.textLine.appendChild(el("span", { "class": "next-token__generated" }, gen.join("")));
    nt.textLine.appendChild(el("span", { "class": "next-token__cursor" }, " ▮"));
    nt.textLine.appendChild(el("span", { "class": "next-token__sr" }, " (여기에 올 토큰을 고릅니다)"));
    nt.tokensLine.textContent = "프롬프트의 토큰 " + part.ids.length + "개: ";
    part.ids.forEach(function (i, j) {
      if (j) nt.tokensLine.appendChild(document.createTextNode(" · "));
      nt.tokensLine.appendChild(pieceLabel(piece(nt, i)));
    });
  }

  /* 후보 표: 상위 10개, 그 밖의 후보, 나머지 토큰. 열은 T = 1 (손잡이를 모두 끈 확률)과 지금 손잡이. */
  function renderTable(nt, s, r) {
    var raw = probabilities(s, 1, 0, 1);
    var table = nt.table;
    table.textContent = "";
    table.appendChild(el("caption", { "class": "next-token__sr" }, "후보 " + SHOWN + "개와 뽑을 확률"));
    var head = el("tr");
    ["후보", "T = 1", "지금 손잡이"].forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    for (var c = 0; c < SHOWN; c++) body.appendChild(candidateRow(nt, s, c, raw.cand[c], r.cand[c]));
    var otherMass = 0, keptOther = 0;
    for (var i = SHOWN; i < s.ids.length; i++) { otherMass += r.cand[i]; if (r.cand[i] > 0) keptOther += 1; }
    var more = el("tr", { "class": "next-token__more" });
    more.appendChild(el("th", { scope: "row" }, "그 밖의 후보 " + (s.ids.length - SHOWN) + "개"));
    more.appendChild(el("td", { "data-value": "raw-more" }, percent(sum(raw.cand, SHOWN))));
    more.appendChild(probCell("p-more", otherMass, !keptOther));
    body.appendChild(more);
    var rest = el("tr", { "class": "next-token__rest" });
    var others = nt.index.vocab - s.ids.length;
    rest.appendChild(el("th", { scope: "row" }, "나머지 토큰 " + others.toLocaleString("en-US") + "개"));
    rest.appendChild(el("td", { "data-value": "raw-rest" }, percent(raw.rest)));
    rest.appendChild(probCell("p-rest", r.rest, !r.count));
    body.appendChild(rest);
    table.appendChild(body);
  }

  function candidateRow(nt, s, c, raw, now) {
    var row = el("tr", { "data-id": String(s.ids[c]) });
    if (now === 0) row.className = "is-cut";
    if (s.ids[c] === s.token) row.className += " is-chosen";
    var th = el("th", { scope: "row" });
    th.appendChild(pieceLabel(piece(nt, s.ids[c])));
    if (s.ids[c] === s.token) th.appendChild(el("span", { "class": "next-token__mark" }, " 고름"));
    row.appendChild(th);
    row.appendChild(el("td", { "data-value": "raw" }, percent(raw)));
    row.appendChild(probCell("p", now, now === 0));
    return row;
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

  function renderSummary(nt, s, r) {
    var keptCand = 0, T = nt.state.T;
    for (var i = 0; i < s.ids.length; i++) if (r.cand[i] > 0) keptCand += 1;
    nt.summaryLine.textContent = "남은 토큰: 후보 " + keptCand + "개" +
      (r.count ? " + 나머지 가운데 " + r.count.toLocaleString("en-US") + "개" : "") + ". " +
      (T === 0 ? "온도 0은 로짓이 가장 큰 토큰 하나만 남깁니다." :
        "이 온도에서 후보 " + s.ids.length + "개 밖의 토큰이 가진 몫은 ");
    /* "23.5%⏎입니다" 처럼 % 뒤에서 갈라지지 않게 수와 서술어를 묶습니다 */
    if (T !== 0) nt.summaryLine.appendChild(el("span", { "class": "glue" }, percent(restShare(s, T)) + "입니다."));
  }

  /* 지금 손잡이로 10번 뽑기: 후보, 또는 "나머지 토큰 가운데 하나" */
  function draw(nt) {
    var s = nt.part.steps[nt.state.step];
    var r = probabilities(s, nt.state.T, nt.state.k, nt.state.p);
    nt.draws.textContent = "뽑은 것: ";
    for (var t = 0; t < 10; t++) {
      var u = Math.random(), acc = 0, got = null;
      for (var i = 0; i < r.cand.length && got === null; i++) { acc += r.cand[i]; if (u < acc) got = s.ids[i]; }
      var sep = t < 9 ? ", " : "";
      if (got === null) nt.draws.appendChild(el("span", { "class": "glue" }, "(나머지 토큰 가운데 하나)" + sep));
      else nt.draws.appendChild(quotedPiece(piece(nt, got), sep));
    }
  }

  /* 쿼리 한 행: [키마다 가중치] (쿼리 자리 q 까지). 프롬프트 안의 자리는 첫 걸음의 모든 행에서, 그 뒤는 걸음마다. */
  function row(nt, q) {
    var part = nt.part, n = part.ids.length, H = nt.index.heads, state = nt.state;
    var out = [], j;
    if (q < n - 1) {  /* 프롬프트 안: (층, 헤드, 쿼리 × 키) */
      var base = ((state.layer * H + state.head) * n + q) * n;
      for (j = 0; j <= q; j++) out.push(part.prefillWeights[base + j]);
      return out;
    }
    var w = part.steps[q - (n - 1)].weights, t = q + 1;  /* 이 자리의 토큰을 읽은 걸음: 그 걸음에 다음 토큰을 골랐습니다 */
    for (j = 0; j < t; j++) out.push(w[(state.layer * H + state.head) * t + j]);
    return out;
  }

  function renderAttention(nt) {
    if (!nt.part) return;
    var state = nt.state, all = context(nt, nt.index.steps);  /* 프롬프트 + 20걸음의 토큰 (마지막 것은 읽지 않았습니다) */
    var q = state.query === null ? nt.part.ids.length - 1 + state.step : state.query;
    var w = row(nt, q), bos = w[0];
    /* 나머지의 합(= 1 − <bos> 의 몫; 저장한 값은 1/65535 단위로 반올림돼 있어 그 합으로)으로 나눠 합을 1로 */
    var others = w.reduce(function (a, x) { return a + x; }, 0) - bos;
    if (state.hideBos) w = w.map(function (x, j) { return j === 0 ? 0 : x / others; });
    renderChips(nt, w, q);
    renderNote(nt, all, q, bos, others);
    var order = w.map(function (x, j) { return [x, j]; }).filter(function (e) { return !(state.hideBos && e[1] === 0); });
    order.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    nt.attnTop.textContent = "가장 많이 본 키: ";
    order.slice(0, 3).forEach(function (e, i) {
      nt.attnTop.appendChild(quotedPiece(piece(nt, all[e[1]]), " " + fixed3(e[0]) + (i < 2 ? ", " : "")));
    });
    nt.box.setAttribute("data-attention", JSON.stringify({ prompt: state.prompt, layer: state.layer, head: state.head,
      query: q, hideBos: state.hideBos, weights: w }));
  }

  /* 칩마다 가중치와 막대: 칩은 그 자리에서 고칩니다 */
  function renderChips(nt, w, q) {
    var hideBos = nt.state.hideBos;
    var maxW = Math.max.apply(null, w.slice(hideBos ? 1 : 0).concat([1e-12]));
    nt.chips.forEach(function (chip, j) {
      var cls = "next-token__chip" + (j === q ? " is-query" : "") + (j > q ? " is-masked" : "") +
        (j === 0 && hideBos ? " is-hidden" : "");
      chip.button.className = cls;
      chip.button.setAttribute("aria-pressed", j === q ? "true" : "false");
      chip.value.textContent = j > q ? "가려짐" : (j === 0 && hideBos ? "뺌" : fixed3(w[j]));
      chip.bar.style.width = j > q ? "0" : (100 * w[j] / maxW).toFixed(1) + "%";
    });
  }

  function renderNote(nt, all, q, bos, others) {
    var state = nt.state, note = nt.attnNote;
    var masked = all.length - 1 - (q + 1);
    note.textContent = (state.layer + 1) + "층 헤드 " + (state.head + 1) + ": 쿼리는 " + (q + 1) + "번째 토큰 ";
    note.appendChild(quotedPiece(piece(nt, all[q]), "입니다."));
    note.appendChild(document.createTextNode(" 왼쪽 " + (q + 1) + "개(자기 포함)만 보고, 오른쪽 " + masked +
      "개는 인과 마스크로 가려져 가중치가 0입니다." +
      (state.hideBos ? " <bos>의 몫 " + withParticle(fixed3(bos), ["을", "를"]) + " 빼고, 나머지를 그 합 " +
        withParticle(fixed3(others), ["으로", "로"]) + " 나눠 합을 1로 맞췄습니다." : "")));
  }

  function failed(nt, err) {
    nt.box.setAttribute("data-ready", "failed");
    nt.box.textContent = "데이터를 받지 못했습니다 (" + err.message + "). 페이지를 새로 고쳐 보세요.";
  }

  /* ---- 붙이기 -------------------------------------------------------------------------------------- */

  function mount(box) {
    var nt = newTool(box);
    box.setAttribute("data-ready", "loading");
    box.textContent = "데이터를 받고 있습니다…";
    fetchJson(nt.src).then(function (data) {
      nt.index = data;
      build(nt);
      choosePrompt(nt, 0);
    }).catch(function (err) { failed(nt, err); });
  }

  window.nextToken = { probabilities: probabilities, decodeWeights: decodeWeights, numberFinal: numberFinal,
    withParticle: withParticle };
  document.querySelectorAll(".next-token[data-src]").forEach(mount);
})();
