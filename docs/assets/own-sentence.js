/* 여러분의 문장으로: 글 상자, "모델 받기" 단추, 받는 동안의 진행 막대, 그리고 계산한 문장을 헤드 탐색기와 조사 표로.
 * 조사 표 아래의 "헤드 끄기" 상자는 헤드나 층을 끄고 워커가 다시 계산한 것(e5-worker.js 의 "ablate")을 보여 줍니다.
 *
 * 페이지에 <div class="own-sentence" data-src="../models/e5-ko/manifest.json" data-scripts="…"></div> 를 두면,
 * 독자가 가까이 내려올 때(overrides/main.html) 이 스크립트가 붙어 목록(manifest.json, 17 KB)만 받고 단추를 그립니다.
 * 모델 파일(14 MB 남짓)은 단추를 누를 때만 받습니다. 받기·확인·저장·계산은 모두 웹 워커(e5-worker.js)가 합니다:
 * 페이지는 멈추지 않습니다.
 *
 * 저장: 워커가 받은 파일을 확인(sha256)한 뒤 브라우저의 Cache Storage 에 넣습니다. 다음에 오면 저장된 파일로 바로 열고,
 * 네트워크가 없어도 됩니다. 페이지 자체도 네트워크 없이 열리도록, 모델을 한 번 연 뒤에는 이 페이지만 맡는 작은
 * 서비스 워커(own-sentence-sw.js)를 등록하고 이 페이지가 쓰는 파일을 저장해 둡니다.
 */
(function () {
  "use strict";

  var MODEL_CACHE = "attention-e5-ko";  // 모델 파일 (워커가 씁니다)
  var HISTORY = 3;  // 탐색기에 남겨 둘 문장 수
  var common = window.attentionExplorers;  /* 공통 도구 (explorer-common.js): 요소, 단추 막기 */
  var model = window.modelTools;  /* 두 모델 도구의 공통 (model-tool.js): 틀, 모델 받기와 워커, 네트워크 없이 다시 오기 */
  var el = common.el, keepPageOffline = model.keepPageOffline;
  var say = model.say, fail = model.fail, clearProblem = model.clearProblem, setState = model.setState;
  var setBlocked = common.setBlocked, blocked = common.blocked, mb = model.mb, packBytes = model.packBytes;

  /* ---- 조사 찾기 (snippets/lib/particles.py 의 find_particles, unsplit_words 와 같은 규칙) ------------- */

  var SPACE = "\u2581";
  var PARTICLES = ["이", "가", "은", "는", "을", "를", "의", "에", "에서", "에게", "께서", "께", "한테", "으로", "로",
                   "와", "과", "도", "만", "까지", "부터", "마다", "처럼", "보다", "이나", "이랑", "조차", "에는",
                   "에서는", "으로는", "로는", "에도", "에서도", "와는", "과는", "에게는", "한테는", "까지는", "부터는"];
  var PUNCTUATION = ".,!?;:\"'()[]{}…~-";
  var HEAD = [6, 10];  // 헤드 7-11
  // 받침에 따라 모양이 바뀌는 조사 ("으로" 는 ㄹ 받침 뒤에 오지 않고 "로" 는 ㄹ 받침 뒤에도 옵니다)
  var AFTER_CONSONANT = ["이", "은", "을", "과", "이나", "이랑", "으로", "과는", "으로는"];
  var AFTER_VOWEL = ["가", "는", "를", "와", "로", "와는", "로는"];
  var RIEUL = 8;  // 받침 번호 8 = ㄹ

  function isPunctuation(token) { return token.length === 1 && PUNCTUATION.indexOf(token) >= 0; }

  /* 문장 조각(first ≤ 자리 < last)을 어절로: ▁ 로 시작하는 조각이 새 어절 */
  function wordsOf(tokens, first, last) {
    var words = [];
    for (var i = first; i < last; i++) {
      if (tokens[i].charAt(0) === SPACE || !words.length) words.push([]);
      words[words.length - 1].push(i);
    }
    return words;
  }

  /* 한글 음절의 받침 번호 (0 = 없음), 한글 음절이 아니면 null */
  function finalConsonant(ch) {
    var code = ch.charCodeAt(0) - 0xac00;
    return code >= 0 && code < 11172 ? code % 28 : null;
  }

  /* 조사가 앞 글자의 받침과 맞는지 ("사과" 의 "과" 는 받침 없는 "사" 뒤라 맞지 않습니다). 숫자·기호 뒤는 맞다고 봅니다. */
  function agrees(host, particle) {
    var jong = host ? finalConsonant(host.charAt(host.length - 1)) : null;
    if (jong === null) return true;
    if (AFTER_CONSONANT.indexOf(particle) >= 0) return jong !== 0 && !(particle.indexOf("으로") === 0 && jong === RIEUL);
    if (AFTER_VOWEL.indexOf(particle) >= 0) return jong === 0 || (particle.indexOf("로") === 0 && jong === RIEUL);
    return true;
  }

  function findParticles(tokens, first, last) {
    var found = [];
    wordsOf(tokens, first, last).forEach(function (word) {
      var body = word.filter(function (t) { return !isPunctuation(tokens[t]); });
      if (body.length < 2 || body.some(function (t, k) { return t !== word[k]; })) return;
      var p = body[body.length - 1];
      var host = body.slice(0, -1).filter(function (t) { return tokens[t] !== SPACE; });
      var hostText = host.map(function (t) { return tokens[t]; }).join("");
      if (PARTICLES.indexOf(tokens[p]) >= 0 && host.length && agrees(hostText, tokens[p])) found.push({ particle: p, host: host });
    });
    return found;
  }

  /* 끝이 조사처럼 보이지만 표에 넣지 못한 어절들 [{word, particle}]: 조사가 앞 글자와 한 조각으로 묶였거나("▁나는"),
     어절 가운데 문장부호가 있는("3,500원에") 경우. 조사가 아닌 말도 모양만으로는 들어옵니다. */
  var BY_LENGTH = PARTICLES.slice().sort(function (a, b) { return b.length - a.length; });
  function unsplitWords(tokens, first, last) {
    var inTable = {}, out = [];
    findParticles(tokens, first, last).forEach(function (f) { inTable[f.particle] = true; });
    wordsOf(tokens, first, last).forEach(function (word) {
      if (word.some(function (t) { return inTable[t]; })) return;
      var text = word.map(function (t) { return tokens[t]; }).join("").split(SPACE).join("");
      while (text && PUNCTUATION.indexOf(text.charAt(text.length - 1)) >= 0) text = text.slice(0, -1);
      for (var k = 0; k < BY_LENGTH.length; k++) {
        var particle = BY_LENGTH[k], host = text.slice(0, text.length - particle.length);
        if (text.length > particle.length && text.slice(-particle.length) === particle && agrees(host, particle)) {
          out.push({ word: text, particle: particle });
          break;
        }
      }
    });
    return out;
  }

  /* ---- 도구 하나 ------------------------------------------------------------------------------------
     build 가 도구 하나를 만듭니다 (head-explorer.js 의 build 와 같은 모양). 상태와 화면의 부분은 객체 하나(tool)에
     있고, 아래의 함수들은 그것을 첫 인자로 받습니다. 이벤트 처리 함수는 누를 때의 tool 을 읽습니다: 워커와 탐색기는
     나중에 생기고 바뀝니다. */

  function build(root, manifest) {
    var tool = newTool(root, manifest);
    model.buildModelTool(tool, "own-sentence", "여러분의 문장", compute, buildControls);
    openSaved(tool);
  }

  /* 도구 하나의 상태 (공통인 것은 model.modelTool). 화면의 부분(form, input, get, bar, result, …)은 build… 함수들이
     채웁니다. busy(워커가 계산하는 중)는 계산하기와 함께 끄기도 막습니다. */
  function newTool(root, manifest) {
    return model.modelTool(root, manifest, "os-", {
      history: [],  // 계산한 문장, 새것부터 HISTORY 개 (탐색기의 문장 목록)
      explorer: null,  // headExplorer.mount 가 돌려준 것
      summaryBox: null, particlesBox: null, ablationBox: null, explorerBox: null,  // 결과 상자의 네 자리 (resultParts)
      hideEnds: false,  // 조사 표에서 <s>, </s> 를 빼고 나눠 보여 주는지 (endsSwitch)
      ablation: null  // 헤드 끄기 상자 {entry, layer, head, whole, out, button, asked} (ablationPanel)
    });
  }

  /* ---- 도구 하나: 틀 만들기 ---------------------------------------------------------------------- */

  // 받기 단추 둘: 모델, 그리고 라틴 문자가 든 문장에만 보이는 영어 조각
  function buildControls(tool) {
    var manifest = tool.manifest;
    var get = tool.get = el("button", { type: "button", "class": "own-sentence__get", "data-pack": "ko" },
                            "모델 받기 (약 " + mb(packBytes(manifest, "ko")) + " MB)");
    var getLatin = tool.getLatin = el("button", { type: "button", "class": "own-sentence__get", "data-pack": "latin", hidden: "" },
                                      "영어 조각 받기 (약 " + mb(packBytes(manifest, "latin")) + " MB)");
    tool.gets = [get, getLatin];
    var controls = el("div", { "class": "own-sentence__controls" });
    controls.appendChild(get);
    controls.appendChild(getLatin);
    tool.root.appendChild(controls);
    get.addEventListener("click", function () { if (!blocked(get)) loadPacks(tool, ["ko"]); });
    getLatin.addEventListener("click", function () { if (!blocked(getLatin)) loadPacks(tool, ["ko", "latin"]); });
  }

  /* ---- 도구 하나: 모델 받기와 워커 ---------------------------------------------------------------- */

  // 묶음 packs (["ko"] 또는 ["ko", "latin"]) 를 받아 엽니다
  function loadPacks(tool, packs) {
    model.loadModel(tool, onMessage, { type: "load", manifest: tool.manifest, base: tool.base.href, packs: packs,
                                        cache: MODEL_CACHE, palette: window.headExplorer.PALETTE });
  }

  /* 워커(e5-worker.js)가 보내는 말 */
  function onMessage(tool, m) {
    model.workerSaid(tool, m, "모델을 준비하고 있습니다 (4비트 파라미터를 풉니다)…",
                      { ready: modelReady, result: gotResult, ablated: gotAblated });
  }

  function modelReady(tool, m) {
    model.modelOpened(tool, m);
    if (m.packs.indexOf("latin") >= 0) model.hideButton(tool, tool.getLatin);
    tool.root.setAttribute("data-packs", m.packs.join(" "));
    tool.modelNote.textContent = m.cached ? model.OPENED.cache : model.OPENED.saved;
    keepPageOffline(tool.root, tool.scripts);
    if (tool.pending !== null || tool.input.value.trim()) compute(tool);
  }

  /* 저장된 모델이 있으면 단추를 누르지 않아도 바로 엽니다 (받지 않으므로 페이지 무게 규칙과 상관없습니다). */
  function openSaved(tool) {
    if (!window.caches) return;
    model.packSaved(tool, MODEL_CACHE, "ko").then(function (ko) {
      if (!ko || tool.worker) return;
      return model.packSaved(tool, MODEL_CACHE, "latin").then(function (latin) {
        loadPacks(tool, latin ? ["ko", "latin"] : ["ko"]);
      });
    }).catch(function () {});
  }

  /* ---- 도구 하나: 계산 --------------------------------------------------------------------------- */

  function compute(tool) {
    tool.pending = null;
    if (!tool.ready) {
      tool.pending = tool.input.value;
      // 받는 중이면 받은 뒤에 계산합니다. 아니면 14 MB 를 말없이 받지 않고 묻습니다
      if (!tool.loading) model.askToLoad(tool, "이 문장을", packBytes(tool.manifest, "ko"));
      return;
    }
    if (!tool.input.value.trim()) {
      showError(tool, { kind: "empty", message: "문장을 입력해 주세요. 빈 글은 계산할 수 없습니다." });
      return;
    }
    model.ask(tool, { type: "run", text: tool.input.value }, "running", "계산하는 중…");
  }

  function gotResult(tool, m) {
    if (!model.answered(tool, m)) return;
    if (m.error) {
      showError(tool, m.error);
    } else {
      clearProblem(tool);
      show(tool, m);
    }
  }

  function showError(tool, err) {
    model.clearResult(tool);  // 다음 결과는 탐색기를 새로 만듭니다
    tool.explorer = null;
    tool.summaryBox = null;
    tool.ablation = null;
    if (err.kind === "latin") {
      tool.getLatin.hidden = false;  // 단추는 이 알림보다 위에 있습니다 (모델 받기 단추 옆)
      fail(tool, err.message + " 위의 \"" + tool.getLatin.textContent + "\"를 누르세요.", err.kind);
    } else {
      fail(tool, err.message, err.kind);
    }
  }

  /* ---- 도구 하나: 결과 --------------------------------------------------------------------------- */

  /* 계산한 문장 하나 → 헤드 탐색기(최근 HISTORY 개의 문장)와 조사 표.
     주 스레드의 일이 작업 하나에 몰리지 않게 (휴대전화의 느린 CPU 에서 긴 작업이 되지 않게):
     - 가중치는 워커가 계산한 것(qweights)을 그대로 씁니다 (주 스레드에서 지수를 다시 계산하지 않습니다).
     - 탐색기는 처음 한 번만 만들고, 그 뒤에는 문장 목록만 바꿉니다 (setSentences: 칸 144개를 다시 만들지 않습니다).
     - 탐색기의 격자 아래(헤드 하나, 가장 큰 키, 네 단계)는 화면 밖이면 한가할 때 하나씩 그립니다 (lazy). */
  function show(tool, m) {
    var found = findParticles(m.tokens, m.queries[0], m.queries[1]);
    var entry = { text: m.text, tokens: m.tokens, queries: m.queries, q: m.q, k: m.k, particles: found, ms: m.ms,
                  sentence: { text: m.text, tokens: m.tokens, queries: m.queries, scores: m.scores, weights: m.qweights,
                              pixels: m.atlas || undefined } };
    tool.history = tool.history.filter(function (h) { return h.text !== m.text; });
    tool.history.unshift(entry);
    tool.history = tool.history.slice(0, HISTORY);
    showSummary(tool, m);
    particleTable(tool, entry, found, unsplitWords(m.tokens, m.queries[0], m.queries[1]));
    ablationPanel(tool, entry);
    var want = { sentence: 0, layer: HEAD[0], head: HEAD[1], query: found.length ? found[0].particle : m.queries[0] };
    var sentences = tool.history.map(function (h) { return h.sentence; });
    if (tool.explorer) tool.explorer.setSentences(sentences, want);
    else mountExplorer(tool, sentences, want);
    tool.root.setAttribute("data-result", "ok");
    say(tool, "계산했습니다. 아래에서 헤드 144개를 모두 골라 볼 수 있습니다.");
  }

  /* 결과 상자의 네 자리: 요약 한 줄, 조사 표, 헤드 끄기, 탐색기. 처음 한 번 만들고 그 뒤에는 내용만 바꿉니다. */
  function resultParts(tool) {
    var result = tool.result;
    if (!tool.summaryBox || !result.contains(tool.summaryBox)) {
      result.textContent = "";
      tool.summaryBox = result.appendChild(el("p", { "class": "own-sentence__summary" }));
      tool.particlesBox = result.appendChild(el("div", { "class": "own-sentence__particles" }));
      tool.ablationBox = result.appendChild(el("div", { "class": "own-sentence__ablation" }));
      tool.ablation = null;
      tool.explorerBox = result.appendChild(el("div", { "class": "head-explorer" }));
      tool.explorer = null;
    }
  }

  function showSummary(tool, m) {
    resultParts(tool);
    tool.summaryBox.textContent = "토큰 " + m.ids.length + "개 (문장 조각 " + (m.queries[1] - m.queries[0]) + "개). " +
      "이 브라우저에서 12층을 계산하는 데 " + (m.ms / 1000).toFixed(2) + "초 걸렸습니다.";
  }

  function mountExplorer(tool, sentences, want) {
    var manifest = tool.manifest, L = manifest.config.layers, H = manifest.config.heads, dh = manifest.config.hidden_size / H;
    var data = {
      format: window.headExplorer.FORMAT, model: manifest.model, layers: L, heads: H, d_head: dh,
      rows_note: "쿼리(왼쪽)는 문장의 조각만 고를 수 있습니다. <s>, 접두어 조각, </s>는 키로만 나옵니다.",
      start: want, sentences: sentences
    };
    tool.explorer = window.headExplorer.mount(tool.explorerBox, data, {
      lazy: true,
      vectors: function (s, l) {  // 층 l 의 q (헤드, 쿼리, d_head) 와 k (헤드, 토큰, d_head): 워커가 계산한 float32 그대로
        var h = tool.history[s], hn = h.tokens.length, hq = h.queries[1] - h.queries[0];
        return { q: h.q.subarray(l * H * hq * dh, (l + 1) * H * hq * dh), k: h.k.subarray(l * H * hn * dh, (l + 1) * H * hn * dh) };
      }
    });
    tool.explorerBox.setAttribute("data-ready", "yes");
  }

  /* ---- 도구 하나: 조사 표 ------------------------------------------------------------------------ */

  /* 조사 표와 그 아래의 알림 둘: 어미를 조사로 볼 수 있다는 것(표가 있을 때 늘), 표에 넣지 못한 말(있을 때). */
  function particleTable(tool, h, found, unsplit) {
    var section = tool.particlesBox;
    section.textContent = "";
    section.appendChild(el("p", { "class": "own-sentence__heading" }, "조사와 붙은 말: 헤드 7-11이 조사 조각에서 붙은 말에 준 가중치"));
    if (!found.length) {
      section.appendChild(el("p", {}, "이 문장에서는 따로 떨어진 조사 조각을 찾지 못했습니다."));
      unsplitNote(section, unsplit);
      return;
    }
    endsSwitch(tool, section);
    var table = el("table", { "class": "own-sentence__table" });
    var tr = el("tr", {});
    ["조사", "붙은 말", "7-11의 가중치"].forEach(function (t) { tr.appendChild(el("th", { scope: "col" }, t)); });
    tr.appendChild(el("th", { scope: "col" })).appendChild(el("span", { "class": "head-explorer__sr" }, "탐색기"));
    table.appendChild(el("thead", {})).appendChild(tr);
    var body = el("tbody", {});
    found.forEach(function (f) { body.appendChild(particleRow(tool, h, f)); });
    table.appendChild(body);
    section.appendChild(table);
    section.appendChild(el("p", { "class": "head-explorer__note own-sentence__caveat" },
      "표의 조사는 조각의 모양으로 어림한 것입니다 (어절 끝에 따로 떨어진, 목록에 있는 조각). " +
      "조사와 모양이 같은 어미도 들어갈 수 있습니다: \"먹은\"의 \"은\", \"뜨는\"의 \"는\"은 조사가 아니라 어미입니다."));
    unsplitNote(section, unsplit);
  }

  /* 조사 표의 한 줄: 조사, 붙은 말, 가중치, 탐색기에서 보기 */
  function particleRow(tool, h, f) {
    var config = tool.manifest.config, n = h.tokens.length, layer = HEAD[0], head = HEAD[1];
    // 탐색기와 같은 값: 워커가 계산한 점수 q·k 를 √d_k 로 나누고 소프트맥스 (float64) 한 가중치의 합
    var at = ((layer * config.heads + head) * (h.queries[1] - h.queries[0]) + f.particle - h.queries[0]) * n;
    var row = window.headExplorer.rowSteps(Array.prototype.slice.call(h.sentence.scores, at, at + n),
                                           config.hidden_size / config.heads).weights;
    var w = f.host.reduce(function (s, j) { return s + row[j]; }, 0), ends = row[0] + row[n - 1];
    var r = el("tr", { "data-particle": String(f.particle), "data-host": f.host.join(" ") });
    var c1 = el("td", {}); c1.appendChild(window.headExplorer.tokenLabel(h.tokens[f.particle]));
    var c2 = el("td", {}, f.host.map(function (j) { return h.tokens[j].replace(SPACE, ""); }).join(""));
    var c3 = el("td", {}, "");
    c3.appendChild(viewNumber(tool, "host-weight", w, ends));
    var c4 = el("td", {});
    var btn = el("button", { type: "button", "class": "own-sentence__show" }, "탐색기에서 보기");
    btn.addEventListener("click", function () {
      if (!tool.explorer) return;
      tool.explorer.pick({ sentence: 0, layer: layer, head: head, query: f.particle });
      var box = tool.result.querySelector(".head-explorer__view");
      if (box) box.scrollIntoView({ block: "nearest" });
    });
    c4.appendChild(btn);
    [c1, c2, c3, c4].forEach(function (c) { r.appendChild(c); });
    return r;
  }

  /* <s>, </s> 가리기: 조사 표(와 끄기 전·뒤 표)의 7-11 가중치를 <s>, </s> 를 뺀 나머지 토큰의 합이 1 이 되게 다시 나눠
     보여 줍니다. 보기만 바꿉니다: 모델의 계산(워커)은 그대로이고, 탐색기도 모델의 가중치를 그대로 보여 줍니다.
     숫자마다 원래 가중치(data-raw)와 그 행에서 <s>, </s> 가 받은 몫(data-ends)을 들고 있어 다시 계산하지 않고 바꿉니다. */
  function viewed(tool, raw, ends) { return tool.hideEnds ? raw / (1 - ends) : raw; }
  function viewNumber(tool, name, raw, ends) {
    return el("span", { "class": "head-explorer__num", "data-value": name, "data-raw": String(raw), "data-ends": String(ends) },
              window.headExplorer.fixed(viewed(tool, raw, ends), 3));
  }
  function endsSwitch(tool, section) {
    var label = section.appendChild(el("label", { "class": "own-sentence__ends" }));
    var box = label.appendChild(el("input", { type: "checkbox" }));
    label.appendChild(document.createTextNode(" 표에서 <s>, </s> 빼고 나누기 (보기만 바뀝니다)"));
    box.checked = tool.hideEnds;
    var note = section.appendChild(el("p", { "class": "head-explorer__note own-sentence__ends-note" },
      "이 표시는 보기만 바꿉니다. 모델은 <s>와 </s>에도 그대로 가중치를 주고, 계산도 바뀌지 않습니다. " +
      "표의 가중치는 <s>와 </s>가 받은 몫을 빼고, 나머지 토큰의 합이 1이 되게 다시 나눈 값입니다."));
    note.hidden = !tool.hideEnds;
    box.addEventListener("change", function () {
      tool.hideEnds = box.checked;
      note.hidden = !tool.hideEnds;
      tool.root.setAttribute("data-view", tool.hideEnds ? "hide-ends" : "model");
      tool.result.querySelectorAll("[data-raw]").forEach(function (e) {
        e.textContent = window.headExplorer.fixed(viewed(tool, Number(e.getAttribute("data-raw")), Number(e.getAttribute("data-ends"))), 3);
      });
    });
  }

  /* 표에 넣지 못한 말: 토크나이저가 조사를 앞 글자와 한 조각으로 묶었거나(나는, 반장은) 어절 가운데 문장부호가 있어
     조사 조각을 따로 고를 수 없는 어절. 그런 말이 있으면 늘 적습니다 (표가 조용히 짧아지지 않게). */
  function unsplitNote(section, unsplit) {
    if (!unsplit.length) return;
    var words = unsplit.map(function (u) { return u.word; });
    section.appendChild(el("p", { "class": "head-explorer__note own-sentence__unsplit", "data-words": words.join(" ") },
      "표에 없는 말: " + words.join(", ") + ". 끝이 조사처럼 보이지만, 조사가 앞 글자와 한 조각으로 묶였거나 " +
      "어절 가운데 문장부호가 있어 조사 조각을 따로 고를 수 없습니다. 조사가 아닌 말일 수도 있습니다."));
  }

  /* ---- 도구 하나: 헤드 끄기 (어블레이션) -----------------------------------------------------------
     방금 계산한 문장에서 헤드 하나나 층 하나를 끄고 워커가 다시 계산합니다. 워커는 bert_numpy 의 "zero" 와 같게 끈 헤드의
     출력을 W_O 앞에서 0 으로 만들고, 끄기 전과 견준 값(문장 임베딩의 1 − cos, 헤드마다 가중치의 JS 거리)을 돌려줍니다.
     탐색기는 끄지 않은 모델을 그대로 보여 줍니다: 끈 결과는 이 상자에만. */

  /* 헤드 끄기 상자. 새 문장마다 다시 만들지만 고른 층·헤드는 남깁니다 (처음에는 조사 표의 헤드 7-11). */
  function ablationPanel(tool, entry) {
    var L = tool.manifest.config.layers, H = tool.manifest.config.heads, box = tool.ablationBox, uid = tool.uid;
    var keep = tool.ablation ? { layer: tool.ablation.layer.value, head: tool.ablation.head.value, whole: tool.ablation.whole.checked }
                             : { layer: String(HEAD[0]), head: String(HEAD[1]), whole: false };
    box.textContent = "";
    box.appendChild(el("p", { "class": "own-sentence__heading", id: uid + "-ablation" }, "헤드 끄기: 이 문장에서 헤드 하나나 층 하나를 끄고 다시 계산합니다"));
    var controls = box.appendChild(el("div", { "class": "own-sentence__switch", role: "group", "aria-labelledby": uid + "-ablation" }));
    var layer = ablationPicker(controls, "layer", "층", L, keep.layer), head = ablationPicker(controls, "head", "헤드", H, keep.head);
    var wholeLabel = controls.appendChild(el("label", {}));
    var whole = wholeLabel.appendChild(el("input", { type: "checkbox", "data-what": "whole" }));
    wholeLabel.appendChild(document.createTextNode(" 층 전체"));
    whole.checked = keep.whole;
    head.disabled = whole.checked;  // 층 전체를 끄면 헤드 번호는 쓰지 않습니다
    whole.addEventListener("change", function () { head.disabled = whole.checked; });
    var from = controls.appendChild(el("button", { type: "button", "class": "own-sentence__from" }, "탐색기에서 고른 헤드"));
    from.addEventListener("click", function () {
      // 탐색기의 data-state 는 "문장,층,헤드,쿼리,키" (0부터)
      var state = (tool.explorerBox.querySelector(".head-explorer") || tool.explorerBox).getAttribute("data-state");
      if (!state) return;
      var parts = state.split(",");
      layer.value = parts[1];
      head.value = parts[2];
      whole.checked = false;
      head.disabled = false;
    });
    var button = controls.appendChild(el("button", { type: "button", "class": "own-sentence__ablate" }, "끄고 다시 계산하기"));
    button.addEventListener("click", function () { if (!blocked(button)) askAblation(tool); });
    var out = box.appendChild(el("div", { "class": "own-sentence__ablated", "aria-live": "polite" }));
    tool.ablation = { entry: entry, layer: layer, head: head, whole: whole, out: out, button: button };
  }

  /* 층이나 헤드 번호를 고르는 목록 (화면에는 1부터, 값은 0부터) */
  function ablationPicker(controls, what, label, count, value) {
    var wrap = controls.appendChild(el("label", {}, label + " "));
    var select = wrap.appendChild(el("select", { "data-what": what }));
    for (var i = 0; i < count; i++) select.appendChild(el("option", { value: String(i) }, String(i + 1)));
    select.value = value;
    return select;
  }

  function askAblation(tool) {
    var ablation = tool.ablation;
    if (tool.busy || !ablation) return;
    var l = Number(ablation.layer.value), h = Number(ablation.head.value);
    var off = ablation.whole.checked ? { layers: [l] } : { heads: [[l, h]] };
    tool.busy = true;
    setBlocked(tool.run, true);
    setBlocked(ablation.button, true);
    tool.runId += 1;
    ablation.asked = { id: tool.runId, off: off, name: ablation.whole.checked ? (l + 1) + "층 전체" : "헤드 " + (l + 1) + "-" + (h + 1) };
    setState(tool, "running");
    ablation.out.textContent = ablation.asked.name + " 끄기: 계산하는 중…";
    tool.worker.postMessage({ type: "ablate", id: tool.runId, text: ablation.entry.text, off: off });
  }

  /* 끄고 다시 계산한 결과: 문장 임베딩이 움직인 거리, 가장 많이 바뀐 헤드, 조사 표의 전과 뒤 */
  function gotAblated(tool, m) {
    var ablation = tool.ablation;
    if (!ablation || !model.answered(tool, m)) return;
    setBlocked(ablation.button, false);
    var out = ablation.out, entry = ablation.entry, name = ablation.asked.name;
    out.textContent = "";
    if (m.error) {
      out.appendChild(el("p", { "class": "own-sentence__error", role: "alert" }, m.error.message));
      tool.root.setAttribute("data-ablated", "error");
      return;
    }
    var line = out.appendChild(el("p", { "class": "own-sentence__ablation-summary" }));
    line.appendChild(document.createTextNode(name + " 끄기: 다시 계산하는 데 " + (m.ms / 1000).toFixed(2) + "초 걸렸습니다. " +
      "문장 임베딩이 끄기 전에서 움직인 거리 1 − cos: "));
    line.appendChild(el("span", { "class": "head-explorer__num", "data-value": "one-minus-cos" }, window.headExplorer.fixed(m.oneMinusCos, 5)));
    line.appendChild(document.createTextNode(" (그대로면 0)."));
    movedHeads(tool, out, m);
    if (entry.particles.length) particlesAfter(tool, out, entry, m, m.ids.length);
    tool.root.setAttribute("data-ablated", "ok");
  }

  /* 가중치가 가장 많이 바뀐 헤드 다섯. 끈 헤드는 빼고, 끈 층과 그 앞 층의 다른 헤드는 입력이 그대로라 0 이므로 뺍니다. */
  function movedHeads(tool, out, m) {
    var fixed = window.headExplorer.fixed, H = tool.manifest.config.heads;
    var order = [];
    for (var k = 0; k < m.moved.length; k++) if (m.moved[k] > 0) order.push(k);
    order.sort(function (a, b) { return m.moved[b] - m.moved[a]; });
    if (!order.length) {
      out.appendChild(el("p", { "class": "own-sentence__unmoved" }, "끈 곳이 마지막 층이라 그 뒤에 오는 헤드가 없습니다. " +
        "다른 헤드의 어텐션 가중치는 하나도 바뀌지 않았고, 바뀐 것은 마지막 은닉 상태(위의 1 − cos)뿐입니다."));
      return;
    }
    out.appendChild(el("p", {}, "어텐션 가중치가 가장 많이 바뀐 헤드 " + Math.min(order.length, 5) + "개입니다. " +
      "쿼리 행마다 끄기 전과 뒤의 젠슨-섀넌 거리를 재어 평균했습니다 (그대로면 0, 전혀 겹치지 않으면 1). " +
      "끈 층과 그 앞 층의 헤드는 입력이 그대로라 바뀌지 않습니다."));
    var table = out.appendChild(el("table", { "class": "own-sentence__moved" }));
    var tr = table.appendChild(el("thead", {})).appendChild(el("tr", {}));
    ["헤드", "JS 거리"].forEach(function (t) { tr.appendChild(el("th", { scope: "col" }, t)); });
    var body = table.appendChild(el("tbody", {}));
    order.slice(0, 5).forEach(function (at) {
      var r = body.appendChild(el("tr", { "data-head": String(at) }));
      r.appendChild(el("td", {}, (Math.floor(at / H) + 1) + "-" + (at % H + 1)));
      r.appendChild(el("td", {})).appendChild(el("span", { "class": "head-explorer__num", "data-value": "moved" }, fixed(m.moved[at], 4)));
    });
  }

  /* 조사 표의 7-11 가중치, 끄기 전과 뒤. 끄기 전은 조사 표와 같은 값, 뒤는 워커가 끈 모델로 계산한 가중치의 합. */
  function particlesAfter(tool, out, entry, m, n) {
    var H = tool.manifest.config.heads, before = tool.particlesBox.querySelectorAll("[data-value=host-weight]");
    var at = (HEAD[0] * H + HEAD[1]) * n * n, switched = m.off[HEAD[0] * H + HEAD[1]];
    out.appendChild(el("p", {}, switched ? "헤드 7-11을 껐으므로 끈 뒤의 가중치는 0입니다." :
      "조사 표의 헤드 7-11 가중치가 끄기 전과 뒤에 어떻게 다른지:"));
    var table = out.appendChild(el("table", { "class": "own-sentence__after" }));
    var tr = table.appendChild(el("thead", {})).appendChild(el("tr", {}));
    ["조사", "붙은 말", "끄기 전", "끈 뒤"].forEach(function (t) { tr.appendChild(el("th", { scope: "col" }, t)); });
    var body = table.appendChild(el("tbody", {}));
    entry.particles.forEach(function (f, i) {
      var row = at + f.particle * n, w = f.host.reduce(function (s, j) { return s + m.weights[row + j]; }, 0);
      var r = body.appendChild(el("tr", { "data-particle": String(f.particle) }));
      r.appendChild(el("td", {})).appendChild(window.headExplorer.tokenLabel(entry.tokens[f.particle]));
      r.appendChild(el("td", {}, f.host.map(function (j) { return entry.tokens[j].replace(SPACE, ""); }).join("")));
      r.appendChild(el("td", {})).appendChild(viewNumber(tool, "host-weight-before", Number(before[i].getAttribute("data-raw")),
                                                         Number(before[i].getAttribute("data-ends"))));
      // 7-11 을 끈 행은 가중치가 모두 0 이라 <s>, </s> 를 빼고 나눌 것이 없습니다: 0 그대로
      r.appendChild(el("td", {})).appendChild(switched ? viewNumber(tool, "host-weight-after", 0, 0)
                                                       : viewNumber(tool, "host-weight-after", w, m.weights[row] + m.weights[row + n - 1]));
    });
  }

  function init() {
    model.openModelTools(".own-sentence[data-src]", "여러분의 문장으로 계산할 도구를 준비하고 있습니다…", "e5-browser/1", build,
                          function (open) { open(); });
  }

  window.ownSentence = { findParticles: findParticles, unsplitWords: unsplitWords, PARTICLES: PARTICLES };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
