/* "여러분의 문장으로" 와 "여러분의 프롬프트로" 페이지를 맡는 서비스 워커: 네트워크가 없을 때 그 페이지와 스크립트·스타일을
 * 저장본에서 줍니다.
 *
 * 페이지(assets/own-sentence.js, assets/own-prompt.js)는 독자가 모델을 한 번 연 뒤에만 이것을 등록하고(범위는 그 페이지의 폴더 하나),
 * 자기가 쓴 파일을 "attention-own-sentence-page" 저장소에 넣어 둡니다. 여기서는 늘 네트워크를 먼저 쓰고(고친 글이
 * 바로 보이게), 네트워크가 안 될 때만 저장본을 줍니다. 모델 파일(models/)은 웹 워커가 저장소에서 직접 읽으므로
 * 건드리지 않습니다.
 */
"use strict";

var PAGE_CACHE = "attention-own-sentence-page";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (ev) { ev.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (ev) {
  var req = ev.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || url.pathname.indexOf("/models/") >= 0) return;
  ev.respondWith(fetch(req).then(function (res) {
    if (res.ok && res.type === "basic") {
      var copy = res.clone();
      caches.open(PAGE_CACHE).then(function (c) { return c.put(req, copy); });
    }
    return res;
  }).catch(function (err) {
    return caches.match(req, { ignoreSearch: true }).then(function (hit) {
      if (hit) return hit;
      throw err;
    });
  }));
});
