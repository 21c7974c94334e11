"""스니펫끼리의 import 약속: 장의 스크립트(import 하면 찍는 파일)는 페이지가 보여 주는 끝점이고, 라이브러리가 아닙니다.

- 장의 스크립트: 모듈의 맨 위 수준에서 print 를 부르는 스니펫 (페이지가 그 출력을 보여 줍니다).
- 라이브러리와 데이터를 만드는 모듈: 나머지 모두. import 할 때 찍지 않습니다.

라이브러리는 장의 스크립트를 import 하지 않습니다 (장의 분석을 다시 돌리고 찍으므로: 찍힌 것을 버리려고
redirect_stdout 을 쓰던 자리는 함께 쓰는 값을 라이브러리로 옮겼습니다: attention_variants.py, english_sentences.py,
korean_sentences.py). 어떤 스니펫도 다른 스니펫의 소스를 파싱해 값을 얻지 않습니다 (캐시 열쇠를 위해 내용을 해시하는 것은 됩니다).
"""

import ast

import pytest

from conftest import SNIPPETS, snippet_files
from sitebuild.snippets import imports_in

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("snippets/*.py")

# 아직 장의 스크립트를 import 하는 장의 스크립트와 그 까닭 (줄이기만 합니다: 새로 더하면 이 테스트가 실패합니다)
CHAPTER_IMPORTS = {
    # 헤드 지우기 장의 chapters(): 테스트가 이 장의 문장·헤드 이름을 두 모델 장의 것과 견줄 때만 부릅니다
    "head_ablation": {"real_model", "korean_model"},
    # 트랜스포머 그림 장의 figure_trained: 6장이 그린 그림에 이 장의 제목을 붙입니다 (6장의 분석 결과 stats 를 씁니다)
    "heatmap": {"real_model"},
    # 여러분의 문장으로: 7장의 분석 결과(km.results)와 손으로 붙인 표시로 조사 찾기를 채점합니다 (페이지가 보여 주는 코드)
    "own_sentence": {"korean_model"},
}
# 찍힌 것을 버리는 redirect_stdout 이 남은 스니펫: 위의 두 import (own_sentence 는 페이지가 보여 주는 코드입니다)
REDIRECTS = {"head_ablation", "own_sentence"}


def _tree(path):
    return ast.parse(path.read_text(encoding="utf-8"))


def prints_when_imported(tree):
    """모듈의 맨 위 수준(함수·클래스 밖)에서 print 를 부르는가."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "print":
                return True
    return False


MODULES = {p.stem: p for p in snippet_files()}
CHAPTERS = {name for name, path in MODULES.items() if prints_when_imported(_tree(path))}


def test_the_classification_sees_the_known_chapters_and_libraries():
    assert {"four_steps", "efficient", "real_model", "korean_model", "next_token"} <= CHAPTERS
    assert not {"attention", "attention_variants", "disk_cache", "gemma_decoder", "english_sentences"} & CHAPTERS


def test_no_library_module_imports_a_chapter_script():
    found = {
        name: imports_in(path.read_text(encoding="utf-8"), SNIPPETS) & CHAPTERS
        for name, path in MODULES.items()
        if name not in CHAPTERS
    }
    assert {name: chapters for name, chapters in found.items() if chapters} == {}


def test_chapter_scripts_import_other_chapters_only_where_listed():
    found = {name: imports_in(MODULES[name].read_text(encoding="utf-8"), SNIPPETS) & CHAPTERS for name in CHAPTERS}
    assert {name: chapters for name, chapters in found.items() if chapters} == CHAPTER_IMPORTS


def test_no_snippet_silences_an_import_with_redirect_stdout():
    assert {
        name for name, path in MODULES.items() if "redirect_stdout" in path.read_text(encoding="utf-8")
    } == REDIRECTS


def test_no_snippet_parses_source_to_read_a_value():
    """ast.parse / literal_eval 로 (다른) 스니펫의 글에서 값을 읽지 않습니다: 값은 import 로 받습니다."""
    found = set()
    for name, path in MODULES.items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and node.attr in {"parse", "literal_eval"}:
                if isinstance(node.value, ast.Name) and node.value.id == "ast":
                    found.add(name)
    assert found == set()
