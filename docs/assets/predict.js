/* 확인 문제의 "먼저 예상하고 확인하기": 독자가 숫자를 적거나 보기를 고르면, 맞았는지와 (내다본 오답이면) 왜 그렇게
 * 생각하기 쉬운지, 무엇을 놓쳤는지를 알려 줍니다.
 *
 * 페이지의 문제 아래에 <div class="predict" data-src="../data/<장>-quiz_<N>.json"></div> 를 두면, 이 스크립트가 빌드 때
 * 스니펫(data_quiz_<N>, snippets/predict.py)이 만든 JSON 을 읽어 입력 칸이나 보기를 그립니다. 정답, 오답의 수, 돌려줄
 * 말과 그 안의 숫자는 모두 그 JSON 에 있습니다: 이 스크립트는 숫자를 만들지 않고, 글의 {이름} 자리를 JSON 의 values 로
 * 채울 뿐입니다. JavaScript 가 꺼져 있으면 상자는 비어서 숨고, 문제와 접힌 "정답과 풀이" 가 그대로 남습니다.
 * 사이트 스크립트(docs/assets/site.js)가 독자가 문제 가까이 내려올 때 이 파일을 붙입니다 (overrides/main.html 의 data-loads).
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  var FIELD = /\{([a-z_][a-z0-9_]*)\}/g;

  /* {이름} 자리를 values 의 글자로 채웁니다 (snippets/predict.py 의 fill 과 같은 규칙). */
  function fill(text, values) {
    return text.replace(FIELD, function (_, name) { return values[name]; });
  }

  /* 독자가 적은 글 → 수. 못 읽으면 null.
     받는 꼴: 0.33, .5, -2, 1/3, 2,359,296 (천 단위 쉼표), 0,5 (쉼표 소수점), 앞뒤의 말과 단위 ("약 10", "16배", "1 GiB"). */
  function parse(text) {
    var t = String(text).replace(/\s+/g, "").replace(/\u2212/g, "-");
    t = t.replace(/(\d),(?=\d{3}(?:\D|$))/g, "$1");
    t = t.replace(/(\d),(\d)/g, "$1.$2");
    var m = t.match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:\/[-+]?(?:\d+\.?\d*|\.\d+))?/);
    if (!m) return null;
    var parts = m[0].split("/");
    var x = parseFloat(parts[0]);
    if (parts.length === 2) {
      var d = parseFloat(parts[1]);
      if (d === 0) return null;
      x /= d;
    }
    return isFinite(x) ? x : null;
  }

  /* 숫자 문제의 판정: {verdict: "right" | "wrong" | "other", index (내다본 오답의 번호), text}. 정답을 먼저,
     그다음 내다본 오답을 적힌 차례로 봅니다. */
  function judge(q, x) {
    if (Math.abs(x - q.answer) <= q.tolerance) return { verdict: "right", index: -1, text: q.right };
    for (var i = 0; i < q.wrong.length; i++) {
      var w = q.wrong[i];
      var hit = "value" in w ? Math.abs(x - w.value) <= w.tolerance : x > w.low && x < w.high;
      if (hit) return { verdict: "wrong", index: i, text: w.feedback };
    }
    return { verdict: "other", index: -1, text: q.other };
  }

  var el = function (tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  };

  var VERDICT = { right: "맞습니다.", wrong: "아닙니다.", other: "아닙니다.", invalid: "" };

  function build(root, q, id) {
    var values = q.values;
    root.textContent = "";
    var form = el("form", { "class": "predict__form", novalidate: "" });
    var feedback = el("p", { "class": "predict__feedback", id: id + "-feedback", role: "status", "aria-live": "polite" });
    var choices = [];
    if (q.kind === "number") {
      var label = el("label", { "for": id + "-answer", "class": "predict__label" }, fill(q.label, values));
      var row = el("span", { "class": "predict__row" });
      var input = el("input", {
        id: id + "-answer", type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false",
        "class": "predict__input", "aria-describedby": id + "-feedback"
      });
      row.appendChild(input);
      if (q.unit) {
        row.appendChild(el("span", { "class": "predict__unit", id: id + "-unit" }, fill(q.unit, values)));
        input.setAttribute("aria-describedby", id + "-unit " + id + "-feedback");
      }
      row.appendChild(el("button", { type: "submit", "class": "md-button predict__check" }, "확인"));
      form.appendChild(label);
      form.appendChild(row);
    } else {
      var set = el("fieldset", { "class": "predict__choices" });
      set.appendChild(el("legend", {}, fill(q.legend, values)));
      q.options.forEach(function (o, i) {
        var item = el("label", { "class": "predict__choice" });
        var radio = el("input", { type: "radio", name: id, value: String(i), "aria-describedby": id + "-feedback" });
        choices.push(radio);
        item.appendChild(radio);
        item.appendChild(el("span", {}, fill(o.text, values)));
        set.appendChild(item);
      });
      form.appendChild(set);
      form.appendChild(el("button", { type: "submit", "class": "md-button predict__check" }, "확인"));
    }
    root.appendChild(form);
    root.appendChild(feedback);

    function show(verdict, index, text) {
      feedback.textContent = "";  /* 같은 말을 다시 보여 줄 때도 화면 읽기 프로그램이 다시 읽도록 비웠다가 채웁니다 */
      feedback.setAttribute("data-verdict", verdict);
      feedback.setAttribute("data-index", String(index));
      window.requestAnimationFrame(function () {
        if (VERDICT[verdict]) {
          var mark = el("span", { "class": "predict__mark", "aria-hidden": "true" }, verdict === "right" ? "✓" : "✗");
          var strong = el("strong", {}, VERDICT[verdict]);
          feedback.appendChild(mark);
          feedback.appendChild(strong);
          feedback.appendChild(document.createTextNode(" "));
        }
        feedback.appendChild(el("span", { "class": "predict__text" }, fill(text, values)));
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (q.kind === "number") {
        var x = parse(input.value);
        if (x === null) return show("invalid", -1, "숫자를 적어 주세요 (분수도 됩니다).");
        var result = judge(q, x);
        return show(result.verdict, result.index, result.text);
      }
      var picked = choices.filter(function (c) { return c.checked; })[0];
      if (!picked) return show("invalid", -1, "보기 하나를 고른 뒤 확인을 누르세요.");
      var i = Number(picked.value), o = q.options[i];
      show(o.right ? "right" : "wrong", i, o.feedback);
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

  window.predictQuiz = { fill: fill, parse: parse, judge: judge };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
