"""빌드 패키지의 지도(overrides/hooks/sitebuild/__init__.py 맨 위)가 패키지의 모듈과 맞습니다.

지도는 새로 오는 사람이 가장 먼저 읽는 곳입니다. 모듈을 더하거나 빼고 지도를 고치지 않으면 여기서 실패합니다.
"""

import re

import sitebuild
from conftest import HOOKS


def listed_modules():
    """지도의 "모듈 하나에 관심사 하나" 목록에 적힌 이름들."""
    doc = sitebuild.__doc__
    part = doc[doc.index("모듈 하나에 관심사 하나") :]
    return re.findall(r"^- (\w+) ", part, flags=re.M)


def test_the_map_names_every_module_once():
    files = sorted(p.stem for p in (HOOKS / "sitebuild").glob("*.py") if p.stem != "__init__")
    names = listed_modules()
    assert len(names) == len(set(names)), f"지도에 두 번 적힌 모듈: {names}"
    assert sorted(names) == files, (
        f"지도에만 있는 모듈: {sorted(set(names) - set(files))}, 지도에 없는 모듈: {sorted(set(files) - set(names))}"
    )


def test_the_map_says_how_many_images_a_figure_makes():
    """지도가 말하는 그림 수(판 × 테마)가 figures 의 판과 테마 수와 같습니다."""
    from sitebuild import figures

    count = len(figures.VARIANTS) * len(figures.THEMES)
    assert count == 4
    assert "PNG 네 장" in sitebuild.__doc__ and "<a><img></a> 네 개" in sitebuild.__doc__
    assert "두 개" not in sitebuild.__doc__ and "밝은/어두운 PNG 를" not in sitebuild.__doc__
