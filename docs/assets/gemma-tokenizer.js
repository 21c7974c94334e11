/* Gemma 3 의 토크나이저를 브라우저에서: snippets/lib/gemma_tokenizer.py 의 GemmaTokenizer 를 부분 어휘(vocab.json)로 옮긴 것.
 *
 * 나누기 세 단계 (파이썬과 같은 차례):
 *   1. 공백을 ▁ 로 바꾸고, 사용자 정의 조각(줄바꿈, 공백 여러 개 …)을 글에서 먼저 통째로 떼어 냅니다 (긴 것부터).
 *   2. 나머지는 글자 하나씩에서 시작해, 이어 붙인 것이 어휘에 있는 이웃 쌍 가운데 점수가 가장 높은 쌍(같으면 왼쪽)을
 *      합치기를 되풀이합니다 (SentencePiece 의 BPE).
 *   3. 끝까지 남은 덩어리가 어휘에 없으면 UTF-8 바이트마다 바이트 조각(<0xEC> 같은)으로 씁니다.
 * 어휘는 전체 262,144개가 아니라 "글자가 모두 프롬프트 글자(S)에 있는 조각" 뿐입니다. 다루는 덩어리가 언제나 글의 부분
 * 문자열이므로, 글자가 모두 S 에 있는 글에서는 전체 어휘와 같은 토큰이 나옵니다 (까닭: snippets/sitedata/gemma_browser.py 맨 위,
 * 확인: tests/test_own_prompt_browser.py 가 수천 개의 글로). 그래서 S 밖의 글자는 나누기 전에 알립니다 (check).
 *
 *   var tok = new GemmaTokenizer(vocabJson, maxTokens, manifest.prompt_chars);
 *   tok.encode("나는 학교에") → {ids: [원래 id …], rows: [embed.bin 의 행 …], tokens: [조각 …]}
 *                              또는 {error: {kind, message, position, char}}
 *   kind: "empty" | "emoji" | "hanja" | "latin" | "unsupported" | "too_long". 메시지는 독자에게 그대로 보일 한국어입니다.
 */
"use strict";

var SPACE_MARK = "\u2581";
var KIND = { NORMAL: 1, CONTROL: 3, USER: 4, BYTE: 6 };

/* ---- 합칠 후보의 더미: (점수 큰 것, 같으면 왼쪽) 이 맨 위. 파이썬 heapq 에 (-점수, 왼쪽, 조각) 을 넣은 것과 같은 차례. */
function PairHeap() { this.items = []; }
PairHeap.prototype.before = function (a, b) {
  return a.score !== b.score ? a.score > b.score : a.left !== b.left ? a.left < b.left : a.merged < b.merged;
};
PairHeap.prototype.push = function (item) {
  var h = this.items, i = h.length;
  h.push(item);
  while (i > 0) {
    var up = (i - 1) >> 1;
    if (!this.before(h[i], h[up])) break;
    var t = h[i]; h[i] = h[up]; h[up] = t; i = up;
  }
};
PairHeap.prototype.pop = function () {
  var h = this.items, top = h[0], last = h.pop();
  if (h.length) {
    h[0] = last;
    for (var i = 0; ;) {
      var l = 2 * i + 1, r = l + 1, best = i;
      if (l < h.length && this.before(h[l], h[best])) best = l;
      if (r < h.length && this.before(h[r], h[best])) best = r;
      if (best === i) break;
      var t = h[i]; h[i] = h[best]; h[best] = t; i = best;
    }
  }
  return top;
};

/* ---- 토크나이저 ---------------------------------------------------------------------------------- */

function GemmaTokenizer(vocab, maxTokens, promptRanges) {
  if (!vocab || vocab.format !== "gemma-vocab/1") throw new Error("vocab.json 의 형식이 다릅니다");
  this.maxTokens = maxTokens;
  this.promptChars = charSet(promptRanges);
  this.row = new Map();  // 보통 조각·사용자 정의 조각 → 행
  this.score = new Map();  // 보통 조각 → 점수
  this.byteRow = new Array(256);
  this.ids = vocab.ids;
  this.pieces = vocab.pieces;
  var users = [];
  for (var r = 0; r < vocab.count; r++) {
    var p = vocab.pieces[r], k = vocab.kinds[r];
    if (k === KIND.NORMAL) { this.row.set(p, r); this.score.set(p, vocab.scores[r]); }
    else if (k === KIND.USER) { this.row.set(p, r); users.push(p); }
    else if (k === KIND.BYTE) this.byteRow[parseInt(p.slice(3, 5), 16)] = r;
    else if (k === KIND.CONTROL && p === "<bos>") this.bosRow = r;
  }
  users.sort(function (a, b) { return b.length - a.length; });
  this.users = users;
  for (var b = 0; b < 256; b++) if (this.byteRow[b] === undefined) throw new Error("바이트 조각 <0x" + b.toString(16) + "> 이 어휘에 없습니다");
}

/* 사용자 정의 조각이 없는 글 → 행들 (점수가 가장 높은 이웃 쌍부터 합치기). 글자는 코드 포인트 하나씩입니다. */
GemmaTokenizer.prototype.bpe = function (text) {
  var symbols = Array.from(text), n = symbols.length, score = this.score;
  var next = [], prev = [], heap = new PairHeap();
  for (var i = 0; i < n; i++) { next.push(i + 1); prev.push(i - 1); }
  function push(left) {
    var right = next[left];
    if (right < n && symbols[left] !== null && symbols[right] !== null) {
      var merged = symbols[left] + symbols[right];
      if (score.has(merged)) heap.push({ score: score.get(merged), left: left, merged: merged });
    }
  }
  for (var j = 0; j + 1 < n; j++) push(j);
  while (heap.items.length) {
    var top = heap.pop(), l = top.left, r = next[l];
    if (symbols[l] === null || r >= n || symbols[l] + symbols[r] !== top.merged) continue;  // 낡은 후보
    symbols[l] = top.merged;
    symbols[r] = null;
    next[l] = next[r];
    if (next[l] < n) prev[next[l]] = l;
    push(l);
    if (prev[l] >= 0) push(prev[l]);
  }
  var rows = [];
  for (var k = 0; k < n; k++) {
    var s = symbols[k];
    if (s === null) continue;
    if (this.row.has(s)) rows.push(this.row.get(s));
    else this.bytesOf(s).forEach(function (byte) { rows.push(this.byteRow[byte]); }, this);
  }
  return rows;
};

GemmaTokenizer.prototype.bytesOf = function (s) { return Array.from(new TextEncoder().encode(s)); };

/* 글 → 행들: 사용자 정의 조각을 먼저 떼고 (긴 것부터, 왼쪽에서), 그 사이를 bpe 로. 앞에 <bos>. */
GemmaTokenizer.prototype.rowsOf = function (text) {
  var rows = [this.bosRow], start = 0, at = 0;
  text = text.split(" ").join(SPACE_MARK);
  while (at < text.length) {
    var hit = null;
    for (var u = 0; u < this.users.length && hit === null; u++) if (text.startsWith(this.users[u], at)) hit = this.users[u];
    if (hit === null) { at += 1; continue; }
    rows = rows.concat(this.bpe(text.slice(start, at)), [this.row.get(hit)]);
    at += hit.length;
    start = at;
  }
  return rows.concat(this.bpe(text.slice(start)));
};

/* 코드 포인트 구간 [[처음, 끝], …] (manifest.prompt_chars) → 글자 집합 */
function charSet(ranges) {
  var set = new Set();
  ranges.forEach(function (r) { for (var c = r[0]; c <= r[1]; c++) set.add(String.fromCodePoint(c)); });
  return set;
}

GemmaTokenizer.prototype.check = function (text) { return checkPrompt(text, this.promptChars); };

/* 프롬프트로 쓸 수 없는 글: 첫 글자의 자리(1부터, 코드 포인트)와 종류를 밝힌 한국어 알림, 괜찮으면 null.
   페이지는 모델을 받기 전에도 이것으로 글자를 봅니다 (GemmaTokenizer.checkPrompt). */
function checkPrompt(text, allowed) {
  var chars = Array.from(text);
  if (!chars.some(function (c) { return c !== " " && c !== SPACE_MARK; })) {
    return { kind: "empty", message: "프롬프트를 써 주세요. 빈 글(띄어쓰기뿐인 글)로는 다음 토큰을 고를 수 없습니다." };
  }
  for (var i = 0; i < chars.length; i++) {
    var c = chars[i];
    if (allowed.has(c)) continue;
    var kind = charKind(c), where = (i + 1) + "번째 글자 '" + c + "'";
    var latinOnly = kind === "latin" && !chars.some(function (x) { return /[\uac00-\ud7a3\u3131-\u318e\u1100-\u11ff]/.test(x); });
    var why = {
      emoji: "는 이모지입니다. 이 도구의 어휘에는 이모지 조각을 넣지 않았습니다.",
      hanja: "는 한자입니다. 이 도구의 어휘에는 한글·숫자·문장부호 조각만 있습니다. 한글로 바꿔 써 주세요.",
      latin: latinOnly ? "는 영어 글자입니다. 영어로만 된 글은 이 도구가 다루지 않습니다: 한국어 프롬프트를 써 주세요."
                       : "는 영어 글자입니다. 이 도구의 어휘에는 영어 조각이 없습니다. 한글로 바꿔 써 주세요.",
      unsupported: "는 이 도구가 읽지 못하는 글자입니다. 한글, 숫자, 띄어쓰기, 문장부호만 쓸 수 있습니다."
    }[kind];
    return { kind: kind, position: i + 1, char: c, message: where + why };
  }
  return null;
}

/* 글자 하나의 종류: 이모지, 한자(CJK 통합 한자), 영어 글자, 그 밖 */
function charKind(c) {
  if (/\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F3FB}-\u{1F3FF}\u200d\ufe0f]/u.test(c)) return "emoji";
  if (/\p{Script=Han}/u.test(c)) return "hanja";
  if (/[A-Za-z]|\p{Script=Latin}/u.test(c)) return "latin";
  return "unsupported";
}

GemmaTokenizer.prototype.encode = function (text) {
  if (typeof text !== "string") return { error: { kind: "empty", message: "프롬프트가 글이 아닙니다." } };
  var problem = this.check(text);
  if (problem) return { error: problem };
  var rows = this.rowsOf(text);
  if (rows.length > this.maxTokens) {
    return { error: { kind: "too_long", count: rows.length, message: "프롬프트가 토큰 " + rows.length + "개입니다 (<bos> 포함). " +
      "이 도구는 " + this.maxTokens + "개까지 계산합니다: 글을 줄여 주세요." } };
  }
  var self = this;
  return { rows: rows, ids: rows.map(function (r) { return self.ids[r]; }), tokens: rows.map(function (r) { return self.pieces[r]; }) };
};

GemmaTokenizer.charSet = charSet;
GemmaTokenizer.checkPrompt = checkPrompt;
self.GemmaTokenizer = GemmaTokenizer;
