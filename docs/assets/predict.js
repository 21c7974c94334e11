/* 확인 문제의 "먼저 예상하고 확인하기": 독자가 숫자를 적거나 보기를 고르면, 맞았는지와 (내다본 오답이면) 왜 그렇게
 * 생각하기 쉬운지, 무엇을 놓쳤는지를 알려 줍니다.
 *
 * 페이지의 문제 아래에 <div class="predict" data-src="../data/<장>-quiz_<N>.json"></div> 를 두면, 이 스크립트가 빌드 때
 * 스니펫(data_quiz_<N>, snippets/lib/predict.py)이 만든 JSON 을 읽어 입력 칸이나 보기를 그립니다. 정답, 오답의 수, 돌려줄
 * 말과 그 안의 숫자는 모두 그 JSON 에 있습니다: 이 스크립트는 숫자를 만들지 않고, 글의 {이름} 자리를 JSON 의 values 로
 * 채울 뿐입니다. 독자가 적은 식(√100, 1/3, 2^4)을 계산한 값은 "…로 읽었습니다" 로 함께 보입니다.
 * JavaScript 가 꺼져 있으면 상자는 비어서 숨고, 문제와 접힌 "정답과 풀이" 가 그대로 남습니다.
 * 사이트 스크립트(docs/assets/site.js)가 독자가 문제 가까이 내려올 때 이 파일을 붙입니다 (overrides/main.html 의 data-loads).
 *
 * 차례: 글 채우기 → 독자의 글 읽기 (토큰, 식, 값) → 수를 보이는 글과 조사 → 판정 → 상자 그리기.
 * 읽기와 판정의 규칙(문법은 predict.py 의 "독자가 적은 답 읽기")은 snippets/lib/predict.py 의 read_answer·respond 와 같고,
 * 낱말과 돌려줄 말은 JSON 의 reading 에 있습니다. 두 구현이 같은 답을 내는지는 tests/test_predict_browser.py 가 봅니다.
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  var FIELD = /\{([a-z_][a-z0-9_]*)\}/g;

  /* {이름} 자리를 values 의 글자로 채웁니다 (snippets/lib/predict.py 의 fill 과 같은 규칙). 채운 글은 다시 보지 않습니다. */
  function fill(text, values) {
    return text.replace(FIELD, function (_, name) { return values[name]; });
  }

  /* ------------------------------------------------------------ 독자의 글 읽기: 토큰 */

  var SPACE = /[ \t\n\r\f\v\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]+/y;
  var NUMBER = new RegExp(
    "[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?" +
    "|[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|\\.[0-9]+(?:[eE][+-]?[0-9]+)?", "y");
  var SUPERSCRIPT = /[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+/y;
  var LATIN = /[A-Za-z]+/y;
  var HANGUL = /[가-힣ㄱ-ㅎㅏ-ㅣ]+/y;
  var HANGUL_WORD = /^[가-힣ㄱ-ㅎㅏ-ㅣ]+$/;
  var LATIN_WORD = /^[A-Za-z]+$/;
  var WIDE = { "０": "0", "１": "1", "２": "2", "３": "3", "４": "4", "５": "5", "６": "6", "７": "7", "８": "8", "９": "9",
               "，": ",", "．": ".", "／": "/", "％": "%", "（": "(", "）": ")", "＋": "+", "－": "-", "＊": "*", "　": " " };
  var SUPER_ASCII = { "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
                      "⁺": "+", "⁻": "-" };
  var SYMBOLS = {
    "^": "pow", "*": "mul", "×": "mul", "·": "mul", "⋅": "mul", "/": "div", "÷": "div", "∕": "div", "√": "root",
    "(": "lp", "[": "lp", ")": "rp", "]": "rp", "-": "minus", "−": "minus", "+": "plus", "%": "pct",
    ",": "sep", ";": "sep", "、": "sep", "~": "sep", "〜": "sep", "–": "sep", "—": "sep",
    ".": "skip", "!": "skip", "?": "skip", ":": "skip", "…": "skip", "≈": "skip", "\"": "skip", "'": "skip",
    "‘": "skip", "’": "skip", "“": "skip", "”": "skip"
  };
  var STARTS = { num: 1, lp: 1, root: 1, minus: 1, plus: 1 };
  var POWERS_OF_TEN = [1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3];

  /* 문제가 묻는 값들의 이름 (값이 하나면 빈 목록) */
  function partNames(q) {
    if (!q || !q.more || !q.more.length) return [];
    return [q.name].concat(q.more.map(function (m) { return m.name; }));
  }

  /* {낱말(소문자): 종류}. 종류는 skip, sep, root, times, 또는 묻는 값의 번호(수, 이름표). */
  function vocabulary(q) {
    var vocab = {}, words = q.reading.words;
    Object.keys(words).forEach(function (kind) {
      words[kind].forEach(function (w) { vocab[w] = kind; });
    });
    (q.unit || "").split(/\s+/).forEach(function (w) { if (w) vocab[w.toLowerCase()] = "skip"; });
    partNames(q).forEach(function (name, i) {
      name.toLowerCase().split(/\s+/).forEach(function (w) {
        if (!w) return;
        vocab[w] = i;
        if (LATIN_WORD.test(w)) vocab[w + "s"] = i;  /* FLOPs */
      });
    });
    return vocab;
  }

  /* 한글 낱말을 어휘의 가장 긴 낱말부터 잘라 읽습니다 (16배입니다 → 배 + 입니다). 못 읽는 곳부터는 unknown. */
  function hangulWords(run, start, vocab, out) {
    var words = Object.keys(vocab).filter(function (w) { return HANGUL_WORD.test(w); });
    words.sort(function (a, b) { return b.length - a.length; });
    var i = 0;
    while (i < run.length) {
      var word = null;
      for (var k = 0; k < words.length; k++) {
        if (run.startsWith(words[k], i)) { word = words[k]; break; }
      }
      if (word === null) { out.push([ "unknown", start + i, start + run.length ]); return; }
      out.push([vocab[word], start + i, start + i + word.length]);
      i += word.length;
    }
  }

  function matchAt(pattern, text, i) {
    pattern.lastIndex = i;
    var m = pattern.exec(text);
    return m ? m[0] : null;
  }

  /* [종류, 시작, 끝] 목록 */
  function tokens(text, vocab) {
    var out = [], i = 0, m;
    while (i < text.length) {
      if ((m = matchAt(SPACE, text, i)) !== null) out.push(["ws", i, i + m.length]);
      else if ((m = matchAt(NUMBER, text, i)) !== null) out.push(["num", i, i + m.length]);
      else if ((m = matchAt(SUPERSCRIPT, text, i)) !== null) out.push(["sup", i, i + m.length]);
      else if (text.startsWith("**", i)) { m = "**"; out.push(["pow", i, i + 2]); }
      else if ((m = matchAt(LATIN, text, i)) !== null) {
        var kind = vocab[m.toLowerCase()];
        out.push([kind === undefined ? "unknown" : kind, i, i + m.length]);
      } else if ((m = matchAt(HANGUL, text, i)) !== null) hangulWords(m, i, vocab, out);
      else { m = text[i]; out.push([SYMBOLS[m] || "unknown", i, i + 1]); }
      i += m.length;
    }
    return out;
  }

  /* 건너뛰는 것(공백, 건너뛰는 말, 문장부호)을 빼고, 토큰마다 앞에 그런 것이 있었는지(gap)를 붙입니다. */
  function significant(toks) {
    var out = [], gap = true;
    toks.forEach(function (t) {
      if (t[0] === "ws" || t[0] === "skip") { gap = true; return; }
      out.push({ kind: t[0], start: t[1], end: t[2], gap: gap });
      gap = false;
    });
    return out;
  }

  /* ------------------------------------------------------------ 독자의 글 읽기: 식과 값 */

  /* Math.pow 와 파이썬의 math.pow 는 nan·inf 에서 답이 갈려서, 유한하지 않은 입력은 NaN 으로 둡니다. */
  function power(base, exponent) {
    if (!isFinite(base) || !isFinite(exponent)) return NaN;
    return Math.pow(base, exponent);
  }

  function Unreadable(at) { this.at = at; }

  /* 식의 문법 (predict.py 의 _Parser): 식 := 단항 ((곱하기|나누기) 단항)*, 단항 := (-|+|√) 단항 | 거듭,
     거듭 := 기본 [^ 단항 | 윗첨자], 기본 := 수 | ( 식 ). */
  function expressionParser(text, toks, state) {
    function peek(ahead) { var t = toks[state.i + (ahead || 0)]; return t ? t.kind : null; }
    function take() { state.i += 1; return toks[state.i - 1]; }
    function fail() { throw new Unreadable(state.i < toks.length ? toks[state.i].start : null); }
    function slice(t) { return text.slice(t.start, t.end); }

    function primary() {
      if (peek() === "num") {
        var value = Number(slice(take()).replace(/,/g, ""));
        return isFinite(value) ? value : NaN;
      }
      if (peek() === "lp") {
        take();
        var inner = expression();
        if (peek() !== "rp") fail();
        take();
        return inner;
      }
      return fail();
    }
    function raised() {
      var base = primary();
      if (peek() === "pow") { take(); return power(base, unary()); }
      if (peek() === "sup") {
        var digits = slice(take()).replace(/./g, function (c) { return SUPER_ASCII[c]; });
        if (!/^[+-]?[0-9]+$/.test(digits)) { state.i -= 1; fail(); }
        return power(base, Number(digits));
      }
      return base;
    }
    function unary() {
      var kind = peek();
      if (kind !== "minus" && kind !== "plus" && kind !== "root") return raised();
      take();
      var value = unary();
      if (kind === "minus") return -value;
      if (kind === "root") return value >= 0 ? Math.sqrt(value) : NaN;
      return value;
    }
    function expression() {
      var value = unary();
      while (peek() === "mul" || peek() === "div" || (peek() === "times" && STARTS[peek(1)])) {
        var op = take().kind, right = unary();
        value = op === "div" ? (right !== 0 ? value / right : NaN) : value * right;
      }
      return value;
    }
    return { expression: expression, peek: peek, take: take, fail: fail };
  }

  /* 값들: [{value, label, start, end, plain}] — 답 := 값 ([가름] 값)*, 값 := [이름] 식 [%] */
  function answerItems(text, toks) {
    var state = { i: 0 }, p = expressionParser(text, toks, state);
    var items = [], label = null, needGap = false;
    while (state.i < toks.length) {
      var t = toks[state.i];
      if (t.kind === "sep") { p.take(); needGap = false; continue; }
      if (typeof t.kind === "number") { p.take(); label = t.kind; needGap = false; continue; }
      if (t.kind === "times" && items.length) { p.take(); continue; }  /* 수 뒤의 x: 단위 (16x) */
      if (!STARTS[t.kind] || (needGap && !t.gap)) p.fail();
      var first = state.i, value = p.expression();
      var kinds = toks.slice(first, state.i).map(function (x) { return x.kind; }).join(" ");
      var plain = kinds === "num" || kinds === "minus num" || kinds === "plus num";
      if (p.peek() === "pct") { p.take(); value /= 100; plain = false; }
      items.push({ value: value, label: label, start: toks[first].start, end: toks[state.i - 1].end, plain: plain });
      label = null;
      needGap = true;
    }
    return items;
  }

  /* 독자가 적은 글 → {items: [{value, label, src, plain}], error: null | {kind, rest}} (predict.py 의 read_answer).
     error 의 kind: empty(수가 없음), unknown(읽지 못한 부분: rest), value(계산할 수 없는 식: rest). */
  function readAnswer(input, q) {
    var text = String(input).normalize("NFC").replace(/[０-９，．／％（）＋－＊　]/g, function (c) { return WIDE[c]; });
    var toks = tokens(text, vocabulary(q));
    if (!toks.some(function (t) { return t[0] === "num"; })) return { items: [], error: { kind: "empty", rest: "" } };
    var sig = significant(toks), items;
    try {
      items = answerItems(text, sig);
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      /* 글이 도중에 끝나면 (16/, (16) 어디가 모자란지 가리키기 어려워 글 전체를 보입니다 */
      return { items: [], error: { kind: "unknown", rest: text.slice(err.at || 0).trim() } };
    }
    for (var i = 0; i < items.length; i++) {
      items[i].src = text.slice(items[i].start, items[i].end);
      delete items[i].start;
      delete items[i].end;
      if (!isFinite(items[i].value)) return { items: [], error: { kind: "value", rest: items[i].src } };
    }
    return { items: items, error: null };
  }

  /* ------------------------------------------------------------ 수를 보이는 글과 조사 */

  /* 읽은 수를 보일 글자: 유효 숫자 넷까지 (끝의 0 은 빼고), 소수점이 없으면 천 단위 쉼표 (predict.py 의 format_number). */
  function formatNumber(x) {
    if (x === 0) return "0";
    var a = Math.abs(x), e = 0, text;
    while (e < 3 && a >= POWERS_OF_TEN[10 + e + 1]) e++;
    while (e > -10 && a < POWERS_OF_TEN[10 + e]) e--;
    if (a === Math.floor(a)) text = BigInt(a).toString();
    else text = a.toFixed(Math.min(10, Math.max(0, 3 - e)));
    if (text.indexOf(".") >= 0) text = text.replace(/0+$/, "").replace(/\.$/, "");
    if (text.indexOf(".") < 0) text = text.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return text === "0" ? "0" : (x < 0 ? "-" : "") + text;
  }

  /* 수를 읽은 마지막 소리의 받침: 숫자 0–9 (영 일 이 삼 사 오 육 칠 팔 구), 끝의 0 이 n 개인 정수의 단위 (십 백 천 만 … 억 … 조 … 경) */
  var DIGIT_FINAL = { "0": "ng", "1": "l", "2": "", "3": "m", "4": "", "5": "", "6": "k", "7": "l", "8": "l", "9": "" };
  var UNIT_FINAL = ["", "p", "k", "n", "n", "n", "n", "n", "k", "k", "k", "k", "", "", "", "", "ng"];

  function finalOf(numberText) {
    var digits = numberText.replace(/,/g, "").replace(/^[+-]+/, "");
    if (digits.indexOf(".") >= 0) return DIGIT_FINAL[digits[digits.length - 1]];
    var stripped = digits.replace(/0+$/, "");
    if (!stripped) return "ng";
    var zeros = digits.length - stripped.length;
    return zeros === 0 ? DIGIT_FINAL[stripped[stripped.length - 1]] : UNIT_FINAL[Math.min(zeros, UNIT_FINAL.length - 1)];
  }

  /* 수 뒤에 붙일 조사: pair 는 "으로/로", "은/는", "이/가", "을/를", "과/와" (받침이 있을 때/없을 때) */
  function particle(numberText, pair) {
    var two = pair.split("/"), final = finalOf(numberText);
    if (two[0] === "으로") return final === "" || final === "l" ? "로" : "으로";
    return final ? two[0] : two[1];
  }

  /* ------------------------------------------------------------ 판정 */

  /* 값 하나를 그 값의 정답과 오답들에 견줍니다: [verdict, index, 글]. 정답을 먼저, 그다음 오답을 적힌 차례로. */
  function judgeOne(part, x) {
    if (Math.abs(x - part.answer) <= part.tolerance) return ["right", -1, part.right || ""];
    for (var i = 0; i < part.wrong.length; i++) {
      var w = part.wrong[i];
      var hit = "value" in w ? Math.abs(x - w.value) <= w.tolerance : x > w.low && x < w.high;
      if (hit) return ["wrong", i, w.feedback];
    }
    return ["other", -1, part.other];
  }

  /* 값마다 묻는 값의 번호, 또는 판정할 수 없는 까닭("labels", "count") */
  function orderOf(items, parts) {
    var labelled = items.filter(function (it) { return it.label !== null; }).map(function (it) { return it.label; });
    if (labelled.length) {
      var distinct = labelled.filter(function (l, i) { return labelled.indexOf(l) === i; });
      return labelled.length === items.length && distinct.length === labelled.length ? labelled : "labels";
    }
    if (items.length === 1 || items.length === parts.length) return items.map(function (_, i) { return i; });
    return "count";
  }

  /* 읽은 값들을 보이는 글: "FLOP 16, 가중치 메모리 4^2 = 16" (이름은 묻는 값이 둘 이상일 때만) */
  function shownOf(items, order, names) {
    return items.map(function (item, k) {
      var value = formatNumber(item.value), head = names.length > 1 ? names[order[k]] + " " : "";
      return head + (item.plain ? value : item.src + " = " + value);
    }).join(", ");
  }

  function unsureText(reason, items, names, reading) {
    var msg = reading.messages, counts = reading.counts;
    var plain = items.map(function (it) { return formatNumber(it.value); }).join(", ");
    if (reason === "labels") {
      var last = formatNumber(items[items.length - 1].value);
      return fill(msg.labels, { shown: plain, ro: particle(last, "으로/로") });
    }
    var n = items.length, count = n <= counts.length ? counts[n - 1] : n + "개";
    var template = names.length === 1 ? msg.count_one : msg.count_parts;
    return fill(template, { count: count, shown: plain, names: names.join(", ") });
  }

  /* 여러 값의 판정을 하나로: 모두 맞으면 정답의 말, 모두 같은 말이면 그 말 하나, 아니면 값마다 한 줄 */
  function combine(q, results, order, names) {
    var msg = q.reading.messages;
    if (results.every(function (r) { return r[0] === "right"; })) return ["right", fill(q.right, q.values)];
    var keys = results.map(function (r) { return r[0] + "\u0000" + r[2]; });
    if (keys.every(function (k) { return k === keys[0]; })) return [results[0][0], fill(results[0][2], q.values)];
    var lines = results.map(function (r, k) {
      var template = r[0] === "right" ? msg.part_right : msg.part;
      return fill(template, { name: names[order[k]], text: fill(r[2], q.values) });
    });
    var kinds = results.map(function (r) { return r[0]; });
    var verdict = kinds.indexOf("right") >= 0 ? "partly" : kinds.indexOf("wrong") >= 0 ? "wrong" : "other";
    return [verdict, lines.join(" ")];
  }

  /* 독자가 적은 글에 돌려줄 판정: {verdict, index, text} (predict.py 의 respond). text 는 values 를 채운 글.
     verdict: right, wrong(index 는 내다본 오답의 번호), other, partly(일부만 맞음), unsure(읽은 것을 보이고 다시 적어
     달라는 말), invalid(수가 없음). 여러 값을 판정하면 index 는 -1 입니다. */
  function respond(q, input) {
    var msg = q.reading.messages, reading = readAnswer(input, q), error = reading.error;
    if (error) {
      return { verdict: error.kind === "empty" ? "invalid" : "unsure", index: -1, text: fill(msg[error.kind], { rest: error.rest }) };
    }
    var items = reading.items, parts = [q].concat(q.more || []);
    var names = partNames(q).length ? partNames(q) : [q.name || ""];
    var order = orderOf(items, parts);
    if (typeof order === "string") return { verdict: "unsure", index: -1, text: unsureText(order, items, names, q.reading) };
    var single = items.length === 1 && items[0].label === null, prefix = "";
    if (!(single && items[0].plain)) {
      var last = formatNumber(items[items.length - 1].value);
      prefix = fill(msg.read, { shown: shownOf(items, order, names), ro: particle(last, "으로/로") }) + " ";
    }
    var results = items.map(function (item, k) { return judgeOne(parts[order[k]], item.value); });
    if (single) return { verdict: results[0][0], index: results[0][1], text: prefix + fill(results[0][2], q.values) };
    var combined = combine(q, results, order, names);
    return { verdict: combined[0], index: -1, text: prefix + combined[1] };
  }

  /* ------------------------------------------------------------ 상자 그리기 */

  var el = function (tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  };

  var VERDICT = { right: "맞습니다.", wrong: "아닙니다.", other: "아닙니다.", partly: "일부만 맞습니다.", unsure: "", invalid: "" };

  /* 숫자 칸: 이름, 입력 칸, 단위, 확인 단추. 휴대전화의 숫자 자판에는 쉼표·빈칸·/·√ 가 없어서, 식과 목록을 적을 수
     있게 보통 자판(inputmode text)을 씁니다. */
  function numberForm(form, q, id) {
    var label = el("label", { "for": id + "-answer", "class": "predict__label" }, fill(q.label, q.values));
    var row = el("span", { "class": "predict__row" });
    var input = el("input", {
      id: id + "-answer", type: "text", inputmode: "text", autocomplete: "off", spellcheck: "false",
      "class": "predict__input", "aria-describedby": id + "-feedback"
    });
    row.appendChild(input);
    if (q.unit) {
      row.appendChild(el("span", { "class": "predict__unit", id: id + "-unit" }, fill(q.unit, q.values)));
      input.setAttribute("aria-describedby", id + "-unit " + id + "-feedback");
    }
    row.appendChild(el("button", { type: "submit", "class": "md-button predict__check" }, "확인"));
    form.appendChild(label);
    form.appendChild(row);
    return function () { return respond(q, input.value); };
  }

  /* 보기: 묶음 이름, 보기마다 라디오 단추, 확인 단추 */
  function choiceForm(form, q, id) {
    var set = el("fieldset", { "class": "predict__choices" }), choices = [];
    set.appendChild(el("legend", {}, fill(q.legend, q.values)));
    q.options.forEach(function (o, i) {
      var item = el("label", { "class": "predict__choice" });
      var radio = el("input", { type: "radio", name: id, value: String(i), "aria-describedby": id + "-feedback" });
      choices.push(radio);
      item.appendChild(radio);
      item.appendChild(el("span", {}, fill(o.text, q.values)));
      set.appendChild(item);
    });
    form.appendChild(set);
    form.appendChild(el("button", { type: "submit", "class": "md-button predict__check" }, "확인"));
    return function () {
      var picked = choices.filter(function (c) { return c.checked; })[0];
      if (!picked) return { verdict: "invalid", index: -1, text: "보기 하나를 고른 뒤 확인을 누르세요." };
      var i = Number(picked.value), o = q.options[i];
      return { verdict: o.right ? "right" : "wrong", index: i, text: fill(o.feedback, q.values) };
    };
  }

  /* 판정을 role=status 자리에 보입니다. 같은 말을 다시 보여 줄 때도 화면 읽기 프로그램이 다시 읽도록 비웠다가 채웁니다. */
  function show(feedback, result) {
    feedback.textContent = "";
    feedback.setAttribute("data-verdict", result.verdict);
    feedback.setAttribute("data-index", String(result.index));
    window.requestAnimationFrame(function () {
      if (VERDICT[result.verdict]) {
        var mark = el("span", { "class": "predict__mark", "aria-hidden": "true" }, result.verdict === "right" ? "✓" : "✗");
        feedback.appendChild(mark);
        feedback.appendChild(el("strong", {}, VERDICT[result.verdict]));
        feedback.appendChild(document.createTextNode(" "));
      }
      feedback.appendChild(el("span", { "class": "predict__text" }, result.text));
    });
  }

  function build(root, q, id) {
    root.textContent = "";
    var form = el("form", { "class": "predict__form", novalidate: "" });
    var feedback = el("p", { "class": "predict__feedback", id: id + "-feedback", role: "status", "aria-live": "polite" });
    var answer = q.kind === "number" ? numberForm(form, q, id) : choiceForm(form, q, id);
    root.appendChild(form);
    root.appendChild(feedback);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      show(feedback, answer());
    });
  }

  function init() {
    document.querySelectorAll(".predict[data-src]").forEach(function (root) {
      var state = root.getAttribute("data-ready");
      if (state === "loading" || state === "yes") return;
      root.setAttribute("data-ready", "loading");
      var src = root.getAttribute("data-src");
      var id = "predict-" + src.split("/").pop().replace(/\.json$/, "").replace(/[^a-z0-9_-]/gi, "-");
      fetch(src)
        .then(function (r) {
          if (!r.ok) throw new Error(r.status + " " + r.statusText);
          return r.json();
        })
        .then(function (q) { build(root, q, id); root.setAttribute("data-ready", "yes"); })
        .catch(function (err) {
          root.setAttribute("data-ready", "error");
          root.textContent = "문제 데이터를 읽지 못했습니다: " + err.message;
        });
    });
  }

  window.predictQuiz = { fill: fill, readAnswer: readAnswer, respond: respond, formatNumber: formatNumber, particle: particle };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
