/* 헤드 끄기: 모델 페이지("실제 모델 들여다보기", "한국어 문장으로 보기")의 헤드 탐색기에 붙는 두 스위치.
 *
 * 1) 고른 헤드나 그 층을 끈 결과. 이 페이지들에는 브라우저 안의 모델이 없습니다. 그래서 끈 결과는 빌드 때 numpy 가
 *    계산해 둔 파일(snippets/sitedata/explorer_ablation.py, 탐색기 div 의 data-ablation)에서 읽습니다. 그 파일은 독자가 처음 끌 때
 *    한 번만 받습니다: 끄지 않는 독자의 첫 화면(페이지 무게 예산)에 들지 않게. 작은 히트맵과 선은 계속 끄지 않은 모델의
 *    가중치입니다 (끈 뒤의 가중치는 파일에 없고, 그렇다고 화면에 적습니다).
 * 2) 선과 "가장 큰 키" 에서 양 끝 토큰을 빼고 보기 (buildEndsSwitch). 다시 나눈 행은 head-explorer.js 의 shownRow 가 만듭니다.
 *
 * 이 코드가 head-explorer.js 와 따로 있는 까닭: "여러분의 문장으로" 도 head-explorer.js 를 받지만 이 스위치는 쓰지 않습니다.
 * 한 파일에 있으면 그 페이지가 쓰지 않는 8 KB 를 받습니다 (tests/test_page_weight.py). 그래서 overrides/main.html 은
 * 탐색기에 data-ablation 이 있는 페이지에만 이 파일을 붙입니다. head-explorer.js 보다 먼저 붙여 먼저 실행되므로,
 * 탐색기 JSON 이 언제 오든 head-explorer.js 의 build 가 이 모듈을 봅니다 (뒤에 붙이면 JSON 이 먼저 올 때 스위치가 빠집니다).
 * 주고받는 것은 window.headExplorerSwitch 의 두 함수뿐입니다 (head-explorer.js 의 "덧붙는 스위치" 설명):
 * build(ex, tools) 는 탐색기를 만들 때 한 번, draw(ex) 는 탐색기를 그릴 때마다(render) 부릅니다.
 * 프레임워크나 외부 스크립트 없이 평범한 JavaScript 만 씁니다.
 */
(function () {
  "use strict";

  // 공통 도구 (explorer-common.js, 이 파일보다 먼저 붙습니다)
  var el = window.attentionExplorers.el;
  var OFF_FORMAT = "explorer-ablation/1";

  // head-explorer.js 의 도구들 (buildSwitch 가 받아 둡니다: 탐색기마다 같은 함수입니다)
  var num, headName, setText, pickHead, render;

  /* 고른 헤드 끄기, 그 층 전체 끄기. 단추는 층·헤드 단추와 같은 모양이고, 결과 칸은 화면 읽기 프로그램이 읽어 줍니다.
     head-explorer.js 의 build 가 층·헤드 단추 다음에 부르므로, 상자는 그 바로 아래에 붙습니다. */
  function buildSwitch(ex, tools) {
    num = tools.num;
    headName = tools.headName;
    setText = tools.setText;
    pickHead = tools.pickHead;
    render = tools.render;
    // 탐색기의 상태에 더하는 셋
    // off: 끈 것 {l, h} (h 가 null 이면 l층 전체). 독자가 다시 켜기 전까지 문장을 바꿔도 그대로 둡니다.
    // offData: 헤드를 꺼 본 값 {status: "loading" | "ok" | "error", data, reason}. 처음 끌 때 한 번만 받습니다.
    // offShown: 결과 칸에 지금 그려 둔 것 (같으면 다시 그리지 않습니다).
    ex.off = ex.offData = ex.offShown = null;
    var box = el("div", { "class": "head-explorer__switch", role: "group", "aria-label": "헤드 끄기" });
    box.appendChild(el("p", { "class": "head-explorer__note" },
      "헤드 끄기: 고른 헤드나 그 층을 꺼 두고 같은 문장을 다시 계산하면 무엇이 바뀌는지 봅니다."));
    var buttons = el("div", { "class": "head-explorer__steppers" });
    ex.offHead = el("button", { type: "button", "class": "head-explorer__step", "data-off": "head" });
    ex.offLayer = el("button", { type: "button", "class": "head-explorer__step", "data-off": "layer" });
    ex.offHead.addEventListener("click", function () { switchOff(ex, ex.state.l, ex.state.h); });
    ex.offLayer.addEventListener("click", function () { switchOff(ex, ex.state.l, null); });
    buttons.appendChild(ex.offHead);
    buttons.appendChild(ex.offLayer);
    box.appendChild(buttons);
    buildEndsSwitch(ex, box);
    ex.switched = el("div", { "class": "head-explorer__switched", "aria-live": "polite" });
    box.appendChild(ex.switched);
    ex.root.appendChild(box);
  }

  /* 두 번째 스위치: 선과 "가장 큰 키" 에서 양 끝 토큰(MiniLM 의 [CLS]·[SEP], e5 의 <s>·</s>)을 빼고 행을 다시 나눠 봅니다.
     많은 헤드가 가중치의 큰 몫을 이 두 토큰에 두므로(쉬는 자리) 나머지 토큰 사이의 몫이 잘 보이지 않습니다. 보기만 바꿉니다:
     모델은 두 토큰에도 가중치를 주고, 헤드를 끈 값·작은 히트맵·네 단계는 모델의 값 그대로라고 화면에 적습니다.
     "여러분의 문장으로" 의 조사 표에 있는 같은 스위치(own-sentence.js 의 endsSwitch)와 같은 식: w / (1 − w(처음) − w(끝)). */
  function buildEndsSwitch(ex, box) {
    var tokens = ex.data.sentences[0].tokens, ends = tokens[0] + ", " + tokens[tokens.length - 1];
    var label = el("label", { "class": "head-explorer__ends" });
    var input = el("input", { type: "checkbox", "data-view": "ends" });
    label.appendChild(input);
    label.appendChild(document.createTextNode(" 선과 가장 큰 키에서 " + ends + " 빼고 나누기 (보기만 바뀝니다)"));
    box.appendChild(label);
    var note = el("p", { "class": "head-explorer__note" },
      "보기만 바꿉니다. 모델은 " + ends + "에도 그대로 가중치를 주고, 계산도 바뀌지 않습니다. 두 토큰의 몫을 빼고 나머지를 " +
      "다시 나눠 합을 1로 맞췄습니다. 작은 히트맵, 네 단계, 헤드를 끈 값은 모델의 값 그대로입니다.");
    note.hidden = true;
    box.appendChild(note);
    input.addEventListener("change", function () {
      ex.hideEnds = input.checked;
      note.hidden = !input.checked;
      ex.root.setAttribute("data-view", input.checked ? "ends-hidden" : "model");
      render(ex);
    });
  }

  /* 헤드 l-h (h 가 null 이면 l층 전체) 를 끕니다. 값이 아직 없으면 받기 시작하고, 오면 결과를 그립니다. */
  function switchOff(ex, l, h) {
    ex.off = { l: l, h: h };
    if (!ex.offData) loadSwitch(ex);
    drawSwitch(ex);
  }

  function switchOn(ex) {
    ex.off = null;
    drawSwitch(ex);
    // 누른 "다시 켜기" 단추가 사라지므로 초점을 끄기 단추로
    ex.offHead.focus();
  }

  function loadSwitch(ex) {
    var entry = ex.offData = { status: "loading" };
    fetch(ex.options.ablation)
      .then(function (r) {
        if (!r.ok) throw new Error(r.status + " " + r.statusText);
        return r.json();
      })
      .then(function (d) {
        checkSwitch(ex, d);
        entry.data = d;
        entry.status = "ok";
      })
      .catch(function (err) {
        entry.status = "error";
        entry.reason = err.message;
      })
      .then(function () { drawSwitch(ex); });
  }

  /* 헤드를 꺼 본 값이 이 탐색기와 맞는지: 형식, 층·헤드 수, 같은 문장들, 칸 수 (층마다 헤드 수 + 층 전체). */
  function checkSwitch(ex, d) {
    if (!d || d.format !== OFF_FORMAT) throw new Error("형식이 " + OFF_FORMAT + " 이 아닙니다");
    if (d.layers !== ex.L || d.heads !== ex.H) throw new Error("층·헤드 수가 탐색기와 다릅니다");
    var texts = ex.data.sentences.map(function (sent) { return sent.text; });
    if (!Array.isArray(d.sentences) || d.sentences.map(function (x) { return x.text; }).join("\n") !== texts.join("\n")) {
      throw new Error("문장이 탐색기와 다릅니다");
    }
    d.sentences.forEach(function (x) {
      [x.one_minus_cos, x.moved].forEach(function (rows) {
        if (!Array.isArray(rows) || rows.length !== ex.L || !rows.every(function (r) { return r.length === ex.H + 1; })) {
          throw new Error("층마다 헤드 " + ex.H + "개와 층 전체의 값이 있어야 합니다");
        }
      });
    });
  }

  /* 단추의 글(고른 헤드·층)과 결과 칸. 결과는 끈 것·문장·받은 상태가 바뀔 때만 다시 그립니다 (헤드를 고를 때마다 부릅니다). */
  function drawSwitch(ex) {
    var state = ex.state, off = ex.off, box = ex.switched, entry = ex.offData;
    setText(ex.offHead, "헤드 " + headName(state.l, state.h) + " 끄기");
    setText(ex.offLayer, (state.l + 1) + "층 전체 끄기");
    var key = off ? [state.s, off.l, off.h, entry.status].join(",") : "";
    if (key === ex.offShown) return;
    ex.offShown = key;
    box.textContent = "";
    if (!off) {
      ex.root.removeAttribute("data-off");
      return;
    }
    ex.root.setAttribute("data-off", off.l + "," + (off.h === null ? "layer" : off.h) + "," + entry.status);
    if (entry.status !== "ok") {
      box.appendChild(el("p", { "class": "head-explorer__note" },
        entry.status === "loading" ? "빌드 때 계산해 둔 값을 받고 있습니다…" :
          "빌드 때 계산해 둔 값을 받지 못했습니다 (" + entry.reason + "). 탐색기의 나머지는 그대로 볼 수 있습니다."));
      return;
    }
    var sent = entry.data.sentences[state.s], col = off.h === null ? ex.H : off.h;
    var what = off.h === null ? (off.l + 1) + "층의 헤드 " + ex.H + "개를 모두" : "헤드 " + headName(off.l, off.h) + "만";
    var p = el("p", {}, what + " 끄면 문장 임베딩이 끄지 않았을 때보다 1 − cos = ");
    p.appendChild(num("off-cos", sent.one_minus_cos[off.l][col], 5));
    p.appendChild(document.createTextNode("만큼 움직입니다."));
    box.appendChild(p);
    box.appendChild(movedList(ex, sent.moved[off.l][col]));
    box.appendChild(switchNote(ex));
    var on = el("button", { type: "button", "class": "head-explorer__step", "data-off": "on" }, "다시 켜기");
    on.addEventListener("click", function () { switchOn(ex); });
    box.appendChild(on);
  }

  /* 뒤 층에서 어텐션이 가장 많이 움직인 헤드들 (빌드 때 고른 순서 그대로). 누르면 탐색기에서 그 헤드를 봅니다. */
  function movedList(ex, moved) {
    var wrap = el("div", {});
    if (!moved.length) {
      wrap.appendChild(el("p", {}, "마지막 층이라 뒤에 오는 헤드가 없습니다. 다른 헤드의 어텐션은 그대로이고, 움직이는 것은 임베딩뿐입니다."));
      return wrap;
    }
    // "젠슨-섀넌" 은 붙임표에서 줄이 바뀌지 않게 한 덩어리로 (본문의 glue 와 같은 .glue)
    var title = el("p", {}, "어텐션이 가장 많이 움직인 뒤 층 헤드 " + moved.length + "개 (");
    title.appendChild(el("span", { "class": "glue" }, "젠슨-섀넌 거리"));
    title.appendChild(document.createTextNode(", 문장의 모든 쿼리 행 평균). 누르면 위에서 그 헤드를 봅니다:"));
    wrap.appendChild(title);
    var ol = el("ol", {});
    moved.forEach(function (m) {
      var li = el("li", { "data-head": headName(m[0], m[1]) });
      var b = el("button", { type: "button", "class": "head-explorer__step" }, "헤드 " + headName(m[0], m[1]));
      b.addEventListener("click", function () { pickHead(ex, m[0], m[1]); });
      li.appendChild(b);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(num("off-moved", m[2], 4));
      ol.appendChild(li);
    });
    wrap.appendChild(ol);
    return wrap;
  }

  /* 이 값이 어디서 왔는지, 그리고 직접 다시 계산하는 곳 (페이지가 탐색기 div 의 data-method, data-recompute 로 주소를 줍니다:
     이 파일만 쓰는 주소라 head-explorer.js 의 options 를 거치지 않고 여기서 읽습니다). */
  function switchNote(ex) {
    var root = ex.root;
    var note = el("p", { "class": "head-explorer__note" },
      "이 값은 사이트를 빌드할 때 numpy로 계산해 둔 것입니다. 이 페이지에는 브라우저 안의 모델이 없어서, " +
      "위의 작은 히트맵과 선은 끄지 않은 모델의 가중치 그대로입니다.");
    var links = [[root.getAttribute("data-method"), "보는 것과 시험하는 것", "끄는 방법"],
                 [root.getAttribute("data-recompute"), "여러분의 문장으로", "한국어 모델로 여러분의 문장에서 다시 계산하기"]];
    links.forEach(function (x) {
      if (!x[0]) return;
      note.appendChild(document.createTextNode(" " + x[2] + ": "));
      note.appendChild(el("a", { href: x[0] }, x[1]));
      note.appendChild(document.createTextNode("."));
    });
    return note;
  }

  window.headExplorerSwitch = { build: buildSwitch, draw: drawSwitch };
})();
