"""사이트의 JavaScript 도구는 이름 붙은 함수들의 개요입니다: docs/assets/*.js 의 어느 함수도 80줄을 넘지 않습니다 (issue 40).

큰 함수 하나가 도구 전체를 닫아 두면(closure) 읽는 사람이 어디서 무엇을 하는지 찾기 어렵고, 고칠 때 다른 곳이 함께
흔들립니다. head-explorer.js 의 build 는 그렇게 592줄이었다가 66줄의 개요가 되었습니다. 여기서는 함수마다의 줄 수를
유지되는 JavaScript 파서(tree-sitter 와 그 JavaScript 문법, requirements.in)로 잽니다: 정규식이나 중괄호 세기로는
문자열·정규식 리터럴·주석 속의 괄호를 가려낼 수 없습니다.

잰 것: 함수 선언, 함수 식, 화살표 함수, 메서드의 첫 줄부터 끝 줄까지 (안에 든 함수의 줄도 셉니다). 파일 전체를 감싸 곧바로
부르는 함수(모듈 틀, `(function () { … })()`)는 개요 자체라서 세지 않습니다.
"""

from pathlib import Path

import pytest
import tree_sitter_javascript
from tree_sitter import Language, Parser

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("docs/assets/*.js")

ASSETS = Path(__file__).resolve().parent.parent / "docs" / "assets"
LIMIT = 80  # 줄
FUNCTIONS = {"function_declaration", "function_expression", "arrow_function", "method_definition",
             "generator_function_declaration"}  # fmt: skip

PARSER = Parser(Language(tree_sitter_javascript.language()))


def enclosing_function(node):
    node = node.parent
    while node is not None and node.type not in FUNCTIONS:
        node = node.parent
    return node


def is_module_wrapper(node):
    """맨 바깥에서 곧바로 불리는 함수 식: `(function () { … })()`, `x = (function () { … })()`."""
    if enclosing_function(node) is not None:
        return False
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent is not None and parent.type == "call_expression"


def name_of(node):
    name = node.child_by_field_name("name")
    if name is None and node.parent is not None and node.parent.type in ("variable_declarator", "pair"):
        name = node.parent.child_by_field_name("name") or node.parent.child_by_field_name("key")
    return name.text.decode() if name is not None else "(이름 없음)"


def function_lengths(source):
    """[(줄 수, 이름, 첫 줄 번호)] 를 긴 것부터. 문법 오류가 있으면 ValueError 입니다."""
    tree = PARSER.parse(source.encode())
    if tree.root_node.has_error:
        raise ValueError("JavaScript 문법 오류가 있습니다")
    found, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in FUNCTIONS and not is_module_wrapper(node):
            found.append((node.end_point[0] - node.start_point[0] + 1, name_of(node), node.start_point[0] + 1))
        stack.extend(node.children)
    return sorted(found, key=lambda f: (-f[0], f[2]))


@pytest.mark.parametrize("path", sorted(ASSETS.glob("*.js")), ids=lambda p: p.name)
def test_every_function_is_short(path):
    lengths = function_lengths(path.read_text(encoding="utf-8"))
    assert lengths, path.name  # 파서가 함수를 찾지 못하면 재는 것이 없습니다
    long = [f"{name} ({n}줄, {path.name}:{line})" for n, name, line in lengths if n > LIMIT]
    assert not long, f"{LIMIT}줄을 넘는 함수: 이름 붙은 작은 함수들로 나누세요 (head-explorer.js 의 build 처럼): {long}"


def test_the_measure_sees_what_a_reader_sees():
    """잰 값의 대조: 모듈 틀은 세지 않고, 안의 함수는 이름과 함께 첫 줄부터 끝 줄까지 셉니다. 문자열과 정규식 속의
    괄호에 속지 않습니다."""
    body = "\n".join(f"    x += {i};" for i in range(LIMIT))
    source = (
        "(function () {\n"
        '  "use strict";\n'
        "  var s = '{', r = /}/;\n"
        f"  function big(x) {{\n{body}\n    return x;\n  }}\n"
        "  var small = function () { return '}'; };\n"
        "  var o = { m() { return 1; }, f: (a) => a };\n"
        "})();\n"
    )
    lengths = function_lengths(source)
    assert lengths[0] == (LIMIT + 3, "big", 4)
    assert sorted(name for _, name, _ in lengths) == ["big", "f", "m", "small"]
    with pytest.raises(ValueError, match="문법 오류"):
        function_lengths("function broken( {")
