"""휴대전화에서 카드로 읽는 표: <div class="table-cards" markdown> 안의 표 칸마다 그 열의 이름(data-label)을 붙입니다.

용어집의 네 열 표는 375 px 화면에서 마지막 열이 반쯤 화면 밖에 남고, "뜻" 열이 다섯 글자 폭으로 좁아져 페이지가
화면 15장 넘게 길어졌습니다. 좁은 화면에서는 site.css 가 이 표의 줄을 하나씩 카드로 세웁니다: 첫 칸이 카드의
제목이고, 나머지 칸은 열 이름을 앞에 달고(::before 의 attr(data-label)) 화면 폭을 다 씁니다. 데스크톱에서는 그대로
표입니다. CSS 로 표의 display 를 바꾸면 브라우저가 표의 의미(행·열·머리글)를 스크린 리더에 알리지 않기도 하므로,
원래 요소가 가진 역할(role)을 적어 둡니다.

Python-Markdown 트리 처리기: 인라인 처리(20) 다음에 돌아 머리글의 글이 마크다운 기호 없이 남습니다.
확인: tests/test_hook.py (모양), tests/test_pages_in_browser.py (375 px 에서 잘린 칸 0, 용어집 높이).
"""

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

CARDS_CLASS = "table-cards"
ROLES = {"table": "table", "thead": "rowgroup", "tbody": "rowgroup", "tr": "row", "th": "columnheader", "td": "cell"}


class CardTables(Treeprocessor):
    def run(self, root):
        for div in root.iter("div"):
            if CARDS_CLASS not in div.get("class", "").split():
                continue
            for table in div.iter("table"):
                heads = ["".join(th.itertext()).strip() for th in table.iter("th")]
                for el in table.iter():
                    if el.tag in ROLES:
                        el.set("role", ROLES[el.tag])
                for body in table.iter("tbody"):
                    for tr in body.iter("tr"):
                        for label, td in zip(heads, tr.findall("td"), strict=False):
                            td.set("data-label", label)


class CardTablesExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(CardTables(md), "card_tables", 12)
