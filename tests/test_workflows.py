"""GitHub 워크플로(.github/workflows/*.yml)의 명령이 빌드할 설정 파일을 이름으로 주는지.

ProperDocs 1.6.7 은 `-f` 가 없으면 mkdocs.yml 을 대체 경로로만 찾고, 그 경로를 "언젠가 없앤다" 고 로그에 남깁니다
(/work/shared/spec/toolchain.md). 그날이 오면 CI 의 properdocs 작업은 설정을 찾지 못해 멈추고, 나갈 길이 열려 있는지
알려 주려던 작업이 엉뚱한 까닭으로 실패합니다. 그래서 워크플로의 모든 `properdocs build` 가 `-f mkdocs.yml`
(또는 `--config-file mkdocs.yml`)을 적었는지 봅니다.
"""

import shlex

import pytest
import yaml

from conftest import ROOT

# make quick: 이 파일이 import 말고 읽는 것 (tests/support/changes.py)
pytestmark = pytest.mark.reads(".github/workflows/*")

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def commands(workflow):
    """워크플로의 모든 run 명령 줄 (작업 이름, 줄). 주석 줄과 빈 줄은 뺍니다."""
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    for job, spec in data["jobs"].items():
        for step in spec.get("steps", []):
            for line in str(step.get("run", "")).splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    yield job, line


def config_file(argv):
    """build 명령의 인자에서 설정 파일 이름 (-f X, --config-file X, --config-file=X). 없으면 None."""
    for i, arg in enumerate(argv):
        if arg in ("-f", "--config-file") and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--config-file="):
            return arg.split("=", 1)[1]
    return None


def test_every_properdocs_build_names_its_config_file():
    builds = []
    for workflow in WORKFLOWS:
        for job, line in commands(workflow):
            argv = shlex.split(line)
            names = [a.rsplit("/", 1)[-1] for a in argv]
            if "properdocs" in names and "build" in argv:
                builds.append((workflow.name, job, config_file(argv), line))
    assert builds, "워크플로에 properdocs build 가 없습니다 (나갈 길을 보는 작업이 사라졌나요?)"
    for name, job, config, line in builds:
        assert config == "mkdocs.yml", f"{name} 의 {job} 작업: 설정 파일을 -f mkdocs.yml 로 주세요: {line}"
        assert (ROOT / config).is_file()


def test_the_config_reader_sees_the_forms_the_tools_accept():
    """대조군: 설정을 주지 않은 명령은 None, 세 가지 쓰는 법은 모두 그 이름."""
    assert config_file(shlex.split(".venv/bin/properdocs build --strict -d site-properdocs")) is None
    for line in (
        "properdocs build -f mkdocs.yml",
        "properdocs build --config-file mkdocs.yml --strict",
        "properdocs build --config-file=mkdocs.yml",
    ):
        assert config_file(shlex.split(line)) == "mkdocs.yml"
