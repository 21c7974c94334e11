"""헤드 끄기 페이지(docs/head_ablation.md)의 순위를 시험하는, 그 페이지와 두 모델 장이 고르지 않은 문장들.

페이지는 두 모델 장의 문장 가운데 네 개마다 하나(영어 6개, 한국어 7개)로 헤드의 순위를 잽니다. 그 순위가 그 문장들을
고른 데서 온 것인지 보려고, 여기 적은 문장으로 같은 측정(ablation.head_worth)을 다시 하고 페이지의 글이 이 결과보다
세게 말하지 않는지 봅니다 (tests/test_head_ablation_held_out.py, model 표시).

고른 방법 (한 번 정해 두고 결과를 본 뒤에 바꾸지 않습니다)
- 두 장의 문장(snippets/chapters/real_model.py 의 SENTENCES, snippets/chapters/korean_model.py 의 ANNOTATED)과 탐색기 문장
  (snippets/sitedata/head_explorer.py)에 없는 문장. 같은 문장이 없는지는 테스트가 봅니다.
- 길이와 꼴을 섞었습니다: 짧은 문장과 긴 문장, 물음, 명령, 숫자가 든 문장, 쉼표로 이은 문장.
- 한국어는 합니다체·해요체·반말과 여러 조사(이/가, 은/는, 을/를, 에서, 으로, 와/과, 께서)를 섞었습니다.
"""

ENGLISH = [
    "The kettle whistled while we talked.",
    "Every summer my aunt visits us from Canada.",
    "Can you hand me the blue notebook on the desk?",
    "The museum was closed on Monday, so we went to the zoo.",
    "A fox crept quietly through the snowy forest.",
    "He painted the fence white in two hours.",
    "Turn left at the bakery and walk past the bank.",
    "The doctor said I should drink more water.",
    "Our team lost the final match by one goal.",
    "Several birds were singing on the roof at dawn.",
    "She sent me three photos of her new kitten.",
    "The library will open a new reading room next month.",
    "Where did you put the scissors?",
    "The farmer sold twenty baskets of apples at the market.",
    "Thunder woke the whole family at midnight.",
    "I could not find a seat on the crowded bus.",
    "The chef tasted the soup and added some salt.",
    "Lights flickered across the harbor as the ship left.",
    "My grandfather tells the same joke every holiday.",
    "The river flooded the fields after a week of storms.",
    "Please keep your phone silent during the concert.",
    "A young girl lost her red balloon in the wind.",
    "The engineers tested the bridge before it opened.",
    "We shared a pizza and watched an old movie.",
]

KOREAN = [
    "주전자가 끓는 동안 우리는 이야기를 나눴다.",
    "삼촌은 여름마다 캐나다에서 우리 집에 오신다.",
    "책상 위에 있는 파란 공책 좀 건네줄래?",
    "월요일에 박물관이 닫혀서 동물원에 갔다.",
    "여우가 눈 덮인 숲을 조용히 지나갔다.",
    "그는 두 시간 만에 울타리를 하얗게 칠했다.",
    "빵집에서 왼쪽으로 돌아 은행을 지나가세요.",
    "의사는 물을 더 많이 마시라고 말했다.",
    "우리 팀은 결승에서 한 골 차이로 졌어요.",
    "새벽에 새 여러 마리가 지붕 위에서 노래했다.",
    "언니가 새 고양이 사진을 세 장 보내 주었다.",
    "도서관은 다음 달에 새 열람실을 엽니다.",
    "가위를 어디에 두었니?",
    "농부는 시장에서 사과 스무 바구니를 팔았다.",
    "천둥 소리에 온 가족이 한밤중에 깼다.",
    "붐비는 버스에서 앉을 자리를 찾지 못했다.",
    "요리사가 국을 맛보고 소금을 조금 넣었다.",
    "배가 떠나자 항구의 불빛이 반짝였다.",
    "할아버지께서는 명절마다 같은 농담을 하신다.",
    "일주일 동안 폭풍이 지나간 뒤 강물이 들판을 덮었다.",
    "공연 중에는 휴대전화를 꺼 주십시오.",
    "어린 소녀가 바람에 빨간 풍선을 놓쳤다.",
    "기술자들은 다리를 열기 전에 시험했다.",
    "우리는 피자를 나눠 먹으며 옛날 영화를 봤다.",
]
