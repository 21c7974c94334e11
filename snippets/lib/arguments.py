"""인자 검사의 공통 조각: 인코더(bert_numpy), 디코더(gemma_decoder), 토크나이저(gemma_tokenizer)가 함께 씁니다.

잘못된 입력은 numpy 의 날것 오류나 조용한 쓰레기 값 대신, 인자 이름과 그 모양·자료형·값을 적은 ValueError 나
TypeError 로 멈춥니다. 모듈마다 자기 검사(모양, 범위)는 이 조각 위에 둡니다.
"""

import numpy as np


def array(a, name, kinds="biuf", what="수"):
    """a 를 numpy 배열로. 만들 수 없으면(행마다 길이가 다른 리스트 등) ValueError, 자료형의 종류(dtype.kind)가
    kinds 에 없으면 TypeError. what: 오류에 적을 배열의 종류 ("수", "실수" …)."""
    try:
        a = np.asarray(a)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} 를 배열로 만들 수 없습니다 (행마다 길이가 다른가요?): {err}") from None
    if a.dtype.kind not in kinds:
        raise TypeError(f"{name} 는 {what} 배열이어야 합니다: {name}.dtype={a.dtype}, {name}.shape={a.shape}")
    return a


def text(value, name="text"):
    """글 하나: 문자열이고 UTF-8 로 쓸 수 있어야 합니다 (짝 없는 대리 코드 U+D800–DFFF 가 없어야)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} 는 문자열이어야 합니다: {type(value).__name__} {value!r:.60}")
    try:
        value.encode("utf-8")
    # tokenizers 는 여기서 "TextInputSequence must be str" 라고만 합니다
    except UnicodeEncodeError as err:
        raise ValueError(f"{name} 의 {err.start}번째 글자(0부터)가 짝 없는 대리 코드(surrogate) "
                         f"U+{ord(value[err.start]):04X} 입니다. 글자가 아니라 UTF-16 의 반쪽이라서 읽을 수 없습니다 "
                         "(UTF-16 글을 잘못 읽었을 때 흔히 생깁니다)") from None
    return value
