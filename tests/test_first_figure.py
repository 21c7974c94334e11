"""페이지의 첫 그림은 곧바로 받고, 나머지는 게으르게 받습니다 (issue 41, overrides/main.html 의 작은 스크립트).

그림 하나는 판(넓은/좁은) × 팔레트(밝은/어두운) 네 장이고, 빌드는 모두 loading="lazy" 로 내보냅니다
(sitebuild/figure_markup.py). 첫 그림이 첫 화면에 있으면 게으른 받기가 가장 큰 그림(LCP)을 늦춥니다
(heatmap.md 의 Lighthouse 모바일 92 → 84). 그래서 첫 그림 가운데 지금 화면 폭과 팔레트에 보이는 한 장만 eager 로 바꿉니다.
여기서는 그 한 장이 스크롤하지 않아도 받아지고, 숨은 세 장과 다른 그림은 받지 않는 것을 봅니다.
"""

import pytest

from support.pageweight import page_url

pytestmark = pytest.mark.browser

STATE_JS = """() => {
  const links = [...document.querySelectorAll('article .figure-link')];
  const first = [];
  for (let a = links[0]; a && a.classList.contains('figure-link'); a = a.nextElementSibling) first.push(a);
  const fetched = new Set(performance.getEntriesByType('resource').map(e => new URL(e.name).pathname));
  const img = a => a.querySelector('img');
  return {
    first: first.map(a => ({cls: a.className, visible: getComputedStyle(a).display !== 'none',
                            loading: img(a).loading, priority: img(a).fetchPriority,
                            fetched: fetched.has(new URL(img(a).src).pathname)})),
    eager: [...document.querySelectorAll('article img')].filter(i => i.loading === 'eager').length,
    later: links.slice(first.length).map(a => ({loading: img(a).loading,
                                                fetched: fetched.has(new URL(img(a).src).pathname)})),
  };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_only_the_visible_copy_of_the_first_figure_loads_eagerly(request, screen, scheme):
    tab = request.getfixturevalue(screen)
    page = tab.open(page_url("heatmap.md"), scheme=scheme)
    page.wait_for_function(
        "() => { const i = [...document.querySelectorAll('article img')].find(i => i.loading === 'eager');"
        " return i && i.complete && i.naturalWidth > 0 }",
        timeout=10_000,
    )
    state = page.evaluate(STATE_JS)
    first = state["first"]
    assert len(first) == 4, first  # 넓은/좁은 × 밝은/어두운
    visible = [f for f in first if f["visible"]]
    assert len(visible) == 1, first
    want = f"figure--{'narrow' if screen == 'phone' else 'wide'} figure--{scheme}"
    assert want in visible[0]["cls"], (want, visible)
    assert visible[0]["loading"] == "eager" and visible[0]["priority"] == "high", visible
    assert visible[0]["fetched"], visible
    hidden = [f for f in first if not f["visible"]]
    assert all(f["loading"] == "lazy" for f in hidden), hidden
    # 숨은 판은 받지 않습니다. 단, 어두운 팔레트를 처음 여는 독자에게 Material 은 번들이 팔레트를 고르기 전까지 밝은
    # 팔레트로 그리므로, 그 사이에 보였던 같은 판의 밝은 그림은 게으른 받기가 받아 갑니다 (이 변경 전에도 같습니다).
    first_paint = f"figure--{'narrow' if screen == 'phone' else 'wide'} figure--light"
    fetched = [f["cls"] for f in hidden if f["fetched"] and not (scheme == "dark" and first_paint in f["cls"])]
    assert not fetched, fetched
    assert state["eager"] == 1, state
    # 첫 화면 아래의 그림들은 게으르게 남습니다 (heatmap.md 의 마지막 그림은 첫 화면에서 멉니다)
    assert state["later"] and all(f["loading"] == "lazy" for f in state["later"]), state["later"]
    assert not state["later"][-1]["fetched"], state["later"]
    tab.assert_clean()
