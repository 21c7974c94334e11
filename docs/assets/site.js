/* 모든 페이지의 작은 스크립트 (overrides/main.html 이 Material 의 번들 다음에 붙입니다). 프레임워크 없이, 네 가지 일:
   1. 가로로 넘치는 상자를 키보드로 스크롤할 수 있는 이름 붙은 영역으로 (넘치지 않게 되면 되돌립니다).
   2. Material 의 코드 도구 막대와 검색 결과를 조금 고칩니다.
   3. 도구(헤드 탐색기, "여러분의 문장으로", 확인 문제, 어텐션 가중치 탐색기 …)가 있는 페이지에서는, 독자가 그 도구 가까이 내려올 때 스크립트를 붙입니다 (data-loads).
   4. 검색 색인을 받지 못하면(네트워크 없이 연 페이지) 검색 창에 그렇다고 적습니다.
   document$ 는 Material 이 페이지마다 알려 주는 관찰 대상입니다 (추가 JavaScript 를 붙이는 문서화된 방법).
   이 스크립트가 기대는 Material 의 동작은 tests/test_contracts.py 가 확인합니다. */
(function () {
  "use strict";

  /* 3. 도구(헤드 탐색기, "여러분의 문장으로", 확인 문제, 어텐션 가중치 탐색기 …): 스크립트와 데이터는 독자가 도구(data-boxes)
     가까이(한 화면 앞) 내려올 때 받습니다. 페이지를 여는 동안에는 아무것도 더 받지 않고, 도구까지 내려오지 않는
     독자는 받지 않습니다.
     받을 파일은 이 스크립트 태그의 data-loads(공백으로 나눔, 적힌 순서대로 실행, .css 는 스크립트보다 먼저)에 있고, 페이지 무게
     (tests/support/pageweight.py)가 그것을 셉니다. 빈 상자는 CSS 가 숨기므로(JavaScript 가 꺼진 독자) 안내 글을 넣어
     화면에 닿는지 볼 수 있게 합니다. */
  var me = document.currentScript;
  var loads = me && me.getAttribute("data-loads");
  if (loads) {
    var srcs = loads.split(" ");
    var isStyle = function (src) { return /\.css$/.test(src); };
    var scripts = function () {
      srcs.filter(function (src) { return !isStyle(src); }).forEach(function (src) {
        var script = document.createElement("script");
        script.src = src;
        script.async = false;  /* 끼워 넣은 스크립트도 적힌 순서대로 실행합니다 (공통 도구가 먼저) */
        document.head.appendChild(script);
      });
    };
    /* .css 는 스타일시트로 붙이고, 스크립트는 그것이 다 들어온 뒤에 붙입니다: 도구가 모양 없이 그려졌다가 바뀌지 않게 */
    var load = function () {
      var styles = srcs.filter(isStyle), pending = styles.length;
      if (!pending) return scripts();
      styles.forEach(function (href) {
        var link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = href;
        link.onload = link.onerror = function () { if (--pending === 0) scripts(); };
        document.head.appendChild(link);
      });
    };
    var boxes = document.querySelectorAll(me.getAttribute("data-boxes"));
    if (!("IntersectionObserver" in window)) {
      load();
    } else {
      var near = new IntersectionObserver(function (entries) {
        if (!entries.some(function (e) { return e.isIntersecting; })) return;
        near.disconnect();
        load();
      }, { rootMargin: "100% 0px" });
      boxes.forEach(function (box) {
        box.setAttribute("data-ready", "waiting");
        box.textContent = me.getAttribute("data-waiting");
        near.observe(box);
      });
    }
  }

  /* 1. 가로로 넘치는 상자마다 이름 붙은 영역(role=region)으로 만들고 Tab 으로 닿게 합니다: 화살표 키로 스크롤됩니다.
     화면 폭이 바뀌면(창 크기, 태블릿 회전) 다시 재어, 더는 넘치지 않는 상자는 원래대로 돌려놓습니다. 이 스크립트가
     붙인 표시는 data-scroll-region 으로 알아보고, 붙이기 전의 tabindex 는 data-scroll-tabindex 에 남깁니다
     (Material 이 코드 상자에 붙인 tabindex 를 지우지 않게). 이름의 번호는 지금 넘치는 상자만 셉니다: 이름이 서로
     달라야 화면 읽기 프로그램의 영역 목록에서 구별됩니다. */
  var BOXES = [[".md-typeset__scrollwrap", "표"], [".md-typeset div.arithmatex", "수식"],
               [".md-typeset .cell-output > pre", "실행 결과"], [".md-typeset pre > code", "코드"]];
  var MARK = "data-scroll-region", SAVED = "data-scroll-tabindex";

  function set(el, name, value) {
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);  /* 같은 값은 다시 쓰지 않습니다 (아래 관찰자가 또 부르지 않게) */
  }
  function mark(el, label) {
    if (!el.hasAttribute(MARK)) {
      el.setAttribute(MARK, "");
      if (el.hasAttribute("tabindex")) el.setAttribute(SAVED, el.getAttribute("tabindex"));
    }
    set(el, "tabindex", "0");
    set(el, "role", "region");
    set(el, "aria-label", label);
  }
  function unmark(el) {
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
    if (el.hasAttribute(SAVED)) {
      set(el, "tabindex", el.getAttribute(SAVED));
      el.removeAttribute(SAVED);
    } else {
      el.removeAttribute("tabindex");
    }
    el.removeAttribute(MARK);
  }
  function markScrollable() {
    /* 먼저 모든 상자를 재고, 그다음에 고칩니다. 재기와 고치기를 번갈아 하면 상자마다 스타일과 레이아웃을
       처음부터 다시 계산합니다 (휴대전화에서 긴 페이지는 그만큼 늦게 반응합니다).
       접힌 상자(<details>) 안은 재지 않습니다: 보이지 않고 Tab 으로 닿지도 않으며, 브라우저는 그 안을 그리지 않고
       미뤄 두는데 재는 순간 그 안(풀이 코드 전부)의 스타일과 레이아웃을 계산해야 합니다. 펼치면(toggle) 다시 잽니다. */
    var marks = [], unmarks = [];
    BOXES.forEach(function (box) {
      var n = 0;
      document.querySelectorAll(box[0]).forEach(function (el) {
        if (el.closest("details:not([open])")) {
          if (el.hasAttribute(MARK)) unmarks.push(el);
        } else if (el.scrollWidth > el.clientWidth + 1) {
          n += 1;
          marks.push([el, box[1] + " " + n + ", 가로로 스크롤"]);
        } else if (el.hasAttribute(MARK)) {
          unmarks.push(el);
        }
      });
    });
    unmarks.forEach(unmark);
    marks.forEach(function (m) { mark(m[0], m[1]); });
  }

  /* 2. Material 은 코드 블록마다 복사 단추를 <nav class="md-code__nav"> 로 감쌉니다. 이름 없는 탐색 영역이
     코드 블록 수만큼 생겨 화면 읽기 프로그램의 영역 목록을 어지럽히므로, 영역이 아닌 묶음으로 둡니다. */
  function tidyCodeTools() {
    document.querySelectorAll("nav.md-code__nav:not([role])").forEach(function (nav) { nav.setAttribute("role", "none"); });
  }
  /* content.lazy (mkdocs.yml): Material 은 코드 블록이 화면에 들어올 때에야 그 블록의 도구를 붙이고, 마우스가
     없는 기기에서는 그때 코드 상자의 tabindex 를 지웁니다. 그래서 도구가 붙거나 코드 상자의 tabindex 가
     바뀌면 (한 프레임에 한 번) 위의 두 일을 다시 합니다. Material 이 tabindex 를 지운 상자는 이 스크립트가
     붙이기 전의 값이 없던 것으로 봅니다. */
  var pending = false;
  function later() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; tidyCodeTools(); markScrollable(); });
  }
  function codeToolsChanged(records) {
    return records.some(function (r) {
      if (r.type === "attributes") {
        if (!r.target.matches("pre > code")) return false;
        if (r.target.hasAttribute(MARK) && !r.target.hasAttribute("tabindex")) r.target.removeAttribute(SAVED);
        return true;
      }
      return [].some.call(r.addedNodes, function (n) { return n.nodeType === 1 && n.matches("nav.md-code__nav"); });
    });
  }
  /* 코드 블록(pre)마다 지켜봅니다: 본문 전체(.md-content)를 지켜보면 탐색기가 요소 수백 개를 그릴 때마다 그 기록을 모두
     훑게 됩니다 (여러분의 문장으로: 문장 하나에 기록 수백 개). */
  function watchCodeTools() {
    var watcher = new MutationObserver(function (records) { if (codeToolsChanged(records)) later(); });
    document.querySelectorAll(".md-content pre").forEach(function (pre) {
      watcher.observe(pre, { childList: true });
      var code = pre.querySelector(":scope > code");
      if (code) watcher.observe(code, { attributes: true, attributeFilter: ["tabindex"] });
    });
  }
  document$.subscribe(function () {
    tidyCodeTools();
    markScrollable();
    watchCodeTools();
  });
  window.addEventListener("resize", later);
  document.addEventListener("toggle", later, true);  /* 접힌 풀이(details)를 펼치면 그 안의 상자도 */

  /* 4. 네트워크 없이 연 페이지(서비스 워커나 브라우저의 저장본)에서는 Material 이 검색 색인(search_index.json)을 받지
     못합니다. Material 은 그 실패를 처리하지 않아 "Network error" 가 잡히지 않은 오류로 두 번 올라가고, 검색 창은
     "검색 초기화" 에 머물러 아무 말이 없습니다. 그 오류(Material 번들의 XMLHttpRequest 가 낸 것만)를 받아 콘솔에
     오류로 남기지 않고, 검색 창에 검색을 쓸 수 없다고 적습니다. Material 의 그 동작은 tests/test_contracts.py 가 확인합니다. */
  var searchDown = false;
  function sayNoSearch() {
    if (searchDown) return;
    searchDown = true;
    var input = document.querySelector(".md-search__input");
    var meta = document.querySelector(".md-search-result__meta");
    if (input) input.setAttribute("placeholder", "검색할 수 없음 (연결 없음)");
    /* 저장본을 네트워크 없이 연 페이지(overrides/main.html 이 색인을 부르지 않고 표시만 남긴 경우)와, 색인을 받다가 실패한 경우 */
    var saved = document.documentElement.getAttribute("data-search-failed") === "offline";
    if (meta) meta.textContent = saved
      ? "네트워크 없이 저장본으로 연 페이지라 지금은 검색할 수 없습니다. 인터넷에 연결된 뒤 페이지를 다시 열어 주세요."
      : "검색 색인을 받지 못해 지금은 검색할 수 없습니다. 인터넷에 연결된 뒤 페이지를 다시 열어 주세요.";
    document.documentElement.setAttribute("data-search", "unavailable");
  }
  /* 오류를 받는 곳은 번들보다 먼저 붙는 작은 스크립트(overrides/main.html)입니다: 오류가 이 스크립트보다 먼저 오면
     표시(data-search-failed)가 남아 있고, 나중에 오면 그 스크립트가 이벤트로 알립니다. */
  if (document.documentElement.hasAttribute("data-search-failed")) sayNoSearch();
  document.addEventListener("attention:search-failed", sayNoSearch);
  /* 색인은 저장본에서 왔지만 검색 작업자가 제 파일(lunr)을 받지 못하면 오류 없이 "검색 초기화" 에 머뭅니다 (여러분의 문장으로
     페이지의 서비스 워커는 그 페이지만 맡아, 작업자의 파일은 저장하지 못합니다). 네트워크가 없고, 페이지를 다 연 뒤
     3초가 지나도 검색 창의 글이 처음 그대로이면 그때도 검색할 수 없다고 적습니다. */
  function watchSearchStart() {
    var meta = document.querySelector(".md-search-result__meta");
    if (!meta) return;
    var initial = meta.textContent;
    window.addEventListener("load", function () {
      setTimeout(function () {
        if (meta.textContent === initial && navigator.onLine === false) sayNoSearch();
      }, 3000);
    });
  }
  watchSearchStart();

  /* 검색 결과: 문서 안의 절만 검색어와 맞고 문서 첫머리는 맞지 않으면, Material 은 그 문서 제목 링크에
     강조할 검색어(?h=)를 비워 둡니다. 그 링크를 누르면 페이지에서 아무것도 강조되지 않으므로, 같은 결과
     묶음의 절 링크가 가진 검색어를 제목 링크에도 붙입니다. */
  var results = document.querySelector(".md-search-result__list");
  if (results) {
    new MutationObserver(function () {
      results.querySelectorAll(".md-search-result__item").forEach(function (item) {
        var links = item.querySelectorAll("a.md-search-result__link");
        if (!links.length) return;
        var page = new URL(links[0].href);
        if (page.searchParams.get("h")) return;
        for (var i = 1; i < links.length; i++) {
          var h = new URL(links[i].href).searchParams.get("h");
          if (h) { page.searchParams.set("h", h); links[0].href = page.href; return; }
        }
      });
    }).observe(results, { childList: true, subtree: true });
  }
})();
