/* multilingual-e5-small 의 토크나이저를 평범한 JavaScript 로: 사이트의 tokenizers 토크나이저(snippets/lib/e5_numpy.py 의
 * build_tokenizer)와 토큰 하나하나까지 같은 결과를 냅니다. 웹 워커(e5-worker.js)와 페이지가 함께 씁니다.
 *
 * 단계 (build_tokenizer 의 설명과 같은 순서)
 *   0. 검사: 글자마다 정규화한 결과가 받은 묶음의 글자 집합 S 와 공백 안에 있어야 합니다. 아니면 그 글자와 자리를 알립니다.
 *   1. 정규화: 글자(코드 포인트)마다 표에서 찾아 바꾸고, 이어진 공백을 하나로 줄입니다.
 *   2. 공백을 ▁ 로 바꾸고, ▁ 로 시작하지 않으면 맨 앞에 ▁ 를 붙인 뒤, ▁ 앞에서 나눕니다 (Metaspace).
 *      이어진 ▁ 는 한 덩어리로 둡니다 (tokenizers 의 MergedWithNext).
 *   3. 조각에 한 번도 나오지 않는 글자는 따로 떼어 둡니다 (그 글자 하나가 <unk> 하나).
 *   4. 덩어리마다 조각 점수의 합이 가장 큰 나누기 (Unigram 비터비). 맞는 조각이 없는 글자는 <unk> 로, 점수는
 *      전체 어휘의 가장 낮은 점수 - 10. 이어진 <unk> 는 하나로 합칩니다 (tokenizers 의 fuse_unk).
 *   5. 앞에 <s>, 뒤에 </s>.
 * 보내는 어휘는 글자가 모두 S 에 있는 조각뿐입니다. S 위의 글에서는 후보 조각이 모두 그 안에 있으므로 전체 어휘와
 * 같은 나누기가 나옵니다 (snippets/sitedata/browser_model.py 의 설명).
 */
(function (global) {
  "use strict";

  var SPACE_MARK = "\u2581";

  function hex(code) {
    return "U+" + code.toString(16).toUpperCase().padStart(4, "0");
  }

  /* 글자를 화면에 적을 모양: 보이지 않는 글자는 코드 번호만 */
  function shownChar(ch) {
    var code = ch.codePointAt(0);
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code < 0xe000)) return hex(code);
    return "'" + ch + "' (" + hex(code) + ")";
  }

  /* tok: tokenizer.json, vocabs: vocab-<묶음>.json 들 (첫 묶음 "ko" 가 먼저) */
  function Tokenizer(tok, maxTokens) {
    if (!tok || tok.format !== "e5-tokenizer/1") throw new Error("tokenizer.json 의 형식이 e5-tokenizer/1 이 아닙니다");
    this.normalize = tok.normalize;
    this.known = new Set(tok.known);
    this.unkScore = tok.unk_score;
    this.bos = tok.bos;
    this.eos = tok.eos;
    this.unk = tok.unk;
    this.prefix = tok.prefix;
    this.charsets = tok.charsets;
    this.maxTokens = maxTokens || Infinity;
    this.packs = [];
    this.charset = new Set();
    this.pieces = new Map();  // 조각 → [원래 id, 점수]
    this.maxLen = 0;
  }

  /* 어휘 묶음 하나 더하기. 묶음의 글자 집합이 지원 글자 S 가 됩니다 ("latin" 은 "ko" 의 글자를 포함합니다). */
  Tokenizer.prototype.addVocab = function (vocab) {
    if (!vocab || vocab.format !== "e5-vocab/1") throw new Error("어휘 파일의 형식이 e5-vocab/1 이 아닙니다");
    var n = vocab.count;
    if (vocab.ids.length !== n || vocab.pieces.length !== n || vocab.scores.length !== n) {
      throw new Error("어휘 파일 " + vocab.pack + " 의 길이가 맞지 않습니다");
    }
    for (var i = 0; i < n; i++) {
      var p = vocab.pieces[i];
      this.pieces.set(p, [vocab.ids[i], vocab.scores[i]]);
      if (p.length > this.maxLen) this.maxLen = p.length;
    }
    this.packs.push(vocab.pack);
    var self = this;
    Array.from(this.charsets[vocab.pack]).forEach(function (c) { self.charset.add(c); });
  };

  Tokenizer.prototype.hasPack = function (pack) { return this.packs.indexOf(pack) >= 0; };

  /* 0 + 1. 검사하고 정규화합니다 → {text} 또는 {error: {kind, position, char, message}} */
  Tokenizer.prototype.normalized = function (text) {
    var out = "", position = 0;
    for (var ch of text) {  // 코드 포인트 하나씩 (짝 없는 서로게이트는 그 하나로)
      position += 1;
      var mapped = Object.prototype.hasOwnProperty.call(this.normalize, ch) ? this.normalize[ch] : ch;
      for (var k = 0; k < mapped.length; k++) {
        var c = mapped.charAt(k);
        if (c === " " || this.charset.has(c)) continue;
        return { error: this.unsupported(ch, position, c) };
      }
      out += mapped;
    }
    return { text: out.replace(/ {2,}/g, " ") };
  };

  Tokenizer.prototype.unsupported = function (ch, position, result) {
    var latin = !this.hasPack("latin") && this.charsets.latin.indexOf(result) >= 0;
    var message = position + "번째 글자 " + shownChar(ch) + (latin
      ? "는 영어 글자입니다. 영어 조각을 더 받으면 읽을 수 있습니다."
      : "는 이 모델 파일로 읽을 수 없습니다. 한글, 숫자, 띄어쓰기, 문장부호" +
        (this.hasPack("latin") ? ", 영어 글자" : "") + "만 쓸 수 있습니다.");
    return { kind: latin ? "latin" : "unsupported", position: position, char: ch, message: message };
  };

  /* 2 + 3. 정규화한 글 → 덩어리들 */
  Tokenizer.prototype.chunks = function (normalized) {
    var s = normalized.replace(/ /g, SPACE_MARK);
    if (s.charAt(0) !== SPACE_MARK) s = SPACE_MARK + s;
    var parts = [], start = 0;
    for (var i = 1; i < s.length; i++) {  // ▁ 앞에서 나누되, 바로 앞도 ▁ 이면 나누지 않습니다
      if (s.charAt(i) === SPACE_MARK && s.charAt(i - 1) !== SPACE_MARK) {
        parts.push(s.slice(start, i));
        start = i;
      }
    }
    if (s.length) parts.push(s.slice(start));
    var out = [];
    for (var p = 0; p < parts.length; p++) {
      var part = parts[p], from = 0;
      for (var j = 0; j < part.length; j++) {
        if (!this.known.has(part.charAt(j))) {
          if (j > from) out.push(part.slice(from, j));
          out.push(part.charAt(j));
          from = j + 1;
        }
      }
      if (from < part.length) out.push(part.slice(from));
    }
    return out;
  };

  /* 4. 덩어리 하나의 비터비 (tokenizers 의 Unigram::encode_optimized 와 같은 차례, 같은 동점 규칙) → [조각 글자] */
  Tokenizer.prototype.viterbi = function (s) {
    var size = s.length;
    var score = new Float64Array(size + 1), from = new Int32Array(size + 1).fill(-1), isUnk = new Uint8Array(size + 1);
    for (var start = 0; start < size; start++) {
      var base = score[start], single = false;
      for (var len = 1; len <= this.maxLen && start + len <= size; len++) {  // 짧은 조각부터 (트라이의 차례)
        var hit = this.pieces.get(s.slice(start, start + len));
        if (!hit) continue;
        var end = start + len, cand = hit[1] + base;
        if (from[end] < 0 || cand > score[end]) {
          score[end] = cand;
          from[end] = start;
          isUnk[end] = 0;
        }
        if (len === 1) single = true;
      }
      if (!single) {
        var e1 = start + 1, c1 = this.unkScore + base;
        if (from[e1] < 0 || c1 > score[e1]) {
          score[e1] = c1;
          from[e1] = start;
          isUnk[e1] = 1;
        }
      }
    }
    var out = [], fused = "";
    for (var at = size; at > 0; at = from[at]) {
      var piece = s.slice(from[at], at);
      if (isUnk[at]) {
        fused = piece + fused;
      } else {
        if (fused) { out.push(fused); fused = ""; }
        out.push(piece);
      }
    }
    if (fused) out.push(fused);
    return out.reverse();
  };

  /* 글 → {ids, tokens, queries: [문장 첫 토큰, </s> 자리]} 또는 {error}. prefix 가 참이면 "query: " 를 붙입니다
     (검사는 여러분이 쓴 글에만 합니다. 접두어의 조각은 첫 묶음에 들어 있습니다). */
  Tokenizer.prototype.encode = function (text, prefix) {
    if (typeof text !== "string") throw new TypeError("text 는 문자열이어야 합니다");
    var checked = this.normalized(text);
    if (checked.error) return { error: checked.error };
    if (!checked.text.trim()) return { error: { kind: "empty", message: "문장을 입력해 주세요. 공백만으로는 계산할 글이 없습니다." } };
    var whole = prefix ? this.normalizedPrefix() + checked.text : checked.text;
    whole = whole.replace(/ {2,}/g, " ");
    var tokens = ["<s>"], ids = [this.bos], firstChunk = 0;
    var chunks = this.chunks(whole);
    for (var c = 0; c < chunks.length; c++) {
      var pieces = this.viterbi(chunks[c]);
      if (c === 0) firstChunk = pieces.length;
      for (var k = 0; k < pieces.length; k++) {
        var hit = this.pieces.get(pieces[k]);
        tokens.push(pieces[k]);
        ids.push(hit ? hit[0] : this.unk);
      }
    }
    tokens.push("</s>");
    ids.push(this.eos);
    var queries = [prefix ? 1 + firstChunk : 0, prefix ? tokens.length - 1 : tokens.length];
    if (ids.length > this.maxTokens) {
      return { error: { kind: "too_long", count: ids.length, tokens: tokens,
                        message: "토큰이 " + ids.length + "개라서 한 번에 계산할 수 있는 " + this.maxTokens +
                                 "개를 넘습니다 (앞뒤의 <s>, 접두어 조각 셋, </s> 를 포함한 수). 문장을 조금 줄여 주세요." } };
    }
    return { ids: ids, tokens: tokens, queries: queries };
  };

  /* 접두어를 정규화한 글 (접두어에는 영어 글자가 있어 검사하지 않습니다) */
  Tokenizer.prototype.normalizedPrefix = function () {
    var self = this;
    return Array.from(this.prefix).map(function (ch) {
      return Object.prototype.hasOwnProperty.call(self.normalize, ch) ? self.normalize[ch] : ch;
    }).join("");
  };

  global.E5Tokenizer = Tokenizer;
})(typeof self !== "undefined" ? self : this);
