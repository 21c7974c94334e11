// 줄이 바뀌면 안 되는 곳에서 바뀐 곳을 찾습니다 (테스트가 page.evaluate 로 부릅니다). 세 가지를 봅니다:
//
// - word: 낱말 가운데. 글자(문자·숫자·밑줄)와 글자 사이에서 줄이 바뀐 곳.
// - particle: 어절 가운데, 닫는 괄호·따옴표, "%", 인라인 코드나 수식 바로 뒤에 붙은 한글(조사, "입니다" 같은
//   서술격 조사, 어미)이 다음 줄 맨 앞으로 떨어진 곳: "[CLS]⏎가", "(3, 3)⏎입니다", "√d_k⏎로".
//   브라우저는 keep-all 에서도 닫는 괄호와 수식 뒤를 줄을 바꿀 수 있는 자리로 봅니다.
// - range: 숫자 범위의 대시 뒤. "헤드 7-⏎11", "2–⏎5층".
// - token: 실행 결과(.cell-output) 안에서 띄어쓰기가 아닌 곳. 그 상자는 휴대전화에서 줄을 접는데(sitebuild/lines.py),
//   토큰 가운데서 접히면 값이 둘로 읽힙니다: "▁⏎문제를", "∂p₁/⏎∂s₁", "'##⏎ㄴ'" (숫자 범위 "1-⏎7" 은 range).
// 본문에서는 띄어쓰기, 하이픈과 빗금(글자 사이), 여는 괄호 앞에서 바뀌는 것은 괜찮습니다.
//
// 글자마다 Range 로 줄 상자를 재고, 같은 블록 안에서 이어지는(사이에 공백이 없는) 두 글자의 줄(위치)이 다르면
// 그 자리에서 줄이 바뀐 것입니다. 요소 경계를 넘는 경우(링크 뒤에 붙은 조사처럼 "<a>어텐션</a>을")도 같은 블록
// 안이면 이어서 봅니다. 수식(math)은 한 덩어리로 재고, 코드 블록(pre)은 줄을 바꾸지 않고 가로로 스크롤하므로 뺍니다
// (실행 결과의 pre 는 줄을 접으므로 봅니다).
// root 를 주면 그 요소 안만 봅니다 (대조군 테스트가 폭을 바꿔 가며 문단 하나만 잴 때). 없으면 페이지 전체.
(root) => {
  const WORD = /[\p{L}\p{N}_]/u;
  const HANGUL = /[\uac00-\ud7a3]/u;
  const CLOSER = /[\p{Pe}\p{Pf}%‰'"]/u;  // 닫는 괄호와 따옴표, 퍼센트
  const DASH = /[-\u2010\u2011\u2012\u2013\u2212]/u;  // 하이픈, 대시, 빼기
  const DIGIT = /\p{N}/u;
  const SKIP = "pre:not(.cell-output > pre), script, style, svg, .md-search__output, [hidden]";
  const blockOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const d = getComputedStyle(e).display;
      if (!d.startsWith("inline") && d !== "contents") return e;
    }
    return document.body;
  };
  const describe = (el) => el.tagName.toLowerCase() + "." + [...el.classList].join(".");
  const breaks = [];
  const walker = document.createTreeWalker(root || document.body, NodeFilter.SHOW_TEXT);
  let prev = null;   // 바로 앞 글자 {block, top, bottom, ch, node, atom}: atom = 수식이나 코드 안의 글자
  let before = null; // 그 앞 글자 (숫자 범위를 알아보려고)
  let math = null;   // 지금 지나는 수식 요소 (수식은 한 덩어리)
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) { prev = before = null; continue; }
    if (parent.closest(".search-only")) continue;  // 수식의 검색용 글자 (화면에 없음, sitebuild/mathml.py)
    const inMath = parent.closest("math");
    if (inMath) {  // 수식은 글자 하나처럼: 그 마지막 줄 상자를 "앞 글자" 로 둡니다
      if (inMath !== math) {
        math = inMath;
        const rects = inMath.getClientRects();
        if (rects.length) {
          const r = rects[rects.length - 1];
          before = null;
          prev = { block: blockOf(inMath), top: r.top, bottom: r.bottom, ch: "\u2062", node, atom: "math" };
        }
      }
      continue;
    }
    math = null;
    const block = blockOf(parent);
    const text = node.data;
    const atom = parent.closest("code") ? "code" : null;
    const output = parent.closest(".cell-output");
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === "\u00ad") continue;
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      if (!rects.length || rects[0].width === 0 && rects[0].height === 0) {
        if (/\s/.test(ch)) prev = before = null;
        continue;
      }
      const r = rects[rects.length - 1];
      const cur = { block, top: r.top, bottom: r.bottom, ch, node, atom };
      if (prev && prev.block === block && r.top >= prev.bottom - 1) {
        let kind = null;
        if (WORD.test(ch) && WORD.test(prev.ch)) kind = "word";
        else if (HANGUL.test(ch) && (prev.atom || CLOSER.test(prev.ch))) kind = "particle";
        else if (DIGIT.test(ch) && DASH.test(prev.ch) && before && DIGIT.test(before.ch)) kind = "range";
        else if (output) kind = "token";  // prev 는 띄어쓰기가 아닙니다 (띄어쓰기 뒤에서는 prev 가 null)
        if (kind) {
          const head = (prev.atom === "math" ? "[수식]" : (before ? before.ch : "") + prev.ch);
          const tail = text.slice(i).match(/^\S*/)[0].slice(0, 12);
          const where = (prev.node === node ? text : (prev.atom === "math" ? "" : prev.node.data + "|") + text);
          breaks.push({ kind, word: prev.ch + ch, at: head + "⏎" + tail, context: where.trim().slice(0, 80),
                        element: describe(parent) });
        }
      }
      before = /\s/.test(ch) ? null : prev;
      prev = /\s/.test(ch) ? null : cur;
      if (!prev) before = null;
    }
  }
  return breaks;
}
