"""사이트 빌드 도우미: mkdocs 훅(overrides/hooks/attention_site.py)과 테스트가 함께 씁니다.

- codeblocks: 페이지의 python 코드 블록을 스니펫 include 를 펼친 뒤 실행하고 출력을 붙입니다.
- figures: 스니펫의 figure_* 함수로 밝은/어두운 그림을 만듭니다 (내용이 바뀔 때만).
- mathml: pymdownx.arithmatex 가 남긴 TeX 를 빌드 때 MathML 로 바꿉니다 (스크립트 0 바이트).
- notebooks: 스니펫 절(section)로 실습 노트북(.ipynb)을 만듭니다.
"""
