"""스니펫의 세 방과 import 약속 (README "저장소 구조").

- `snippets/chapters/`: 장의 스크립트. 페이지(또는 실습 노트북)가 보여 주는 끝점이고, import 하면 찍을 수 있습니다.
- `snippets/lib/`: 라이브러리. import 해도 아무것도 찍지 않습니다. 이 방의 모듈만 import 합니다.
- `snippets/sitedata/`: 빌드가 부르는 data_*·datafiles_*·model_files 로 브라우저 도구의 파일을 만드는 모듈. 라이브러리와 다른
  사이트 데이터 모듈을 import 하고, import 할 때 찍지 않습니다.

아무 스니펫도 장의 스크립트를 import 하지 않습니다 (장의 분석을 다시 돌리고 찍으므로: 함께 쓰는 값과 계산은 lib 에 둡니다.
english_sentences.py, korean_sentences.py, english_heads.py, particles.py 의 marked_particles). 찍힌 것을 버리는 redirect_stdout 도,
다른 스니펫의 소스를 파싱해 값을 얻는 일도 없습니다 (캐시의 재료로 내용을 해시하는 것은 됩니다).
"""

import ast
import functools
import re
import subprocess
import sys

import pytest

from conftest import DOCS, SNIPPETS, background, snippet_files
from sitebuild import snippets
from sitebuild.snippets import imports_in
from support import runs

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads("snippets/*.py", "docs/*.md", "snippets/notebooks/*.md")

MODULES = {p.stem: p for p in snippet_files()}
ROOM = {name: path.parent.name for name, path in MODULES.items()}
# 방마다 import 해도 되는 방 (장의 스크립트는 누구도 import 하지 않습니다)
ALLOWED = {"chapters": {"lib", "sitedata"}, "sitedata": {"lib", "sitedata"}, "lib": {"lib"}}
QUIET = sorted(name for name, room in ROOM.items() if room != "chapters")


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


def test_every_snippet_lives_in_one_of_the_three_rooms():
    assert set(ROOM.values()) == set(snippets.ROOMS)
    assert {p.parent for p in SNIPPETS.rglob("*.py") if "__pycache__" not in p.parts} == {
        SNIPPETS / room for room in snippets.ROOMS
    }
    assert {"four_steps", "efficient", "real_model", "korean_model", "next_token", "own_sentence"} <= {
        n for n, r in ROOM.items() if r == "chapters"
    }
    assert {"attention", "attention_variants", "disk_cache", "gemma_decoder", "english_sentences", "plotting"} <= {
        n for n, r in ROOM.items() if r == "lib"
    }


def test_imports_go_only_to_the_allowed_rooms():
    found = {}
    for name, path in MODULES.items():
        wrong = {
            m for m in imports_in(path.read_text(encoding="utf-8"), SNIPPETS) if ROOM[m] not in ALLOWED[ROOM[name]]
        }
        if wrong:
            found[name] = wrong
    assert found == {}


def test_only_chapter_scripts_print_when_imported():
    assert {name for name, path in MODULES.items() if prints_when_imported(_tree(path))} <= {
        n for n, r in ROOM.items() if r == "chapters"
    }


def test_every_chapter_script_is_shown_by_a_page_or_a_notebook():
    sources = [*DOCS.rglob("*.md"), *(SNIPPETS / "notebooks").glob("*.md")]
    included = {m for p in sources for m in re.findall(r'--8<-- "([a-z_0-9]+)\.py', p.read_text(encoding="utf-8"))}
    assert {n for n, r in ROOM.items() if r == "chapters"} - included == set()


def test_every_sitedata_module_makes_site_files():
    makers = re.compile(r"^def (data_|datafiles_|model_files\b)", flags=re.M)
    assert [n for n, r in ROOM.items() if r == "sitedata" and not makers.search(MODULES[n].read_text("utf-8"))] == []


def test_no_snippet_silences_an_import_with_redirect_stdout():
    assert {name for name, path in MODULES.items() if "redirect_stdout" in path.read_text(encoding="utf-8")} == set()


def test_no_snippet_parses_source_to_read_a_value():
    """ast.parse / literal_eval 로 (다른) 스니펫의 글에서 값을 읽지 않습니다: 값은 import 로 받습니다."""
    found = set()
    for name, path in MODULES.items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and node.attr in {"parse", "literal_eval"}:
                if isinstance(node.value, ast.Name) and node.value.id == "ast":
                    found.add(name)
    assert found == set()


# 라이브러리와 사이트 데이터 모듈을 하나씩 새 프로세스에서 import 해 봅니다 (한 프로세스에서 차례로 import 하면 앞의 모듈이
# 이미 읽은 모듈은 다시 돌지 않아 놓칩니다). 모듈과 그것이 import 하는 스니펫이 그대로면 지난 결과를 씁니다.
def _import_alone(name):
    closure = snippets.content_hash({name}, SNIPPETS)
    return runs.cached(
        f"import-alone-{name}",
        [closure],
        functools.partial(runs.in_snippets, "-c", f"import {name}", timeout=300),
        __name__,
    )


BACKGROUND = {f"import-alone:{name}": functools.partial(_import_alone, name) for name in QUIET}


@pytest.mark.parametrize("name", QUIET)
def test_library_and_sitedata_modules_import_silently(name):
    proc = background(f"import-alone:{name}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (proc.stdout, proc.stderr) == ("", ""), f"import {name} 가 찍었습니다"


def test_the_silence_check_can_fail(tmp_path):
    """같은 방법이 찍는 모듈을 잡아냅니다 (장의 스크립트 하나를 import 해 봅니다)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path[:0] = sys.argv[1:]; import toy_data, core_tour",
            *map(str, snippets.folders(SNIPPETS)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1"},
    )
    assert proc.returncode == 0 and proc.stdout != "", proc.stderr[-2000:]
