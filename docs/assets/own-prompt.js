/* 여러분의 프롬프트로 (docs/own_prompt.md): 독자가 쓴 한국어 프롬프트를 Gemma 3 270M 으로 이 브라우저 안에서 계산합니다.
 *
 * 페이지에 <div class="own-prompt" data-src="../models/gemma-ko/manifest.json" data-scripts="…" data-sw="…"></div> 를 두면,
 * 독자가 가까이 내려올 때(overrides/main.html) 이 스크립트가 붙어 목록(manifest.json, 10 KB 남짓)만 받고 단추를 그립니다.
 * 모델 파일(75 MB)은 "모델 받기" 를 누를 때만 받습니다. 받기·확인·저장·계산은 모두 웹 워커(gemma-worker.js)가 합니다.
 *
 * 화면: 글 상자와 "계산하기" → 다음 토큰의 후보 10개 (온도·top-k·top-p 는 여기서 로짓에 적용합니다: snippets/lib/sampling.py 의
 * probabilities 와 같은 계산, 같은 차례) → "한 토큰 고르기" / "계속 쓰기"·"멈추기" / "처음으로" → 마지막 자리의 쿼리가
 * 앞 토큰들에 준 어텐션 가중치 (층·헤드를 고르고, <bos> 를 빼고 다시 나누기) → 층마다의 로짓 렌즈 (누를 때만 계산).
 * 저장: 워커가 받은 파일을 확인(sha256)한 뒤 Cache Storage 에 넣고, 모델을 한 번 연 뒤에는 "여러분의 문장으로" 와 같은
 * 서비스 워커(own-sentence-sw.js)를 이 페이지 폴더에 등록해 페이지도 네트워크 없이 열리게 합니다.
 */
(function () {
  "use strict";

  var MODEL_CACHE = "attention-gemma-ko";  // 모델 파일 (워커가 씁니다)
  var SHOWN = 10;  // 표에 보일 후보 수
  var SPACE = "\u2581";
  var INVISIBLE = { "\n": "↵", "\t": "⇥" };
  var common = window.attentionExplorers;  /* 공통 도구 (explorer-common.js): 요소, 단추 막기 */
  var model = window.modelTools;  /* 두 모델 도구의 공통 (model-tool.js): 틀, 모델 받기와 워커, 네트워크 없이 다시 오기 */
  var el = common.el, keepPageOffline = model.keepPageOffline;
  var say = model.say, fail = model.fail, clearProblem = model.clearProblem, blocked = common.blocked, mb = model.mb;

  /* ---- 확률: snippets/lib/sampling.py 의 probabilities 와 같은 계산 -------------------------------------------- */

  /* 행 번호를 로짓이 큰 차례로 (같으면 행 번호, 곧 id 가 작은 것부터: 부분 어휘의 행은 id 차례입니다).
     워커가 정렬해 보낸 차례(order)를 쓰고, 이것은 그것이 없을 때와 테스트를 위한 같은 규칙입니다. */
  function orderOf(logits) {
    var order = new Array(logits.length);
    for (var i = 0; i < order.length; i++) order[i] = i;
    order.sort(function (a, b) { return logits[b] - logits[a] || a - b; });
    return order;
  }

  /* 로짓 → 뽑을 확률 (행마다). 온도로 나눈 소프트맥스 → 상위 k 개 → 큰 것부터 더해 p 에 처음 닿는 곳까지 → 다시 나누기.
     T = 0 은 1등 하나, k = 0 과 p = 1 은 끔. */
  function probabilities(logits, order, T, k, p) {
    var out = new Float64Array(logits.length), n = order.length, i;
    if (T === 0) { out[order[0]] = 1; return out; }
    var z0 = logits[order[0]], e = new Float64Array(n), sum = 0;
    for (i = 0; i < n; i++) { e[i] = Math.exp((logits[order[i]] - z0) / T); sum += e[i]; }
    for (i = 0; i < n; i++) e[i] /= sum;
    if (k > 0 && k < n) {
      var top = 0;
      for (i = 0; i < k; i++) top += e[i];
      for (i = 0; i < n; i++) e[i] = i < k ? e[i] / top : 0;
      n = k;
    }
    var keep = n;
    if (p < 1) {
      var cum = 0;
      for (i = 0; i < n; i++) { cum += e[i]; if (cum >= p - 1e-12) { keep = i + 1; break; } }
    }
    var kept = 0;
    for (i = 0; i < keep; i++) kept += e[i];
    for (i = 0; i < keep; i++) out[order[i]] = e[i] / kept;
    return out;
  }

  /* u (0 ≤ u < 1) 로 확률대로 행 하나를 뽑습니다 (큰 것부터 더해 u 를 넘는 곳) */
  function sample(probs, order, u) {
    var acc = 0;
    for (var i = 0; i < order.length; i++) {
      acc += probs[order[i]];
      if (u < acc) return order[i];
    }
    return order[0];
  }

  /* ---- 글자 ------------------------------------------------------------------------------------------ */

  function percent(x) {
    if (x > 0 && x < 0.0005) return "<0.1%";
    return (100 * x).toFixed(1) + "%";
  }

  /* 조각 이름: ▁ 는 흐리게 (화면 읽기 프로그램에는 "띄어쓰기"), 줄바꿈·탭은 기호로 */
  function pieceLabel(piece) {
    var span = el("span", { "class": "own-prompt__piece" });
    if (piece.charAt(0) === SPACE) {
      span.appendChild(el("span", { "class": "own-prompt__space", "aria-hidden": "true" }, SPACE));
      span.appendChild(el("span", { "class": "own-prompt__sr" }, piece === SPACE ? "띄어쓰기" : "띄어쓰기 "));
      piece = piece.slice(1);
    }
    if (piece) span.appendChild(document.createTextNode(piece.replace(/[\n\t]/g, function (c) { return INVISIBLE[c]; })));
    return span;
  }

  /* 조각들 → 글: ▁ 는 공백, 이어진 바이트 조각(<0xEC> …)은 UTF-8 로 풀고, 특수 토큰(<bos> …)은 뺍니다 */
  function textOf(pieces) {
    var out = "", bytes = [];
    function flush() {
      if (bytes.length) out += new TextDecoder().decode(new Uint8Array(bytes));
      bytes = [];
    }
    pieces.forEach(function (p) {
      var m = /^<0x([0-9A-F]{2})>$/.exec(p);
      if (m) { bytes.push(parseInt(m[1], 16)); return; }
      flush();
      if (!/^<[a-z_]+>$/.test(p)) out += p.split(SPACE).join(" ");
    });
    flush();
    return out;
  }

  function packBytes(manifest) { return model.packBytes(manifest, "ko"); }

  /* ---- 도구 하나: 틀 --------------------------------------------------------------------------------- */

  function build(root, manifest) {
    var tool = newTool(root, manifest);
    model.buildModelTool(tool, "own-prompt", "여러분의 프롬프트", compute, buildControls);
    openSaved(tool);
  }

  /* 도구 하나의 상태 (공통인 것은 model.modelTool) */
  function newTool(root, manifest) {
    return model.modelTool(root, manifest, "op-", {
      allowed: null,  // 프롬프트 글자의 집합 (처음 계산할 때 만듭니다: 페이지를 여는 동안 11,000자를 늘어놓지 않게)
      running: false,  // "계속 쓰기" 중
      step: null,  // 지금 걸음: {ids, tokens, logits, attention, order, prompt (토큰 수), chosen}
      knobs: { T: 1, k: 0, p: 1 }, view: { layer: 5, head: 0, hideBos: false },
      parts: null  // 결과 상자의 자리들 (resultParts)
    });
  }

  function buildControls(tool) {
    var m = tool.manifest, controls = el("div", { "class": "own-prompt__controls" });
    tool.get = controls.appendChild(el("button", { type: "button", "class": "own-prompt__get" },
                                       "모델 받기 (약 " + mb(packBytes(m)) + " MB)"));
    tool.gets = [tool.get];
    tool.root.appendChild(controls);
    var terms = el("p", { "class": "own-prompt__terms" });
    terms.appendChild(document.createTextNode("받는 파일은 Google의 Gemma 3 270M을 이 사이트가 고친 것(어휘를 줄임)이고, " +
      "Gemma Terms of Use를 따릅니다. 받으면 그 조건과 사용 제한(3.2절)에 동의하는 것입니다: "));
    [["NOTICE.txt", "안내와 바꾼 것"], ["GEMMA_TERMS.txt", "조건의 글"]].forEach(function (f, i) {
      if (i) terms.appendChild(document.createTextNode(", "));
      terms.appendChild(el("a", { href: new URL(f[0], tool.base).href }, f[1]));
    });
    terms.appendChild(document.createTextNode("."));
    tool.root.appendChild(terms);
    tool.get.addEventListener("click", function () { if (!blocked(tool.get)) loadModel(tool); });
  }

  /* ---- 도구 하나: 모델 받기와 워커 ------------------------------------------------------------------- */

  /* 받기 전에 이 브라우저의 저장 공간을 봅니다: 모자라면 받기는 하되 저장하지 못할 것이라고 미리 적습니다. */
  function storageNote(tool) {
    if (!(navigator.storage && navigator.storage.estimate)) return Promise.resolve();
    return navigator.storage.estimate().then(function (e) {
      if (e.quota && e.quota - (e.usage || 0) < packBytes(tool.manifest)) {
        tool.modelNote.textContent = "이 브라우저에 남은 저장 공간(약 " + mb(e.quota - (e.usage || 0)) + " MB)이 모델보다 작습니다. " +
          "받아서 계산은 하지만 저장하지 못할 수 있습니다.";
      }
    }).catch(function () {});
  }

  function loadModel(tool) {
    model.loadModel(tool, onMessage, { type: "load", manifest: tool.manifest, base: tool.base.href, cache: MODEL_CACHE },
                     function () { return storageNote(tool); });
  }

  /* 워커(gemma-worker.js)가 보내는 말 */
  function onMessage(tool, m) {
    model.workerSaid(tool, m, "모델을 준비하고 있습니다 (GGUF 블록을 8비트 정수로 폅니다)…",
                      { ready: modelReady, step: gotStep, lens: gotLens });
  }

  function modelReady(tool, m) {
    tool.vocab = m.vocab;  // 부분 어휘의 원래 id 와 조각 (행 순서): 후보와 렌즈의 이름
    model.modelOpened(tool, m);
    tool.root.setAttribute("data-saved", m.saved ? "yes" : "no");
    tool.modelNote.textContent = m.cached ? model.OPENED.cache : m.saved ? model.OPENED.saved :
      m.storeError === "quota" ? "저장 공간이 모자라 모델을 저장하지 못했습니다. 지금은 계산할 수 있지만, 다음에 오면 다시 받아야 하고 네트워크 없이는 열 수 없습니다." :
      "이 브라우저에 모델을 저장하지 못했습니다 (사생활 보호 창 등). 지금은 계산할 수 있습니다.";
    if (m.saved || m.cached) keepPageOffline(tool.root, tool.scripts);
    if (tool.pending !== null || tool.input.value.trim()) compute(tool);  // 기다리던 프롬프트(없으면 글 상자의 예)를 바로
  }

  /* 저장된 모델이 있으면 단추를 누르지 않아도 바로 엽니다 (받지 않습니다) */
  function openSaved(tool) {
    if (!window.caches) return;
    model.packSaved(tool, MODEL_CACHE, "ko").then(function (saved) {
      if (saved && !tool.worker) loadModel(tool);
    }).catch(function () {});
  }

  /* ---- 도구 하나: 계산 ------------------------------------------------------------------------------- */

  function compute(tool) {
    tool.allowed = tool.allowed || window.GemmaTokenizer.charSet(tool.manifest.prompt_chars);
    var text = tool.input.value, problem = window.GemmaTokenizer.checkPrompt(text, tool.allowed);
    tool.pending = null;
    stopRunning(tool);
    if (problem) { showError(tool, problem); return; }  // 글자는 모델 없이도 봅니다
    if (!tool.ready) {
      tool.pending = text;
      // 받는 중이면 받은 뒤에 계산합니다. 아니면 75 MB 를 말없이 받지 않고 묻습니다
      if (!tool.loading) model.askToLoad(tool, "이 프롬프트를", packBytes(tool.manifest));
      return;
    }
    ask(tool, { type: "start", text: text }, "프롬프트를 읽고 있습니다…");
  }

  // 워커에 보내는 요청 (start, next, lens): 답이 오면 무엇을 물었는지(asked) 봅니다
  function ask(tool, msg, saying) {
    tool.asked = msg.type;
    model.ask(tool, msg, "busy", saying);
  }

  function gotStep(tool, m) {
    if (!model.answered(tool, m)) return;
    if (m.error) {
      stopRunning(tool);
      if (tool.asked === "next" && tool.step) fail(tool, m.error.message, m.error.kind);  // 앞의 결과는 그대로 둡니다
      else showError(tool, m.error);
      return;
    }
    clearProblem(tool);
    var first = tool.asked === "start";
    tool.step = { ids: m.ids, tokens: m.tokens, logits: m.logits, attention: m.attention, order: m.order || orderOf(m.logits),
                  prompt: first ? m.ids.length : tool.step.prompt, ms: m.ms, lens: null };
    show(tool);
    say(tool, (first ? "프롬프트 토큰 " + m.ids.length + "개를 읽는 데 " : "토큰 하나를 더 읽는 데 ") +
              (m.ms / 1000).toFixed(2) + "초 걸렸습니다.");
    if (tool.running) setTimeout(function () { if (tool.running) chooseOne(tool); }, 0);
  }

  function showError(tool, err) {
    model.clearResult(tool);
    tool.parts = null;
    tool.step = null;
    fail(tool, err.message, err.kind);
  }

  /* ---- 결과: 글, 후보, 손잡이, 단추, 어텐션, 로짓 렌즈 --------------------------------------------------- */

  function show(tool) {
    if (!tool.parts) resultParts(tool);
    renderText(tool);
    renderCandidates(tool);
    renderAttention(tool);
    tool.parts.lens.textContent = "";
    tool.parts.lensButton.hidden = false;
    tool.root.setAttribute("data-result", "ok");
  }

  /* 결과 상자의 자리들: 처음 한 번 만들고 그 뒤에는 내용만 바꿉니다 */
  function resultParts(tool) {
    var r = tool.result, P = tool.parts = {};
    r.textContent = "";
    P.text = r.appendChild(el("p", { "class": "own-prompt__text", "aria-live": "polite" }));
    P.tokens = r.appendChild(el("p", { "class": "own-prompt__tokens" }));
    r.appendChild(el("p", { "class": "own-prompt__heading" }, "다음 토큰의 후보"));
    knobs(tool, r.appendChild(el("div", { "class": "own-prompt__knobs" })));
    P.table = r.appendChild(el("table", { "class": "own-prompt__table" }));
    P.outside = r.appendChild(el("p", { "class": "own-prompt__note" }, outsideNote(tool.manifest)));
    actions(tool, r.appendChild(el("div", { "class": "own-prompt__actions" })));
    r.appendChild(el("p", { "class": "own-prompt__heading" }, "다음 토큰을 고르는 자리의 어텐션 가중치"));
    attentionControls(tool, r.appendChild(el("div", { "class": "own-prompt__knobs" })));
    P.attnNote = r.appendChild(el("p", { "class": "own-prompt__note", "aria-live": "polite" }));
    P.strip = r.appendChild(el("div", { "class": "own-prompt__strip", role: "list", "aria-label": "키마다 받은 가중치" }));
    r.appendChild(el("p", { "class": "own-prompt__heading" }, "층마다 본 다음 토큰 (로짓 렌즈)"));
    P.lensButton = r.appendChild(el("button", { type: "button", "class": "own-prompt__button own-prompt__lens-button" }, "층마다 보기"));
    P.lensButton.addEventListener("click", function () { askLens(tool); });
    P.lens = r.appendChild(el("div", { "class": "own-prompt__lens", "aria-live": "polite" }));
  }

  /* 빌드가 잰, 부분 어휘 밖의 몫 (manifest.outside) */
  function outsideNote(manifest) {
    var o = manifest.outside, v = manifest.vocab.count, full = manifest.config.vocab;
    return "확률은 이 브라우저가 아는 조각 " + v.toLocaleString("en-US") + "개(어휘 " + full.toLocaleString("en-US") +
      "개 가운데 한글·숫자·문장부호 조각) 안에서 나눈 것입니다. 나머지 조각이 가졌을 몫은 여기서 알 수 없습니다: " +
      "빌드할 때 이 사이트의 다른 장에서 뽑은 한국어 글 " + o.texts + "개의 " + o.positions.toLocaleString("en-US") +
      "자리에서 재어 보니 중앙값 " + percent(o.median) + ", 열에 아홉은 " + percent(o.p90) + " 이하였고, 가장 컸던 자리는 " +
      percent(o.worst) + "(프롬프트 '" + o.worst_prompt + "')였습니다.";
  }

  function field(tool, name, label, attrs) {
    var wrap = el("div", { "class": "own-prompt__field" }), id = tool.uid + "-" + name;
    wrap.appendChild(el("label", { "for": id }, label));
    var input = wrap.appendChild(el("input", Object.assign({ id: id, type: "range", "data-knob": name }, attrs)));
    var out = wrap.appendChild(el("output", { "for": id, "class": "own-prompt__value" }));
    return { input: input, out: out };
  }

  /* 온도·top-k·top-p: 움직이면 같은 로짓으로 확률만 다시 셉니다 (모델을 다시 돌리지 않습니다) */
  function knobs(tool, box) {
    var T = field(tool, "t", "온도 T", { min: "0", max: "2", step: "0.05", value: "1" });
    var K = field(tool, "k", "top-k", { min: "0", max: "50", step: "1", value: "0" });
    var P = field(tool, "p", "top-p", { min: "0.05", max: "1", step: "0.05", value: "1" });
    [T, K, P].forEach(function (f) { box.appendChild(f.input.parentNode); });
    function update(render) {
      tool.knobs = { T: Number(T.input.value), k: Number(K.input.value), p: Number(P.input.value) };
      T.out.textContent = tool.knobs.T === 0 ? "0 (1등만)" : tool.knobs.T.toFixed(2);
      K.out.textContent = tool.knobs.k === 0 ? "끔" : String(tool.knobs.k);
      P.out.textContent = tool.knobs.p >= 1 ? "끔" : tool.knobs.p.toFixed(2);
      if (render && tool.step) renderCandidates(tool);
    }
    [T, K, P].forEach(function (f) { f.input.addEventListener("input", function () { update(true); }); });
    update(false);
  }

  function actions(tool, box) {
    var P = tool.parts;
    P.choose = box.appendChild(el("button", { type: "button", "class": "own-prompt__button own-prompt__choose" }, "한 토큰 고르기"));
    P.auto = box.appendChild(el("button", { type: "button", "class": "own-prompt__button own-prompt__auto", "aria-pressed": "false" }, "계속 쓰기"));
    P.reset = box.appendChild(el("button", { type: "button", "class": "own-prompt__button own-prompt__reset" }, "처음으로"));
    P.choose.addEventListener("click", function () { if (!tool.busy) { stopRunning(tool); chooseOne(tool); } });
    P.auto.addEventListener("click", function () {
      if (tool.running) { stopRunning(tool); return; }
      tool.running = true;
      P.auto.textContent = "멈추기";
      P.auto.setAttribute("aria-pressed", "true");
      if (!tool.busy) chooseOne(tool);
    });
    P.reset.addEventListener("click", function () { if (!tool.busy) { stopRunning(tool); compute(tool); } });
  }

  function stopRunning(tool) {
    tool.running = false;
    if (tool.parts && tool.parts.auto) {
      tool.parts.auto.textContent = "계속 쓰기";
      tool.parts.auto.setAttribute("aria-pressed", "false");
    }
  }

  /* 지금 손잡이의 확률대로 하나를 뽑아 워커에 더 읽게 합니다. <eos> 나 길이 끝이면 멈춥니다. */
  function chooseOne(tool) {
    var s = tool.step, c = tool.manifest.config;
    if (!s || tool.busy) return;
    if (s.ids.length - s.prompt >= c.max_new) {
      stopRunning(tool);
      say(tool, "프롬프트 뒤로 " + c.max_new + "토큰까지 이어 썼습니다. 이 도구는 여기까지 계산합니다.");
      return;
    }
    var probs = probabilities(s.logits, s.order, tool.knobs.T, tool.knobs.k, tool.knobs.p);
    var row = sample(probs, s.order, Math.random()), id = tool.vocab.ids[row];
    tool.root.setAttribute("data-chosen", String(id));
    if (tool.vocab.pieces[row] === "<eos>") {
      stopRunning(tool);
      say(tool, "모델이 글의 끝(<eos>)을 골랐습니다. 더 이어 쓰지 않습니다.");
      return;
    }
    ask(tool, { type: "next", token: id }, "토큰 하나를 더 읽고 있습니다…");
  }

  /* 프롬프트와 이어 쓴 글 (이어 쓴 부분은 강조), 그리고 프롬프트의 토큰들 */
  function renderText(tool) {
    var s = tool.step, P = tool.parts;
    P.text.textContent = "";
    P.text.appendChild(document.createTextNode(textOf(s.tokens.slice(0, s.prompt))));
    P.text.appendChild(el("span", { "class": "own-prompt__generated" }, textOf(s.tokens.slice(s.prompt))));
    P.text.appendChild(el("span", { "class": "own-prompt__cursor", "aria-hidden": "true" }, " ▮"));
    P.text.appendChild(el("span", { "class": "own-prompt__sr" }, " (여기에 올 토큰을 고릅니다)"));
    P.tokens.textContent = "프롬프트의 토큰 " + s.prompt + "개" + (s.ids.length > s.prompt ? ", 이어 쓴 토큰 " + (s.ids.length - s.prompt) + "개" : "") + ": ";
    s.tokens.forEach(function (t, j) {
      if (j) P.tokens.appendChild(document.createTextNode(" · "));
      var label = P.tokens.appendChild(pieceLabel(t));
      if (j >= s.prompt) label.classList.add("own-prompt__new");
    });
  }

  /* 후보 10개: T = 1 의 확률과 지금 손잡이의 확률 (막대). 그 밖의 후보는 한 줄로. */
  function renderCandidates(tool) {
    var s = tool.step, k = tool.knobs, table = tool.parts.table;
    var r = probabilities(s.logits, s.order, k.T, k.k, k.p), raw = probabilities(s.logits, s.order, 1, 0, 1);
    var top = Array.prototype.slice.call(s.order, 0, SHOWN), rest = 0, restRaw = 0, kept = 0;
    for (var i = 0; i < s.order.length; i++) {
      var row = s.order[i];
      if (r[row] > 0) kept += 1;
      if (i >= SHOWN) { rest += r[row]; restRaw += raw[row]; }
    }
    table.textContent = "";
    table.appendChild(el("caption", { "class": "own-prompt__sr" }, "후보 " + SHOWN + "개와 뽑을 확률"));
    var head = table.appendChild(el("thead")).appendChild(el("tr"));
    ["후보", "T = 1", "지금 손잡이"].forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    var body = table.appendChild(el("tbody"));
    top.forEach(function (row) { body.appendChild(candidateRow(tool, row, raw[row], r[row])); });
    var more = body.appendChild(el("tr", { "class": "own-prompt__more" }));
    more.appendChild(el("th", { scope: "row" }, "그 밖의 후보 " + (s.order.length - SHOWN).toLocaleString("en-US") + "개"));
    more.appendChild(el("td", { "data-value": "raw-more" }, percent(restRaw)));
    more.appendChild(probCell("p-more", rest, rest === 0));
    table.setAttribute("data-candidates", JSON.stringify({ T: k.T, k: k.k, p: k.p, kept: kept,
      ids: top.map(function (row) { return tool.vocab.ids[row]; }), raw: top.map(function (row) { return raw[row]; }),
      probs: top.map(function (row) { return r[row]; }), rest: rest }));
  }

  function candidateRow(tool, row, raw, p) {
    var tr = el("tr", { "data-id": String(tool.vocab.ids[row]) });
    if (p === 0) tr.className = "is-cut";
    tr.appendChild(el("th", { scope: "row" })).appendChild(pieceLabel(tool.vocab.pieces[row]));
    tr.appendChild(el("td", { "data-value": "raw" }, percent(raw)));
    tr.appendChild(probCell("p", p, p === 0));
    return tr;
  }

  function probCell(name, value, cut) {
    var cell = el("td", { "data-value": name }), wrap = cell.appendChild(el("span", { "class": "own-prompt__cell" }));
    wrap.appendChild(el("span", { "class": "own-prompt__num" }, cut ? "잘림" : percent(value)));
    var bar = wrap.appendChild(el("span", { "class": "own-prompt__track", "aria-hidden": "true" })).appendChild(el("span", { "class": "own-prompt__bar" }));
    bar.style.width = cut ? "0" : (100 * value).toFixed(1) + "%";
    return cell;
  }

  /* 층·헤드 고르기와 <bos> 빼기 */
  function attentionControls(tool, box) {
    var c = tool.manifest.config, v = tool.view;
    var layer = selectField(tool, box, "layer", "층", c.layers, function (l) {
      return (l + 1) + "층" + (c.global_layers.indexOf(l) >= 0 ? " (전역)" : " (지역, 창 " + c.window + ")");
    }, v.layer);
    var head = selectField(tool, box, "head", "헤드", c.heads, function (h) { return "헤드 " + (h + 1); }, v.head);
    var wrap = box.appendChild(el("div", { "class": "own-prompt__field own-prompt__field--check" }));
    var bos = wrap.appendChild(el("input", { id: tool.uid + "-bos", type: "checkbox" }));
    wrap.appendChild(el("label", { "for": bos.id }, "<bos>를 빼고 나머지로 다시 나누기"));
    layer.addEventListener("change", function () { v.layer = Number(layer.value); renderAttention(tool); });
    head.addEventListener("change", function () { v.head = Number(head.value); renderAttention(tool); });
    bos.addEventListener("change", function () { v.hideBos = bos.checked; renderAttention(tool); });
  }

  function selectField(tool, box, name, label, count, text, value) {
    var wrap = box.appendChild(el("div", { "class": "own-prompt__field" })), id = tool.uid + "-" + name;
    wrap.appendChild(el("label", { "for": id }, label));
    var select = wrap.appendChild(el("select", { id: id, "data-pick": name }));
    for (var i = 0; i < count; i++) select.appendChild(el("option", { value: String(i) }, text(i)));
    select.value = String(value);
    return select;
  }

  /* 마지막 자리(다음 토큰을 고르는 쿼리)가 앞 토큰들에 준 가중치. 오른쪽 토큰은 없습니다: 쿼리가 맨 끝입니다. */
  function renderAttention(tool) {
    var s = tool.step, c = tool.manifest.config, v = tool.view, n = s.ids.length, strip = tool.parts.strip;
    var at = (v.layer * c.heads + v.head) * n, w = Array.prototype.slice.call(s.attention, at, at + n);
    var local = c.global_layers.indexOf(v.layer) < 0, from = local ? Math.max(0, n - c.window) : 0;
    var bos = w[0], others = 1 - bos;
    var shown = v.hideBos ? w.map(function (x, j) { return j === 0 || others <= 0 ? 0 : x / others; }) : w;
    var top = Math.max.apply(null, shown.concat([1e-12]));
    strip.textContent = "";
    s.tokens.forEach(function (t, j) {
      var chip = strip.appendChild(el("span", { "class": "own-prompt__chip", role: "listitem" }));
      if (j === n - 1) chip.classList.add("is-query");
      if (j < from) chip.classList.add("is-outside");
      chip.appendChild(pieceLabel(t));
      var value = j < from ? "창 밖" : j === 0 && v.hideBos ? "뺌" : shown[j].toFixed(3);
      chip.appendChild(el("span", { "class": "own-prompt__w", "data-key": String(j) }, value));
      chip.appendChild(el("span", { "class": "own-prompt__wbar", "aria-hidden": "true" })).style.width = (100 * shown[j] / top).toFixed(1) + "%";
    });
    tool.parts.attnNote.textContent = attentionNote(tool, n, local, from, bos, others);
    strip.setAttribute("data-attention", JSON.stringify({ layer: v.layer, head: v.head, hideBos: v.hideBos, weights: shown }));
  }

  function attentionNote(tool, n, local, from, bos, others) {
    var c = tool.manifest.config, v = tool.view;
    var text = (v.layer + 1) + "층 헤드 " + (v.head + 1) + ": 쿼리는 마지막 토큰(" + n + "번째)입니다. 디코더는 왼쪽만 봅니다: " +
      "이 쿼리는 자기와 그 앞의 " + (n - 1) + "개를 봅니다. ";
    text += local ? (from > 0 ? "지역 층이라 가장 가까운 " + c.window + "개만 보고, 앞의 " + from + "개는 창 밖입니다. "
                              : "지역 층이라 가장 가까운 " + c.window + "개만 보지만, 이 글은 그보다 짧아 창 밖의 토큰이 없습니다. ")
                  : "전역 층이라 앞의 모든 토큰을 봅니다. ";
    if (v.hideBos) text += "<bos>의 몫 " + bos.toFixed(3) + "을 빼고, 나머지를 그 합 " + others.toFixed(3) + "로 나눠 합을 1로 맞췄습니다.";
    return text;
  }

  /* ---- 로짓 렌즈: 층마다 잔차 흐름을 마지막 층처럼 읽어 본 것 (누를 때만 계산) ----------------------------- */

  function askLens(tool) {
    if (tool.busy || !tool.step) return;
    stopRunning(tool);
    ask(tool, { type: "lens" }, "층마다 다음 토큰을 읽어 보고 있습니다…");
  }

  function gotLens(tool, m) {
    if (!model.answered(tool, m)) return;
    if (m.error) { fail(tool, m.error.message, m.error.kind); return; }
    say(tool, "층 " + tool.manifest.config.layers + "개를 읽어 보는 데 " + (m.ms / 1000).toFixed(2) + "초 걸렸습니다.");
    lensTable(tool, m.probs);
  }

  /* 층마다: 그 층 뒤의 1등 조각과 확률, 그리고 마지막 층의 1등(이 자리의 "결국 나온" 토큰)이 그 층에서 가진 확률 */
  function lensTable(tool, probs) {
    var L = tool.manifest.config.layers, V = tool.vocab.ids.length, box = tool.parts.lens, rows = [];
    var last = (L - 1) * V, eventual = 0;
    for (var i = 1; i < V; i++) if (probs[last + i] > probs[last + eventual]) eventual = i;
    box.textContent = "";
    var table = box.appendChild(el("table", { "class": "own-prompt__table own-prompt__lens-table" }));
    var head = table.appendChild(el("thead")).appendChild(el("tr"));
    head.appendChild(el("th", { scope: "col" }, "층"));
    head.appendChild(el("th", { scope: "col" }, "그 층의 1등"));
    head.appendChild(el("th", { scope: "col" })).appendChild(pieceLabel(tool.vocab.pieces[eventual])).insertAdjacentText("afterend", "의 확률");
    var body = table.appendChild(el("tbody"));
    for (var l = 0; l < L; l++) {
      var best = 0, at = l * V;
      for (var j = 1; j < V; j++) if (probs[at + j] > probs[at + best]) best = j;
      var tr = body.appendChild(el("tr"));
      tr.appendChild(el("th", { scope: "row" }, String(l + 1)));
      var cell = tr.appendChild(el("td"));
      cell.appendChild(pieceLabel(tool.vocab.pieces[best]));
      cell.appendChild(document.createTextNode(" " + percent(probs[at + best])));
      tr.appendChild(el("td", { "data-value": "eventual" }, percent(probs[at + eventual])));
      rows.push({ top: tool.vocab.ids[best], p: probs[at + best], eventual: probs[at + eventual] });
    }
    box.appendChild(el("p", { "class": "own-prompt__note" }, "층마다 그 층 뒤의 잔차 흐름에 마지막 층과 같은 RMS 정규화와 임베딩 표를 써서 " +
      "읽은 것입니다. 앞 층의 1등은 그 층이 \"생각한\" 답이 아니라, 그 층의 값을 마지막 층인 것처럼 읽었을 때의 답입니다."));
    box.setAttribute("data-lens", JSON.stringify({ eventual: tool.vocab.ids[eventual], layers: rows }));
  }

  /* ---- 목록 받기와 시작 ------------------------------------------------------------------------------ */

  /* 페이지를 여는 일(글자 그리기, Material 의 시작)과 겹치지 않게: 도구는 페이지의 load 뒤, 브라우저가 한가할 때 목록을
     받고 그립니다. 그래서 도구가 첫 화면 가까이 있어도 페이지가 처음 그려지는 속도(LCP, TBT)에 끼어들지 않습니다. */
  function whenIdle(fn) {
    function idle() {
      if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 2000 });
      else setTimeout(fn, 0);
    }
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  }

  function init() {
    model.openModelTools(".own-prompt[data-src]", "여러분의 프롬프트로 계산할 도구를 준비하고 있습니다…", "gemma-browser/1", build,
                          whenIdle);
  }

  window.ownPrompt = { probabilities: probabilities, orderOf: orderOf, sample: sample, textOf: textOf };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
