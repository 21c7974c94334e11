/* "여러분의 문장으로" 와 "여러분의 프롬프트로" 페이지를 맡는 서비스 워커: 네트워크가 없을 때 그 페이지와 스크립트·스타일을
 * 저장본에서 줍니다.
 *
 * 페이지(assets/own-sentence.js, assets/own-prompt.js)는 독자가 모델을 한 번 연 뒤에만 이것을 등록하고(범위는 그 페이지의 폴더 하나),
 * 자기가 쓴 파일을 "attention-own-sentence-page" 저장소에 넣어 둡니다. 여기서는 네트워크를 먼저 쓰고(고친 글이
 * 바로 보이게), 네트워크가 안 될 때 저장본을 줍니다. 브라우저가 네트워크가 없다고 알면(navigator.onLine === false)
 * 실패할 요청을 보내지 않고 저장본부터 줍니다. 모델 파일(models/)은 웹 워커가 저장소에서 직접 읽으므로 건드리지 않습니다.
 *
 * 저장본으로 준 페이지에는 <html data-saved-copy> 표시를 붙입니다. 페이지는 그것을 보고 실패할 것이 뻔한 요청을 보내지
 * 않습니다: 검색 색인과 검색 작업자(overrides/main.html; 작업자의 파일은 이 워커의 범위 밖이라 저장본이 없습니다)와,
 * 모델 목록을 네트워크에 먼저 묻는 일(assets/model-tool.js 의 manifestOf). navigator.onLine 은 네트워크가 닿지 않아도 true 일 때가
 * 많아(와이파이는 붙었지만 인터넷이 없을 때, 브라우저의 오프라인 흉내) 그것만으로는 알 수 없습니다.
 */
"use strict";

var PAGE_CACHE = "attention-own-sentence-page";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (ev) { ev.waitUntil(self.clients.claim()); });

/* 저장본: 페이지(navigate 요청)라면 표시를 붙여서. 저장본이 없으면 err 를 그대로 (브라우저가 실패로 알립니다). */
function savedCopy(req, err) {
  return caches.match(req, { ignoreSearch: true }).then(function (hit) {
    if (!hit) throw err;
    if (req.mode !== "navigate") return hit;
    return hit.text().then(function (html) {
      return new Response(html.replace(/<html(?=[\s>])/, "<html data-saved-copy"),
                          { status: hit.status, statusText: hit.statusText, headers: hit.headers });
    });
  });
}

self.addEventListener("fetch", function (ev) {
  var req = ev.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || url.pathname.indexOf("/models/") >= 0) return;
  if (self.navigator.onLine === false) {
    ev.respondWith(savedCopy(req, new TypeError("저장본 없음")).catch(function () { return fetch(req); }));
    return;
  }
  ev.respondWith(fetch(req).then(function (res) {
    if (res.ok && res.type === "basic") {
      var copy = res.clone();
      caches.open(PAGE_CACHE).then(function (c) { return c.put(req, copy); });
    }
    return res;
  }).catch(function (err) { return savedCopy(req, err); }));
});
