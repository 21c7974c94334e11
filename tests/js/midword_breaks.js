// 낱말 가운데에서 줄이 바뀐 곳을 찾습니다 (테스트가 page.evaluate 로 부릅니다).
//
// 글자(문자·숫자·밑줄)와 글자 사이에서 줄이 바뀌면 "낱말 가운데" 로 봅니다. 띄어쓰기, 하이픈,
// 빗금, 괄호 뒤에서 바뀌는 것은 괜찮습니다. 글자마다 Range 로 줄 상자를 재고, 같은 블록 안에서
// 이어지는 두 글자의 줄(위치)이 다르면 그 자리에서 줄이 바뀐 것입니다. 요소 경계를 넘는 경우
// (링크 뒤에 붙은 조사처럼 "<a>어텐션</a>을")도 같은 블록 안이면 이어서 봅니다.
// 코드 블록(pre)과 수식(math)은 줄을 바꾸지 않고 가로로 스크롤하므로 뺍니다.
() => {
  const WORD = /[\p{L}\p{N}_]/u;
  const SKIP = "pre, math, script, style, svg, .md-search__output, [hidden]";
  const blockOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const d = getComputedStyle(e).display;
      if (!d.startsWith("inline") && d !== "contents") return e;
    }
    return document.body;
  };
  const breaks = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let prev = null; // {block, top, bottom, ch, node}
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) { prev = null; continue; }
    const block = blockOf(parent);
    const text = node.data;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === "\u00ad") continue;
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      if (!rects.length || rects[0].width === 0 && rects[0].height === 0) {
        if (/\s/.test(ch)) prev = null;
        continue;
      }
      const r = rects[rects.length - 1];
      const cur = { block, top: r.top, bottom: r.bottom, ch, node };
      if (WORD.test(ch) && prev && prev.block === block && WORD.test(prev.ch)
          && r.top >= prev.bottom - 1) {
        const where = (prev.node === node ? text : prev.node.data + "|" + text);
        breaks.push({ word: (prev.ch + ch), context: where.trim().slice(0, 80),
                      element: parent.tagName.toLowerCase() + "." + [...parent.classList].join(".") });
      }
      prev = /\s/.test(ch) ? null : cur;
    }
  }
  return breaks;
}
