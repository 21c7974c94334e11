/* 모델을 받아 브라우저에서 계산하는 두 도구("여러분의 문장으로" own-sentence.js, "여러분의 프롬프트로" own-prompt.js)가
 * 함께 쓰는 것: 틀(글 상자, 받기 단추, 진행 막대와 알림), 모델 받기와 워커, 워커와 주고받는 요청, 네트워크 없이 다시 오기.
 * 두 도구의 페이지만 이 파일을 붙입니다 (overrides/tools.yml: explorer-common.js 다음, 도구 스크립트 앞). 다른 도구의
 * 페이지는 받지 않습니다.
 *
 * 도구 하나의 상태와 화면의 부분은 객체 하나(tool: root, scripts, status, problem …, modelTool 이 만듭니다)에 있고,
 * 아래 함수들은 그것을 첫 인자로 받습니다.
 */
window.modelTools = (function () {
  "use strict";

  var common = window.attentionExplorers, el = common.el, setBlocked = common.setBlocked;  /* explorer-common.js */

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

  function mb(bytes) { return (bytes / 1e6).toFixed(0); }
  function packBytes(manifest, pack) {
    return manifest.packs[pack].reduce(function (s, name) { return s + manifest.files[name].bytes; }, 0);
  }

  /* 두 도구에 같은 상태: 상자, 모델 목록(과 그 주소 base), 워커 스크립트, 요청 번호 … 도구마다의 것은 own 에. */
  function modelTool(root, manifest, idPrefix, own) {
    return Object.assign({
      root: root, manifest: manifest, uid: idPrefix + Math.random().toString(36).slice(2, 8),
      base: new URL(root.getAttribute("data-src"), document.baseURI),
      scripts: root.getAttribute("data-scripts").split(" ").map(function (s) { return new URL(s, document.baseURI).href; }),
      worker: null, ready: false,  // ready: 모델을 열었는지
      loading: false,  // 모델을 받는 중
      busy: false,  // 워커가 계산하는 중: 계산하기를 막습니다
      pending: null,  // 모델을 받기 전에 계산하려던 글: 받은 뒤 바로 계산합니다
      runId: 0,  // 워커에 보낸 마지막 요청의 번호: 다른 번호의(앞선) 답은 버립니다
      gets: []  // 받기 단추들 (도구의 buildControls 가 채웁니다)
    }, own);
  }

  /* 글 상자와 "계산하기" (form 이라 Enter 로도 계산합니다). 계산하는 중에는 누름을 무시합니다. */
  function buildForm(tool, prefix, label, compute) {
    var id = tool.uid + "-text", form = tool.form = el("form", { "class": prefix + "__form" });
    form.appendChild(el("label", { "for": id }, label));
    tool.input = form.appendChild(el("input", { type: "text", id: id, name: "text", autocomplete: "off", spellcheck: "false",
                                                value: tool.root.getAttribute("data-example") || "" }));
    tool.run = form.appendChild(el("button", { type: "submit", "class": prefix + "__run" }, "계산하기"));
    tool.root.appendChild(form);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!tool.busy) compute(tool);
    });
  }

  /* 도구의 틀: 글 상자와 계산하기, 받기 단추들(controls(tool) 이 만듭니다), 진행 막대와 알림, 결과 상자 */
  function buildModelTool(tool, prefix, label, compute, controls) {
    tool.root.textContent = "";
    buildForm(tool, prefix, label, compute);
    controls(tool);
    buildMessages(tool, prefix);
    setState(tool, "idle");
    say(tool, "모델 파일은 이 단추를 누를 때만 받습니다. 한 번 받으면 이 브라우저에 저장됩니다.");
  }

  /* 받기: 단추를 막고 진행 막대를 보인 뒤, before()(있으면: 저장 공간 보기 등)가 끝나면 워커를 띄워 load 를 보냅니다. */
  function loadModel(tool, onMessage, load, before) {
    clearProblem(tool);
    tool.loading = true;
    tool.gets.forEach(function (b) { setBlocked(b, true); });
    tool.bar.hidden = false;
    tool.bar.value = 0;
    setState(tool, "loading");
    say(tool, "모델 파일을 준비하고 있습니다…");
    (before ? before() : Promise.resolve()).then(function () { return startWorker(tool, onMessage); }).then(function (w) {
      w.postMessage(load);
    }, function () {
      loadFailed(tool, "모델을 계산할 스크립트를 받지 못했습니다. 네트워크를 확인하고 다시 눌러 주세요.", "network");
    });
  }

  function loadFailed(tool, message, kind) {
    tool.bar.hidden = true;
    tool.loading = false;
    tool.gets.forEach(function (b) { setBlocked(b, false); });
    setState(tool, tool.ready ? "ready" : "idle");
    say(tool, "");
    fail(tool, message, kind);
  }

  /* 받는 동안의 글: 받은 양, 그다음 파일 확인(sha256)과 풀기(preparing). 받기가 끝난 뒤에도 1초 가까이 걸리므로 막대를
     멈춘 채 두지 않고 "확인하고 있습니다" 로 바꿉니다 (막대는 끝을 모르는 모양으로). */
  function showProgress(tool, m) {
    tool.bar.value = m.total ? m.loaded / m.total : 1;
    say(tool, "받는 중: " + (m.loaded / 1e6).toFixed(1) + " / " + (m.total / 1e6).toFixed(1) + " MB");
  }
  function showPhase(tool, m, preparing) {
    if (m.phase !== "check" && m.phase !== "prepare") return;
    tool.bar.removeAttribute("value");
    say(tool, m.phase === "check" ? "받은 파일(" + m.name + ")이 맞는지 확인하고 있습니다…" : preparing);
  }

  /* 워커의 말 하나: 받는 동안의 말(progress, phase, load-error)은 여기서, 나머지는 도구의 handlers[m.type](tool, m) 가.
     preparing: 받은 파일을 확인한 뒤 모델을 준비하는 동안의 글 (워커마다 하는 일이 다릅니다). */
  function workerSaid(tool, m, preparing, handlers) {
    if (m.type === "progress") showProgress(tool, m);
    else if (m.type === "phase") showPhase(tool, m, preparing);
    else if (m.type === "load-error") loadFailed(tool, m.message, m.kind);
    else if (handlers[m.type]) handlers[m.type](tool, m);
  }

  /* 받기 단추가 사라질 때 초점이 그 단추에 있었다면 글 상자로 옮깁니다 (<body> 로 떨어지지 않게). */
  function hideButton(tool, button) {
    var had = document.activeElement === button;
    button.hidden = true;
    if (had) tool.input.focus();
  }

  /* 워커가 모델을 열었습니다 ({type: "ready", cached, kernel}): 막대와 받기 단추를 거두고 어디서 열었는지 표시합니다. */
  var OPENED = { cache: "이 브라우저에 저장된 모델을 열었습니다. 네트워크 없이도 계산합니다.",
                 saved: "모델을 받아 이 브라우저에 저장했습니다. 다음에는 받지 않고 바로 엽니다." };
  function modelOpened(tool, m) {
    tool.ready = true;
    tool.loading = false;
    tool.bar.hidden = true;
    tool.gets.forEach(function (b) { setBlocked(b, false); });
    hideButton(tool, tool.get);
    tool.root.setAttribute("data-source", m.cached ? "cache" : "network");
    tool.root.setAttribute("data-kernel", m.kernel);  // 행렬 곱을 도는 길: "wasm" 또는 "js" (SIMD 가 없는 브라우저)
    setState(tool, "ready");
    say(tool, "");
  }

  /* 모델 파일 가운데 묶음(pack) 하나가 모두 이 브라우저(Cache Storage 의 cache)에 있는지 → Promise<참/거짓> */
  function packSaved(tool, cache, pack) {
    return caches.open(cache).then(function (c) {
      return Promise.all(tool.manifest.packs[pack].map(function (name) { return c.match(new URL(name, tool.base).href); }));
    }).then(function (hits) { return hits.every(Boolean); });
  }

  /* 모델을 받기 전에 "계산하기"(또는 Enter): 큰 파일을 말없이 받지 않고, 크기를 알리고 받기 단추로 초점을 옮겨 묻습니다.
     독자가 그 단추를 누르면 받은 뒤 이 글을 바로 계산합니다 (pending). what: "이 문장을" 처럼 조사까지. */
  function askToLoad(tool, what, bytes) {
    fail(tool, what + " 계산하려면 먼저 모델 파일(약 " + mb(bytes) + " MB)을 받아야 합니다. " +
               "위의 \"" + tool.get.textContent + "\"를 누르면 받은 뒤 바로 계산합니다.", "need-model");
    tool.get.focus();
  }

  /* 워커에 계산을 맡깁니다: 계산하기를 막고, 요청에 새 번호(id)를 붙입니다. */
  function ask(tool, msg, state, saying) {
    tool.busy = true;
    setBlocked(tool.run, true);
    tool.runId += 1;
    msg.id = tool.runId;
    setState(tool, state);
    say(tool, saying);
    tool.worker.postMessage(msg);
  }

  /* 워커의 답: 마지막 요청의 답이 아니면 false (버립니다). 맞으면 계산하기를 다시 열고 true. */
  function answered(tool, m) {
    if (m.id !== tool.runId) return false;
    tool.busy = false;
    setBlocked(tool.run, false);
    setState(tool, "ready");
    return true;
  }

  /* 잘못된 입력에는 아무것도 그리지 않습니다: 앞의 결과도 지웁니다 */
  function clearResult(tool) {
    tool.result.textContent = "";
    tool.root.setAttribute("data-result", "none");
    say(tool, "");
  }

  /* selector 의 상자마다: 안내 글(waiting)을 적고, later(할 일) 때 모델 목록을 받아 형식(format)을 본 뒤 build(상자, 목록). */
  function openModelTools(selector, waiting, format, build, later) {
    document.querySelectorAll(selector).forEach(function (root) {
      var ready = root.getAttribute("data-ready");
      if (ready && ready !== "waiting") return;
      root.setAttribute("data-ready", "loading");
      root.textContent = waiting;
      later(function () {
        manifestOf(root).then(function (manifest) {
          if (!manifest || manifest.format !== format) throw new Error("모델 목록의 형식이 다릅니다");
          build(root, manifest);
          root.setAttribute("data-ready", "yes");
        }).catch(function (err) {
          root.setAttribute("data-ready", "error");
          root.textContent = "모델 목록을 받지 못했습니다 (" + err.message + "). 네트워크에 연결된 뒤 페이지를 다시 열어 주세요.";
        });
      });
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
    mb: mb, packBytes: packBytes, modelTool: modelTool, buildModelTool: buildModelTool, say: say, fail: fail,
    clearProblem: clearProblem, setState: setState, loadModel: loadModel, workerSaid: workerSaid, hideButton: hideButton,
    OPENED: OPENED, modelOpened: modelOpened, packSaved: packSaved, askToLoad: askToLoad, ask: ask, answered: answered,
    clearResult: clearResult, openModelTools: openModelTools, keepPageOffline: keepPageOffline
  };
})();
