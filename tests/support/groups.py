"""make check 가 테스트를 pytest-xdist 의 작업 프로세스 둘에 나누는 단위: 테스트 파일 하나, 또는 무거운 스니펫의 묶음.

import 하는 데 1초가 넘는 스니펫(모듈을 위에서 아래로 돌리며 모델을 읽거나 큰 행렬을 계산합니다; 2코어에서
korean_model 3.6 초, real_model 2.2 초, why_scale 2.1 초, efficient 1.3 초)을 쓰는 테스트 파일들은 그 스니펫끼리
한 작업 프로세스로 모읍니다. 두 작업 프로세스가 같은 스니펫을 따로 import 하면 그만큼 일이 두 번이 됩니다.
나누는 방식이 바뀔 뿐 무엇을 확인하는지는 그대로입니다.

묶음은 xdist 의 xdist_group 표시가 아니라 스케줄러로 정합니다. xdist 3.8 의 loadgroup 은 작업 프로세스에서 테스트
이름(item._nodeid)에 "@묶음" 을 붙여 알리는데, pytest 9.2 는 이름을 item._id 에서 읽으므로 그 글자가 조용히
사라집니다. 표시를 붙여도 묶음이 하나도 걸리지 않습니다 (pytest-xdist 이슈 1386, 2026-09 에 열림; 이 저장소도
한동안 그렇게 돌았습니다). 여기 스케줄러는 테스트 이름의 파일 부분만 봅니다. 묶음이 실제로 한 작업 프로세스에
모이는지는 tests/test_make_check.py 가 xdist 를 직접 돌려 봅니다.
"""

from pathlib import Path

from sitebuild import snippets

HEAVY_SNIPPETS = {
    "korean_model": "models",
    "real_model": "models",
    "why_scale": "why_scale",
    "efficient": "efficient",
    "gemma_decoder": "efficient",  # import 할 때 efficient 를 import 합니다 (8장의 MQA·창·RoPE)
}


def group_of(path):
    """테스트 파일 → 묶음 이름: 무거운 스니펫을 import 하면(함수 안에서라도) 그 묶음, 아니면 파일 자신의 경로.

    import 는 빌드와 같은 AST 읽기(sitebuild.snippets.imported_names)로 찾습니다: 주석이나 문자열 속 글자는 세지 않습니다.
    """
    imported = snippets.imported_names(Path(path).read_text(encoding="utf-8"))
    for snippet, group in HEAVY_SNIPPETS.items():
        if snippet in imported:
            return group
    return Path(path).as_posix()


def make_scheduler(config, log):
    """pytest_xdist_make_scheduler 의 구현: --dist loadgroup 일 때만 이 묶음으로 나눕니다 (다른 방식은 xdist 그대로)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    groups = {}

    class FileGroups(LoadScopeScheduling):
        """LoadScopeScheduling 과 같되, 한 단위(scope)가 테스트 파일 하나 또는 무거운 스니펫의 묶음 하나입니다."""

        def _split_scope(self, nodeid):
            file = nodeid.split("::", 1)[0]
            if file not in groups:
                groups[file] = group_of(config.rootpath / file)
            return groups[file]

    return FileGroups(config, log)
