"""빌드 훅(overrides/hooks/attention_site.py): mkdocs serve 가 다시 빌드할 때 고친 빌드 코드로 빌드합니다.

MkDocs 는 훅 파일을 프로세스에 한 번만 읽지만(lru_cache), serve 는 다시 빌드할 때마다 설정을 다시 읽고
on_config 부터 다시 돕니다. 복사한 훅으로 serve 처럼 설정 읽기 + on_config 를 두 번 하고, 그 사이에 sitebuild 의
파일을 고쳐 봅니다.
"""

import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from conftest import HOOKS, background

TWICE = """
import sys
from pathlib import Path
from mkdocs.config import load_config

def build_once():
    config = load_config(sys.argv[1])
    config.plugins.on_config(config)
    hook = next(p for p in config.plugins.values() if hasattr(p, "on_files"))
    return type(hook._build)

first = build_once()
build = Path(sys.argv[2]) / "sitebuild" / "build.py"
build.write_text(build.read_text(encoding="utf-8") + "\\nSiteBuild.EDITED = '고친 빌드 코드'\\n", encoding="utf-8")
second = build_once()
print(first is second, getattr(first, "EDITED", None), getattr(second, "EDITED", None))
"""


def serve_twice(tmp_path):
    hooks = tmp_path / "hooks"
    shutil.copytree(HOOKS, hooks, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent(f"""
        site_name: 훅 다시 읽기
        hooks:
          - {hooks / "attention_site.py"}
        markdown_extensions:
          - attr_list
          - pymdownx.superfences
          - pymdownx.snippets:
              base_path: !relative $config_dir/snippets
              check_paths: true
        """),
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-c", TWICE, str(tmp_path / "mkdocs.yml"), str(hooks)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )


# 새 파이썬 프로세스는 몇 초 걸리므로 세션을 시작할 때 배경에서 미리 돌립니다 (conftest.background).
BACKGROUND = {"hook:serve-twice": lambda: serve_twice(Path(tempfile.mkdtemp(prefix="serve-twice-")))}


def test_serve_rebuilds_with_the_edited_build_code():
    proc = background("hook:serve-twice")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["False", "None", "고친", "빌드", "코드"]
