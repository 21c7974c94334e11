"""확인 문제의 "먼저 예상하고 확인하기": 정답, 내다본 오답, 독자에게 돌려줄 말을 브라우저용 데이터로 만듭니다.

장의 스니펫은 `data_quiz_<N>()` 에서 이 모듈의 `number()` 나 `choice()` 를 불러 그 dict 를 돌려줍니다. 빌드가 그것을
`data/<장>-quiz_<N>.json` 으로 내보내고(README "브라우저용 데이터"), 페이지의 `<div class="predict" data-src=…>` 자리에
docs/assets/predict.js 가 입력 칸이나 보기를 그립니다. JavaScript 가 없으면 그 자리는 비고, 문제와 접힌 풀이는 그대로 읽힙니다.

글과 숫자의 약속 (이 모듈이 검사하고, 어기면 빌드가 멈춥니다. tests/test_quizzes.py 도 같은 것을 봅니다):
- 독자에게 보일 글(입력 칸 이름, 단위, 보기, 되돌려 줄 말)에는 숫자(0–9)를 직접 적지 않습니다. 숫자는 모두 `{이름}` 자리로
  적고, 그 값은 `values` 에 스니펫이 계산한 값을 찍을 글자로 넘깁니다. 그 글자는 같은 문제의 quiz_N 출력에도 찍힙니다
  (테스트가 확인합니다). 그래서 손으로 적은 숫자가 코드와 어긋날 수 없습니다.
- 글의 모든 `{이름}` 에는 값이 있고, 쓰지 않는 값은 넘기지 않습니다.
- 정답과 오답의 수(answer, value)는 독자가 적은 수와 견주는 데만 쓰고 화면에 찍지 않습니다. 오답의 수도 그 오해를 코드로
  그대로 계산한 값을 넘깁니다 (예: √d_k 대신 d_k 로 나눈 값).
"""

import decimal
import math
import numbers
import re
import unicodedata

FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
DIGIT = re.compile(r"[0-9０-９]")


def _texts(question):
    """독자에게 보일 글들: (어디, 글)."""
    yield "label", question.get("label", "")
    yield "unit", question.get("unit", "")
    yield "legend", question.get("legend", "")
    yield "name", question.get("name", "")
    for key in ("right", "other"):
        yield key, question.get(key, "")
    for i, wrong in enumerate(question.get("wrong", ())):
        yield f"wrong[{i}]", wrong["feedback"]
    for i, more in enumerate(question.get("more", ())):
        yield f"more[{i}].name", more["name"]
        yield f"more[{i}].other", more["other"]
        for j, wrong in enumerate(more["wrong"]):
            yield f"more[{i}].wrong[{j}]", wrong["feedback"]
    for i, option in enumerate(question.get("options", ())):
        yield f"options[{i}].text", option["text"]
        yield f"options[{i}].feedback", option["feedback"]


def _check(question):
    values = question["values"]
    bad = {k: v for k, v in values.items() if not (isinstance(v, str) and v.strip())}
    if bad:
        raise TypeError(f"values 는 찍을 글자(str)여야 합니다: {bad}")
    used = set()
    for where, text in _texts(question):
        if not isinstance(text, str):
            raise TypeError(f"{where} 는 글(str)이어야 합니다: {text!r}")
        plain = FIELD.sub("", text)
        if DIGIT.search(plain):
            raise ValueError(f"{where} 에 숫자를 직접 적었습니다. {{이름}} 자리와 values 로 넘기세요: {text!r}")
        if "{" in plain or "}" in plain:
            raise ValueError(f"{where} 의 자리 표시가 {{영문_소문자}} 꼴이 아닙니다: {text!r}")
        names = set(FIELD.findall(text))
        missing = names - set(values)
        if missing:
            raise ValueError(f"{where} 의 자리 {sorted(missing)} 에 값이 없습니다")
        used |= names
    unused = set(values) - used
    if unused:
        raise ValueError(f"values 의 {sorted(unused)} 는 어느 글에도 쓰이지 않습니다")
    return question


def _number(x, name):
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x):
        raise TypeError(f"{name} 는 유한한 수여야 합니다: {name}={x!r}")
    return float(x)


def wrong(value, tolerance, feedback):
    """내다본 오답 하나: 독자가 적은 수가 value ± tolerance 안이면 feedback 을 보여 줍니다."""
    return {"value": _number(value, "value"), "tolerance": _number(tolerance, "tolerance"), "feedback": feedback}


def between(low, high, feedback):
    """오답의 범위: low < 적은 수 < high 이면 (경계는 빼고) feedback. 위의 wrong 들을 먼저 봅니다."""
    return {"low": _number(low, "low"), "high": _number(high, "high"), "feedback": feedback}


def _overlaps(wrongs, answer, tolerance):
    for w in wrongs:
        if "value" in w and abs(w["value"] - answer) <= w["tolerance"] + tolerance:
            raise ValueError(f"오답 {w['value']} 의 범위가 정답 {answer} 의 범위와 겹칩니다")


def also(name, *, answer, tolerance, other, wrong=()):
    """같은 칸에 함께 적는 값 하나 (문제가 값을 둘 이상 물을 때, 예: "FLOP과 메모리는 각각 몇 배"): 그 값의 이름,
    정답과 허용 범위, 내다본 오답들, 그 밖의 답일 때의 말. 독자는 값들을 차례로, 또는 이름을 붙여 적습니다."""
    more = {
        "name": name,
        "answer": _number(answer, "answer"),
        "tolerance": _number(tolerance, "tolerance"),
        "wrong": list(wrong),
        "other": other,
    }
    _overlaps(more["wrong"], more["answer"], more["tolerance"])
    return more


def number(*, label, answer, tolerance, right, other, values, wrong=(), unit="", name="", more=()):
    """숫자를 적는 문제.

    label: 입력 칸의 이름, unit: 칸 뒤의 단위 (없으면 ""), answer ± tolerance: 정답으로 보는 범위,
    right: 맞았을 때의 말, wrong: 내다본 오답들 (wrong()·between(), 적힌 차례로 봅니다), other: 그 밖의 답일 때의 말.
    more: 같은 칸에 함께 적는 값들 (also()), name: 그때 첫 값의 이름. 독자가 수 하나만 적으면 첫 값으로 봅니다.
    독자의 글을 읽는 규칙은 아래 read_answer, 판정은 respond 입니다 (predict.js 와 같습니다).
    """
    question = {
        "kind": "number",
        "label": label,
        "unit": unit,
        "answer": _number(answer, "answer"),
        "tolerance": _number(tolerance, "tolerance"),
        "right": right,
        "wrong": list(wrong),
        "other": other,
        "values": dict(values),
        "name": name,
        "more": list(more),
        "reading": READING,
    }
    if question["more"] and not name.strip():
        raise ValueError("more 가 있으면 첫 값의 이름(name)도 적어야 합니다")
    _overlaps(question["wrong"], question["answer"], question["tolerance"])
    return _check(question)


def option(text, feedback, right=False):
    """보기 하나: 보기의 글, 그것을 골랐을 때의 말, 정답인가."""
    return {"text": text, "feedback": feedback, "right": bool(right)}


def choice(*, legend, options, values):
    """보기에서 고르는 문제. legend: 보기 묶음의 이름, options: option() 들 (정답은 하나)."""
    options = list(options)
    if sum(o["right"] for o in options) != 1 or len(options) < 2:
        raise ValueError(f"보기는 둘 이상이고 정답은 하나여야 합니다: {[o['text'] for o in options]}")
    return _check({"kind": "choice", "legend": legend, "options": options, "values": dict(values)})


def fill(text, values):
    """{이름} 자리를 값으로 채운 글 (predict.js 의 fill 과 같은 규칙; 테스트가 화면의 글과 견줍니다)."""
    return FIELD.sub(lambda m: values[m.group(1)], text)


# ---------------------------------------------------------------- 독자가 적은 답 읽기
# docs/assets/predict.js 의 read·respond 와 같은 규칙입니다. 두 구현이 같은 답을 내는지는 tests/test_quizzes.py 의
# READING_CASES 표(파이썬)와 tests/test_predict_browser.py(같은 표와 무작위 글, 브라우저)가 확인합니다.
#
# 문법 (공백은 식 안에서는 무시하고, 수와 수 사이에서는 가르는 자리로 봅니다):
#
#     답   := 값 ( [가름] 값 )*              가름: , ; ~ – 와 과 하고 그리고 및 이고 고 and
#     값   := [이름] 식 [%]                   이름: 문제가 묻는 값의 이름 (예: FLOP, 메모리), % 는 100 으로 나눕니다
#     식   := 단항 ( (* × · / ÷ | x) 단항 )*  x 는 뒤에 수가 올 때만 곱하기, 아니면 단위 (16x = 16배)
#     단항 := (- | + | √ | 루트 | sqrt) 단항 | 거듭
#     거듭 := 기본 [ (^ | **) 단항 | 윗첨자 ]    2^4, 2**4, 4², 10⁻¹ (오른쪽부터 묶습니다)
#     기본 := 수 | ( 식 )                        수: 16, 0.5, .5, 2,359,296, 1e-3 (쉼표 뒤에 세 자리면 천 단위)
#
# 어디에 와도 건너뛰는 말: 단위(배, 개, 문제의 단위), 어림(약, 쯤, 정도 …), 조사와 끝말(은, 는, 입니다, 요 …), 문장부호.
# 그 밖의 낱말이나 기호가 있으면 짐작하지 않고 읽지 못한 부분을 알려 줍니다. 수가 하나도 없으면 숫자를 적어 달라고 합니다.
# 독자가 적은 것이 수 하나가 아니면(식, 여러 수, 이름) 판정 앞에 "…로 읽었습니다" 를 붙여, 무엇으로 읽었는지 보입니다.
# 수의 개수가 묻는 값의 개수와 맞지 않으면 판정하지 않고, 읽은 수를 보이며 다시 적어 달라고 합니다.

READING = {
    "words": {
        "skip": [
            "약",
            "대략",
            "대충",
            "얼추",
            "거의",
            "한",
            "쯤",
            "정도",
            "가량",
            "안팎",
            "내외",
            "남짓",
            "근처",
            "언저리",
            "씩",
            "각각",
            "모두",
            "둘",
            "다",
            "은",
            "는",
            "이",
            "가",
            "도",
            "을",
            "를",
            "입니다",
            "이다",
            "이요",
            "요",
            "예요",
            "에요",
            "이에요",
            "임",
            "정답",
            "답",
            "배",
            "개",
            "about",
            "approx",
            "around",
            "roughly",
        ],
        "sep": ["와", "과", "하고", "그리고", "및", "이고", "고", "and"],
        "root": ["루트", "sqrt"],
        "times": ["x"],
    },
    "counts": ["한 개", "두 개", "세 개", "네 개", "다섯 개", "여섯 개", "일곱 개", "여덟 개", "아홉 개", "열 개"],
    "messages": {
        "empty": "숫자를 적어 주세요. 분수, 제곱근(√), 거듭제곱(^)도 됩니다.",
        "read": "{shown}{ro} 읽었습니다.",
        "unknown": "읽지 못한 부분이 있습니다: ‘{rest}’. 수와 단위만 적어 주세요.",
        "value": "계산할 수 없는 식입니다: ‘{rest}’.",
        "count_one": "수 {count}({shown})로 읽었습니다. 이 칸에는 수 하나만 적어 주세요.",
        "count_parts": "수 {count}({shown})로 읽었습니다. 이 칸에는 {names}의 값을 차례로 적어 주세요.",
        "labels": "{shown}{ro} 읽었지만, 어느 수가 무엇의 값인지 알 수 없습니다. 이름을 모두 붙이거나 모두 빼 주세요.",
        "part_right": "{name}: 맞습니다.",
        "part": "{name}: {text}",
    },
}

_SPACE = re.compile("[ \t\n\r\f\v\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]+")
_NUMBER = re.compile(
    r"[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
    r"|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
)
_SUPERSCRIPT = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+")
_LATIN = re.compile("[A-Za-z]+")
_HANGUL = re.compile("[가-힣ㄱ-ㅎㅏ-ㅣ]+")
_WIDE = str.maketrans("０１２３４５６７８９，．／％（）＋－＊　", "0123456789,./%()+-* ")
_SUPER_ASCII = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_SYMBOLS = {
    "^": "pow",
    "*": "mul",
    "×": "mul",
    "·": "mul",
    "⋅": "mul",
    "/": "div",
    "÷": "div",
    "∕": "div",
    "√": "root",
    "(": "lp",
    "[": "lp",
    ")": "rp",
    "]": "rp",
    "-": "minus",
    "−": "minus",
    "+": "plus",
    "%": "pct",
    ",": "sep",
    ";": "sep",
    "、": "sep",
    "~": "sep",
    "〜": "sep",
    "–": "sep",
    "—": "sep",
    ".": "skip",
    "!": "skip",
    "?": "skip",
    ":": "skip",
    "…": "skip",
    "≈": "skip",
    '"': "skip",
    "'": "skip",
    "‘": "skip",
    "’": "skip",
    "“": "skip",
    "”": "skip",
}
_STARTS = {"num", "lp", "root", "minus", "plus"}
_POWERS_OF_TEN = [1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3]


def _vocabulary(question):
    """{낱말(소문자): 종류}. 종류는 skip, sep, root, times, 또는 묻는 값의 번호(int, 이름표)."""
    vocab = {word: kind for kind, words in READING["words"].items() for word in words}
    for word in (question or {}).get("unit", "").split():
        vocab[word.lower()] = "skip"
    for i, name in enumerate(_part_names(question)):
        for word in name.lower().split():
            vocab[word] = i
            if _LATIN.fullmatch(word):
                vocab[word + "s"] = i  # FLOPs
    return vocab


def _part_names(question):
    if not question or not question.get("more"):
        return []
    return [question["name"]] + [m["name"] for m in question["more"]]


def _hangul_words(run, start, vocab, out):
    """한글 낱말을 어휘의 가장 긴 낱말부터 잘라 읽습니다 (16배입니다 → 배 + 입니다). 못 읽는 곳부터는 unknown."""
    words = sorted((w for w in vocab if _HANGUL.fullmatch(w)), key=len, reverse=True)
    i = 0
    while i < len(run):
        word = next((w for w in words if run.startswith(w, i)), None)
        if word is None:
            out.append(("unknown", start + i, start + len(run)))
            return
        out.append((vocab[word], start + i, start + i + len(word)))
        i += len(word)


def _tokens(text, vocab):
    """(종류, 시작, 끝) 목록."""
    out, i = [], 0
    while i < len(text):
        for kind, pattern in (("ws", _SPACE), ("num", _NUMBER), ("sup", _SUPERSCRIPT)):
            m = pattern.match(text, i)
            if m:
                out.append((kind, i, m.end()))
                i = m.end()
                break
        else:
            if text.startswith("**", i):
                out.append(("pow", i, i + 2))
                i += 2
            elif m := _LATIN.match(text, i):
                out.append((vocab.get(m.group().lower(), "unknown"), i, m.end()))
                i = m.end()
            elif m := _HANGUL.match(text, i):
                _hangul_words(m.group(), i, vocab, out)
                i = m.end()
            else:
                out.append((_SYMBOLS.get(text[i], "unknown"), i, i + 1))
                i += 1
    return out


class _Unreadable(Exception):
    def __init__(self, at):
        self.at = at


def _significant(tokens):
    """건너뛰는 것(공백, 건너뛰는 말, 문장부호)을 빼고, 토큰마다 앞에 그런 것이 있었는지(gap)를 붙입니다."""
    out, gap = [], True
    for kind, start, end in tokens:
        if kind in ("ws", "skip"):
            gap = True
            continue
        out.append({"kind": kind, "start": start, "end": end, "gap": gap})
        gap = False
    return out


def _power(base, exponent):
    """math.pow 와 JavaScript 의 Math.pow 는 nan·inf 에서 답이 갈려서(1^inf), 유한하지 않은 입력은 nan 으로 둡니다."""
    if not (math.isfinite(base) and math.isfinite(exponent)):
        return math.nan
    try:
        return math.pow(base, exponent)
    except (ValueError, OverflowError, ZeroDivisionError):
        return math.nan


class _Parser:
    def __init__(self, text, toks):
        self.text, self.toks, self.i = text, toks, 0

    def peek(self, ahead=0):
        j = self.i + ahead
        return self.toks[j]["kind"] if j < len(self.toks) else None

    def take(self):
        self.i += 1
        return self.toks[self.i - 1]

    def fail(self):
        raise _Unreadable(self.toks[self.i]["start"] if self.i < len(self.toks) else None)

    def expression(self):
        value = self.unary()
        while self.peek() in ("mul", "div") or (self.peek() == "times" and self.peek(1) in _STARTS):
            op = self.take()["kind"]
            right = self.unary()
            if op == "div":
                value = value / right if right != 0 else math.nan
            else:
                value = value * right
        return value

    def unary(self):
        kind = self.peek()
        if kind in ("minus", "plus", "root"):
            self.take()
            value = self.unary()
            if kind == "minus":
                return -value
            if kind == "root":
                return math.sqrt(value) if value >= 0 else math.nan
            return value
        return self.power()

    def power(self):
        base = self.primary()
        if self.peek() == "pow":
            self.take()
            return _power(base, self.unary())
        if self.peek() == "sup":
            tok = self.take()
            digits = self.text[tok["start"] : tok["end"]].translate(_SUPER_ASCII)
            if not re.fullmatch(r"[+-]?[0-9]+", digits):
                self.i -= 1
                self.fail()
            return _power(base, float(digits))
        return base

    def primary(self):
        kind = self.peek()
        if kind == "num":
            tok = self.take()
            value = float(self.text[tok["start"] : tok["end"]].replace(",", ""))
            return value if math.isfinite(value) else math.nan
        if kind == "lp":
            self.take()
            value = self.expression()
            if self.peek() != "rp":
                self.fail()
            self.take()
            return value
        self.fail()

    def answer(self):
        """값들: [{"value", "label", "start", "end", "plain"}]"""
        items, label, need_gap = [], None, False
        while self.i < len(self.toks):
            tok = self.toks[self.i]
            if tok["kind"] == "sep":
                self.take()
                need_gap = False
            elif isinstance(tok["kind"], int):
                self.take()
                label, need_gap = tok["kind"], False
            elif tok["kind"] == "times" and items:
                self.take()  # 수 뒤의 x: 단위 (16x)
            elif tok["kind"] not in _STARTS or (need_gap and not tok["gap"]):
                self.fail()
            else:
                first = self.i
                value = self.expression()
                kinds = [t["kind"] for t in self.toks[first : self.i]]
                plain = kinds in (["num"], ["minus", "num"], ["plus", "num"])
                if self.peek() == "pct":
                    self.take()
                    value, plain = value / 100, False
                items.append(
                    {
                        "value": value,
                        "label": label,
                        "start": self.toks[first]["start"],
                        "end": self.toks[self.i - 1]["end"],
                        "plain": plain,
                    }
                )
                label, need_gap = None, True
        return items


def read_answer(text, question=None):
    """독자가 적은 글 → {"items": [{"value", "label", "src", "plain"}], "error": None 또는 {"kind", "rest"}}.

    error 의 kind: "empty"(수가 없음), "unknown"(읽지 못한 부분: rest), "value"(계산할 수 없는 식: rest)."""
    text = unicodedata.normalize("NFC", str(text)).translate(_WIDE)
    toks = _tokens(text, _vocabulary(question))
    if not any(kind == "num" for kind, _, _ in toks):
        return {"items": [], "error": {"kind": "empty", "rest": ""}}
    sig = _significant(toks)
    parser = _Parser(text, sig)
    try:
        items = parser.answer()
    except _Unreadable as err:
        # 글이 도중에 끝나면 (16/, (16) 어디가 모자란지 가리키기 어려워 글 전체를 보입니다
        return {"items": [], "error": {"kind": "unknown", "rest": text[err.at or 0 :].strip()}}
    for item in items:
        item["src"] = text[item.pop("start") : item.pop("end")]
        if not math.isfinite(item["value"]):
            return {"items": [], "error": {"kind": "value", "rest": item["src"]}}
    return {"items": items, "error": None}


def format_number(x):
    """읽은 수를 보일 글자: 유효 숫자 넷까지 (끝의 0 은 빼고), 소수점이 없으면 천 단위 쉼표."""
    if x == 0:
        return "0"
    a, e = abs(x), 0
    while e < 3 and a >= _POWERS_OF_TEN[10 + e + 1]:
        e += 1
    while e > -10 and a < _POWERS_OF_TEN[10 + e]:
        e -= 1
    if a == math.floor(a):
        text = str(int(a))
    else:
        places = decimal.Decimal(1).scaleb(-min(10, max(0, 3 - e)))
        text = format(decimal.Decimal(a).quantize(places, rounding=decimal.ROUND_HALF_UP), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if "." not in text:
        text = f"{int(text):,}"
    return "0" if text == "0" else ("-" if x < 0 else "") + text


# 수를 읽은 마지막 소리의 받침: 숫자 0–9 (영 일 이 삼 사 오 육 칠 팔 구), 끝의 0 이 n 개인 정수의 단위 (십 백 천 만 … 억 … 조 … 경)
_DIGIT_FINAL = {"0": "ng", "1": "l", "2": "", "3": "m", "4": "", "5": "", "6": "k", "7": "l", "8": "l", "9": ""}
_UNIT_FINAL = ["", "p", "k", "n", "n", "n", "n", "n", "k", "k", "k", "k", "", "", "", "", "ng"]


def _final(number_text):
    digits = number_text.replace(",", "").lstrip("+-")
    if "." in digits:
        return _DIGIT_FINAL[digits[-1]]
    stripped = digits.rstrip("0")
    if not stripped:
        return "ng"
    zeros = len(digits) - len(stripped)
    return _DIGIT_FINAL[stripped[-1]] if zeros == 0 else _UNIT_FINAL[min(zeros, len(_UNIT_FINAL) - 1)]


def particle(number_text, pair):
    """수 뒤에 붙일 조사: pair 는 "으로/로", "은/는", "이/가", "을/를", "과/와" (받침이 있을 때/없을 때). 수는 읽는 소리로."""
    with_final, without = pair.split("/")
    final = _final(number_text)
    if with_final == "으로":
        return "로" if final in ("", "l") else "으로"
    return with_final if final else without


def _fill_runtime(template, fields):
    return FIELD.sub(lambda m: fields[m.group(1)], template)


def _judge_one(part, x):
    """(verdict, index, 글) — 값 하나를 그 값의 정답과 오답들에 견줍니다 (정답 먼저, 그다음 오답을 적힌 차례로)."""
    if abs(x - part["answer"]) <= part["tolerance"]:
        return "right", -1, part.get("right", "")
    for i, w in enumerate(part["wrong"]):
        hit = abs(x - w["value"]) <= w["tolerance"] if "value" in w else w["low"] < x < w["high"]
        if hit:
            return "wrong", i, w["feedback"]
    return "other", -1, part["other"]


def _order(items, parts):
    """값마다 묻는 값의 번호, 또는 판정할 수 없는 까닭("labels", "count")."""
    labelled = [item["label"] for item in items if item["label"] is not None]
    if labelled:
        ok = len(labelled) == len(items) and len(set(labelled)) == len(labelled)
        return labelled if ok else "labels"
    if len(items) == 1 or len(items) == len(parts):
        return list(range(len(items)))
    return "count"


def _shown(items, order, names):
    """읽은 값들을 보이는 글: "FLOP 16, 가중치 메모리 4^2 = 16" (이름은 묻는 값이 둘 이상일 때만)."""
    out = []
    for item, p in zip(items, order):
        value = format_number(item["value"])
        head = names[p] + " " if len(names) > 1 else ""
        out.append(head + (value if item["plain"] else item["src"] + " = " + value))
    return ", ".join(out)


def _unsure(reason, items, names):
    msg = READING["messages"]
    plain = ", ".join(format_number(item["value"]) for item in items)
    if reason == "labels":
        last = format_number(items[-1]["value"])
        return _fill_runtime(msg["labels"], {"shown": plain, "ro": particle(last, "으로/로")})
    n, counts = len(items), READING["counts"]
    count = counts[n - 1] if n <= len(counts) else f"{n}개"
    template = msg["count_one"] if len(names) == 1 else msg["count_parts"]
    return _fill_runtime(template, {"count": count, "shown": plain, "names": ", ".join(names)})


def _combine(question, results, order, names):
    """여러 값의 판정을 하나로: 모두 맞으면 정답의 말, 모두 같은 말이면 그 말 하나, 아니면 값마다 한 줄."""
    msg, values = READING["messages"], question["values"]
    if all(r[0] == "right" for r in results):
        return "right", fill(question["right"], values)
    if len({(r[0], r[2]) for r in results}) == 1:
        return results[0][0], fill(results[0][2], values)
    lines = []
    for (verdict, _, body), p in zip(results, order):
        template = msg["part_right"] if verdict == "right" else msg["part"]
        lines.append(_fill_runtime(template, {"name": names[p], "text": fill(body, values)}))
    kinds = {r[0] for r in results}
    verdict = "partly" if "right" in kinds else "wrong" if "wrong" in kinds else "other"
    return verdict, " ".join(lines)


def respond(question, text):
    """독자가 적은 글에 돌려줄 판정: (verdict, index, 글). 글은 values 를 채운 것이고, predict.js 의 respond 와 같습니다.

    verdict: right, wrong(내다본 오답, index 는 그 번호), other(그 밖의 답), partly(여러 값 가운데 일부만 맞음),
    unsure(읽은 것을 보이고 다시 적어 달라는 말), invalid(수가 없음). 여러 값을 판정하면 index 는 -1 입니다."""
    reading = read_answer(text, question)
    error = reading["error"]
    if error:
        verdict = "invalid" if error["kind"] == "empty" else "unsure"
        return verdict, -1, _fill_runtime(READING["messages"][error["kind"]], {"rest": error["rest"]})
    items = reading["items"]
    parts = [question] + list(question.get("more", ()))
    names = _part_names(question) or [question.get("name", "")]
    order = _order(items, parts)
    if isinstance(order, str):
        return "unsure", -1, _unsure(order, items, names)
    single = len(items) == 1 and items[0]["label"] is None
    prefix = ""
    if not (single and items[0]["plain"]):
        last = format_number(items[-1]["value"])
        fields = {"shown": _shown(items, order, names), "ro": particle(last, "으로/로")}
        prefix = _fill_runtime(READING["messages"]["read"], fields) + " "
    results = [_judge_one(parts[p], item["value"]) for item, p in zip(items, order)]
    if single:
        verdict, index, body = results[0]
        return verdict, index, prefix + fill(body, question["values"])
    verdict, body = _combine(question, results, order, names)
    return verdict, -1, prefix + body
