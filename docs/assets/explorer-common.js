/* 사이트의 도구들(어텐션 가중치 탐색기, 헤드 탐색기, 학습 슬라이더, 여러분의 문장·프롬프트로, 다음 토큰 고르기,
 * 2장의 q·k 그림과 쿼리 하나 따라가기)이 함께 쓰는 작은 도구: 색표, 요소 만들기, 소프트맥스, 데이터를 받아 상자 그리기.
 * 페이지는 이 파일을 도구 스크립트보다 먼저 붙입니다 (overrides/main.html, 페이지가 적은 도구의 scripts 순서).
 */
window.attentionExplorers = (function () {
  "use strict";

  /* viridis 색표 (matplotlib 과 같은 색을 9단계로 잡고 사이를 잇습니다: 페이지의 그림과 같은 색) */
  var VIRIDIS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
    [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

  /* 0..1 → [r, g, b] (0..255 정수) */
  function viridis(t) {
    var x = Math.min(Math.max(t, 0), 1) * (VIRIDIS.length - 1);
    var i = Math.min(Math.floor(x), VIRIDIS.length - 2);
    var f = x - i;
    return VIRIDIS[i].map(function (v, k) { return Math.round(v + (VIRIDIS[i + 1][k] - v) * f); });
  }

  /* 요소 하나: 속성(attrs)과 글(text, 있으면) */
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* SVG 요소 하나: 속성(attrs) */
  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  /* 코어(snippets/lib/attention.py)의 softmax 와 같은 순서의 float64 계산: 최댓값을 빼고 지수를 취해 합으로 나눕니다. */
  function softmax(row) {
    var max = Math.max.apply(null, row);
    var exps = row.map(function (v) { return Math.exp(v - max); });
    var sum = exps.reduce(function (a, b) { return a + b; }, 0);
    return exps.map(function (e) { return e / sum; });
  }

  /* 상자 하나(root)의 data-src 의 JSON 을 받아 build(상자, 데이터) 로 그립니다. 상자의 data-ready 는
     loading → yes (또는 error: 상자에 "<failed>: 까닭" 을 적습니다). 이미 그렸거나 받는 중인 상자는 건너뜁니다. */
  function mount(root, build, failed) {
    var ready = root.getAttribute("data-ready");
    if (ready === "loading" || ready === "yes") return;
    root.setAttribute("data-ready", "loading");
    fetch(root.getAttribute("data-src"))
      .then(function (r) {
        if (!r.ok) throw new Error(r.status + " " + r.statusText);
        return r.json();
      })
      .then(function (data) { build(root, data); root.setAttribute("data-ready", "yes"); })
      .catch(function (err) {
        root.setAttribute("data-ready", "error");
        root.textContent = failed + ": " + err.message;
      });
  }

  /* selector 에 맞는 상자마다 mount */
  function mountAll(selector, build, failed) {
    document.querySelectorAll(selector).forEach(function (root) { mount(root, build, failed); });
  }

  /* ---- 모델을 받아 브라우저에서 계산하는 도구 ("여러분의 문장으로", "여러분의 프롬프트로") ------------------------
     도구 하나의 상태와 화면의 부분은 객체 하나(tool: root, scripts, status, problem …)에 있고, 아래 함수들은 그것을
     첫 인자로 받습니다. */

  /* 진행 막대, 알림 셋(모델의 상태, 계산하는 동안의 알림, 문제), 결과 상자. prefix 는 모양의 이름 (own-sentence …).
     모델의 상태(받아 저장했는지, 저장본을 열었는지)는 계산하는 동안의 알림(status)이 덮지 않게 따로 둡니다. */
  function buildMessages(tool, prefix) {
    var root = tool.root;
    tool.bar = root.appendChild(el("progress", { "class": prefix + "__progress", max: "1", value: "0", hidden: "",
                                                 "aria-label": "모델 파일 받기" }));
    tool.modelNote = root.appendChild(el("p", { "class": prefix + "__model", role: "status" }));
    tool.status = root.appendChild(el("p", { "class": prefix + "__status", role: "status" }));
    tool.problem = root.appendChild(el("p", { "class": prefix + "__error", role: "alert", hidden: "" }));
    tool.result = root.appendChild(el("div", { "class": prefix + "__result" }));
  }

  function say(tool, text) { tool.status.textContent = text; }
  function fail(tool, text, kind) {
    tool.problem.textContent = text;
    tool.problem.hidden = false;
    tool.root.setAttribute("data-error", kind || "error");
  }
  function clearProblem(tool) {
    tool.problem.hidden = true;
    tool.problem.textContent = "";
    tool.root.removeAttribute("data-error");
  }
  function setState(tool, s) { tool.root.setAttribute("data-state", s); }

  /* 단추를 잠시 못 쓰게 합니다. disabled 대신 aria-disabled: 초점이 있는 단추에 disabled 를 걸면 Chromium 은 초점을
     <body> 로 떨어뜨려, 키보드로 누른 독자가 자리를 잃습니다. 누름은 각 처리 함수가 이 표시를 보고 무시합니다. */
  function setBlocked(button, on) {
    if (!button) return;
    if (on) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }
  function blocked(button) { return button.getAttribute("aria-disabled") === "true"; }

  /* 워커: 토크나이저와 워커 스크립트(tool.scripts)를 받아 한 덩어리로 띄우고, 워커의 말을 onMessage(tool, 말) 로
     넘깁니다 (네트워크가 없을 때는 서비스 워커가 저장본을 줍니다). */
  function startWorker(tool, onMessage) {
    if (tool.worker) return Promise.resolve(tool.worker);
    return Promise.all(tool.scripts.map(function (src) {
      return fetch(src).then(function (r) {
        if (!r.ok) throw new Error(src + ": " + r.status);
        return r.text();
      }).then(function (text) { return text + "\n//# sourceURL=" + src + "\n"; });
    })).then(function (texts) {
      tool.worker = new Worker(URL.createObjectURL(new Blob(texts, { type: "text/javascript" })));
      tool.worker.onmessage = function (ev) { onMessage(tool, ev.data); };
      return tool.worker;
    });
  }

  /* ---- 네트워크 없이 다시 오는 독자 ("여러분의 문장으로", "여러분의 프롬프트로") ------------------------------ */

  var PAGE_CACHE = "attention-own-sentence-page";  // 페이지와 그 스크립트·스타일 (docs/own-sentence-sw.js 가 네트워크가 없을 때 씁니다)

  /* 상자(root)의 data-src 에 있는 모델 목록: 네트워크에서, 안 되면 저장본에서 (네트워크 없이 다시 온 독자). 페이지가
     저장본으로 열렸거나(서비스 워커의 표시 data-saved-copy, docs/own-sentence-sw.js) 브라우저가 네트워크가 없다고 알면
     저장본부터 읽어, 실패할 요청을 보내지 않습니다 (저장본이 없을 때만 네트워크에 물어 보고, 그 실패를 알립니다). */
  function manifestOf(root) {
    var url = new URL(root.getAttribute("data-src"), document.baseURI).href;
    function fromNetwork() {
      return fetch(url, { cache: "no-cache" }).then(function (r) {
        if (!r.ok) throw new Error(r.status + " " + r.statusText);
        return r.json();
      });
    }
    function fromCache(err) {
      if (!window.caches) return Promise.reject(err);
      return caches.match(url).then(function (hit) {
        if (!hit) throw err;
        return hit.json();
      });
    }
    if (navigator.onLine === false || document.documentElement.hasAttribute("data-saved-copy")) {
      return fromCache(new Error("저장본 없음")).catch(fromNetwork);
    }
    return fromNetwork().catch(fromCache);
  }

  /* 모델을 한 번 연 뒤: 이 페이지가 쓴 파일(페이지, scripts, 받은 스크립트·스타일·데이터; 모델 파일과 검색은 빼고)을
     저장하고, 네트워크가 없을 때 그것을 주는 서비스 워커(상자의 data-sw)를 이 페이지 폴더에 등록합니다.
     끝나면 상자에 data-offline="yes" 를 붙입니다. */
  function keepPageOffline(root, scripts) {
    if (!("serviceWorker" in navigator) || !window.caches) return;
    var urls = [location.href.split("#")[0]].concat(scripts);
    performance.getEntriesByType("resource").forEach(function (e) {
      var u = new URL(e.name);
      if (u.origin === location.origin && u.pathname.indexOf("/models/") < 0 && !/search_index|lunr|workers\//.test(u.pathname)) {
        urls.push(u.href);
      }
    });
    caches.open(PAGE_CACHE).then(function (c) {
      return Promise.all(urls.filter(function (u, i) { return urls.indexOf(u) === i; }).map(function (u) {
        return fetch(u).then(function (r) { if (r.ok) return c.put(u, r); }).catch(function () {});
      }));
    }).then(function () {
      return navigator.serviceWorker.register(root.getAttribute("data-sw"), { scope: "./" });
    }).then(function () {
      root.setAttribute("data-offline", "yes");
    }).catch(function () { /* 저장할 수 없는 브라우저(사생활 보호 창 등)에서는 온라인으로만 씁니다 */ });
  }

  return {
    viridis: viridis, el: el, svg: svg, softmax: softmax, mount: mount, mountAll: mountAll,
    buildMessages: buildMessages, say: say, fail: fail, clearProblem: clearProblem, setState: setState,
    setBlocked: setBlocked, blocked: blocked, startWorker: startWorker,
    manifestOf: manifestOf, keepPageOffline: keepPageOffline
  };
})();
