"""사이트 빌드 도우미: MkDocs 훅(overrides/hooks/attention_site.py)과 테스트가 함께 씁니다.

지도 — 스니펫 하나가 페이지, 그림, 노트북, 테스트가 되기까지

    snippets/chapters/four_steps.py  ─┬─ 페이지:  docs/four_steps.md 의 ```python 블록 안 `--8<-- "four_steps.py:절"`
                                      │     build.page_markdown  (on_page_markdown)
                                      │       codeblocks.SnippetExpander    include 를 펼칩니다 (pymdownx.snippets, 줄마다 출처도)
                                      │       codeblocks.page_blocks        블록을 꺼냅니다 (pytest-codeblocks, 한 번만 읽음)
                                      │       outputs.PageOutputs.get       실행합니다 (disk_cache: 코드 + 스니펫 + 환경 + 실행기 소스)
                                      │         outputs.run_in_fresh_process  페이지마다 새 파이썬 프로세스에서
                                      │         codeblocks.run_blocks         include 마다 스니펫 파일의 이름·줄로 컴파일해 실행
                                      │       codeblocks.with_outputs       블록 아래에 ```output 펜스를 넣습니다
                                      │     fences.format_output             ```output → "실행 결과" <pre><samp> (줄마다 lines)
                                      │     codestyle.LeanTokens             코드 색칠을 Material 의 색 수만큼으로
                                      │     mathml.MathExtension             $...$ → MathML (수식 글꼴: mathfont)
                                      │     glue.GlueExtension               "[CLS]가", "√d_k로", "7-11" 을 한 줄에 (줄바꿈 묶음)
                                      │     tables.CardTablesExtension       넓은 표를 휴대전화에서 카드로 (열 이름, 표의 역할)
                                      │     lines.wrap_code_in_details       접은 상자 속 코드를 줄마다 (on_page_content)
                                      │
                                      ├─ 그림:    figure_<이름>(narrow=False) → ![대체 텍스트](figures/four_steps-<이름>.png)
                                      │     figures.FigureSet               넓은/좁은 판 × 밝은/어두운 PNG 네 장을 작업 프로세스에서
                                      │                                      (add_generated_files; 글자 크기·잘림은 legibility)
                                      │     figure_markup.FigureExtension    <img> 하나 → 판·팔레트별 <a><img></a> 네 개
                                      │
                                      ├─ 데이터:  data_<이름>() → data/four_steps-<이름>.json (datafiles, 탐색기가 읽음)
                                      │           datafiles_<이름>() → 조각마다 data/four_steps-<이름>-<조각>.json
                                      │     fresh.call                      캐시에 없는 것을 모듈마다 새 프로세스에서 만듭니다
                                      │
                                      ├─ 노트북:  snippets/notebooks/*.md 의 include → practice/*.ipynb
                                      │     notebooks.build_notebooks        jupytext 로 읽고 nbformat 으로 씀
                                      │     (mkdocs-jupyter 가 실행)          notebook_pages.slim_notebook_html 가 페이지를 가볍게
                                      │
                                      └─ 테스트:  tests/test_four_steps.py (페이지가 말하는 숫자), tests/page_outputs.py
                                            (빌드와 같은 캐시로 페이지 출력 읽기), tests/test_contracts.py (다른 프로젝트에
                                            기대는 약속), tests/test_pipeline_failures.py (실패가 빌드를 멈추는지);
                                            테스트만 쓰는 도우미(페이지 무게, 페이지 URL)는 tests/support/ 에 있습니다

모듈 하나에 관심사 하나 (tests/test_build_map.py 가 이 목록과 패키지의 파일이 같은지 봅니다)
- build          빌드 한 번의 상태(SiteBuild)와 MkDocs 이벤트마다 할 일. 훅은 여기로 넘기기만 합니다.
- snippets       스니펫 ↔ 빌드의 약속: 세 방(chapters, lib, sitedata)에서 모듈 찾기, figure_*/data_*/datafiles_* 찾기, import 닫힘과 해시, sys.path·sys.modules
- codeblocks     페이지의 python 블록: 펼치기(줄마다 출처), 꺼내기, 실행하기, 출력 펜스 넣기
- outputs        페이지 실행: 새 프로세스에서 돌리고 결과를 캐시에 (빌드와 테스트가 함께 씁니다)
- fresh          함수 하나를 새 파이썬 프로세스에서 부르고 값을 받기: 빌드 프로세스가 계산의 힙을 들고 있지 않게
- fences         ```output 사용자 펜스 (pymdownx.superfences)
- codestyle      Pygments 필터 (pymdownx.highlight 의 extend_pygments_lang)
- figures        figure_* 함수 → PNG 네 장(판 × 테마), 작업 프로세스
- legibility     그림 글자가 휴대전화·데스크톱에서 읽히는 크기인지, 가장자리에서 잘리지 않는지 잽니다
- figure_markup  그림 참조 → 판·팔레트별 <img> (Python-Markdown 트리 처리기)
- images         PNG 도우미 (Pillow)
- mathml         TeX → MathML (Python-Markdown 트리 처리기)
- mathfont       STIX Two Math 에서 쓰는 글자만 잘라 낸 woff2
- glue           조사가 닫는 괄호·수식·코드 뒤에서, 숫자 범위가 대시 뒤에서 줄이 갈리지 않게 묶기 (트리 처리기)
- lines          실행 결과와 접은 상자 속 코드의 긴 줄을 줄마다 span 으로: 좁은 화면에서 내어쓰기로 접히게
- tables         <div class="table-cards"> 안의 표에 열 이름과 역할을 붙이기: 좁은 화면에서 줄마다 카드 (트리 처리기)
- datafiles      data_* 함수 → JSON, datafiles_* 함수 → 조각마다 JSON (모듈마다 새 프로세스에서 만듭니다)
- modelfiles     브라우저용 모델 파일 (snippets/sitedata/browser_model.py → models/e5-ko/, gemma_browser.py → models/gemma-ko/)
- notices        모델 패키지가 싣고 온 이용 조건과 안내 글 (snippets/lib/gemma_file.py) → licenses/gemma/
- notebooks      노트북 원본(.md) → .ipynb
- notebook_pages mkdocs-jupyter 의 노트북 페이지 HTML → 가벼운 본문
- searchindex    검색 색인을 UTF-8 글자 그대로 다시 쓰기 (한글 한 글자가 6바이트 이스케이프로 부풀지 않게)
- tools          페이지가 머리말(tools:)에 적은 도구 → 붙일 파일 (표: overrides/tools.yml; 적은 것과 상자가 어긋나면 멈춤)
- minify         빌드된 사이트의 스타일·스크립트 사본 줄이기: rjsmin, rcssmin (저장소의 주석은 그대로, 페이지가 받는 바이트만 줄임)

테마 덮어쓰기는 Material 의 문서화된 방법으로만 합니다: overrides/main.html (scripts 블록),
overrides/partials/search.html (검색 창 이름).

캐시는 빌드·테스트·스니펫이 함께 쓰는 모듈 하나(snippets/lib/disk_cache.py: 열쇠 = 재료 + 환경 + 만드는 코드의 소스)입니다.
스니펫도 쓰므로 스니펫의 라이브러리 방(snippets/lib/)에 두고, 빌드와 그 자식 프로세스(fresh, 그림 작업)가 import 할 수 있게 여기서 경로에 넣습니다
(snippets.LIBRARY; MkDocs 는 훅을 읽은 뒤 import 경로를 되돌리므로 훅도 빌드마다 다시 넣습니다).
"""

from sitebuild import snippets as _snippets

_snippets.add_to_path(_snippets.LIBRARY)
