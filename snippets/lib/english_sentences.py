"""6장(real_model.py)이 헤드의 습관을 재는 영어 문장들. 헤드 지우기 장(head_ablation.py)도 같은 문장을 씁니다.

import 할 때 아무것도 계산하거나 찍지 않습니다: 문장을 쓰는 모듈은 장의 스크립트 대신 이 파일을 import 합니다.
6장 페이지는 아래 절(real_model)을 그 장의 코드 사이에 보여 줍니다.
"""

# --8<-- [start:real_model]
# 헤드의 습관을 한 문장으로 판단하지 않도록, 구조가 다양한 영어 문장 24개에서 평균을 냅니다.
SENTENCES = [
    "The cat sat on the mat.", "A dog chased the ball across the park.",
    "She reads a book every night.", "The children played in the garden after school.",
    "My brother bought a new bicycle yesterday.", "Rain fell on the quiet village all morning.",
    "The teacher explained the problem again, slowly.", "We watched the sun rise over the mountains.",
    "He forgot his keys at the office.", "The old man fed the birds in the square.",
    "They built a small house near the river.", "Please close the window before you leave.",
    "The train arrived late because of the snow.", "Music filled the room when she opened the door.",
    "The scientist measured the temperature twice.", "Our neighbors planted tomatoes and beans this spring.",
    "The baby laughed at the funny dog.", "I wrote a letter to my grandmother.",
    "The store sells fresh bread every morning.", "Two students solved the puzzle together.",
    "The wind blew the leaves across the road.", "After dinner, we walked along the beach.",
    "The pilot landed the plane safely.", "Why did the chicken cross the road?",
]
# --8<-- [end:real_model]
