"""코드 블록 HTML 을 가볍게 바꿔도 글자와 색 구분이 그대로인지 확인합니다."""

import re

from sitebuild import lean_html

CODE = ('<div class="highlight"><pre><span></span><code><span class="kn">from</span><span class="w"> </span>'
        '<span class="nn">attention</span><span class="w"> </span><span class="kn">import</span> '
        '<span class="n">softmax</span>\n<span class="n">x</span> <span class="o">=</span> '
        '<span class="n">softmax</span><span class="p">(</span><span class="p">[</span><span class="mi">1</span>'
        '<span class="p">])</span>  <span class="c1"># 주석</span>\n<span class="nb">print</span>'
        '<span class="p">(</span><span class="s2">&quot;합&quot;</span><span class="p">)</span>\n</code></pre></div>')


def text_of(html):
    return re.sub(r"<[^>]+>", "", html)


def test_text_is_unchanged_and_spans_are_fewer():
    slim = lean_html.slim_code_spans(CODE)
    assert text_of(slim) == text_of(CODE)
    assert slim.count("<span") < CODE.count("<span") / 2
    # 색이 있는 토큰(키워드, 함수 이름, 주석, 내장 이름, 문자열)은 남습니다.
    for kept in ('<span class="k">from</span>', '<span class="nf">attention</span>', '<span class="c"># 주석</span>',
                 '<span class="nb">print</span>', '<span class="s">&quot;합&quot;</span>'):
        assert kept in slim


def test_adjacent_same_colour_spans_merge():
    html = '<code><span class="k">from</span> <span class="kn">import</span></code>'
    assert lean_html.slim_code_spans(html) == '<code><span class="k">from import</span></code>'


def test_output_blocks_become_samp():
    html = ('<div class="cell-output highlight"><span class="filename">실행 결과</span>'
            '<pre><span></span><code>합: 3\n</code></pre></div>')
    out = lean_html.output_blocks_as_samp(html)
    assert out == ('<div class="cell-output"><span class="filename">실행 결과</span>'
                   '<pre tabindex="0"><samp>합: 3\n</samp></pre></div>')
