"""Gemma 3 의 토크나이저를 GGUF 파일의 어휘에서 다시 만듭니다: SentencePiece 의 BPE.

파일에는 조각 262,144개와 조각마다 점수, 종류(보통 조각, 특수 토큰, 사용자 정의 조각, 바이트 조각)가 있고,
합치는 규칙(merge) 목록은 없습니다. SentencePiece 의 BPE 는 점수만으로 자릅니다.

1. 공백을 ▁ 로 바꿉니다 (Gemma 는 맨 앞에 ▁ 를 붙이지 않습니다).
2. 사용자 정의 조각(줄바꿈 "\\n", 공백 여러 개, "<table>" 같은 HTML 태그)은 글에서 먼저 통째로 떼어 냅니다.
3. 나머지는 글자 하나씩에서 시작해, 붙인 결과가 어휘에 있는 이웃 쌍 가운데 **점수가 가장 높은 쌍**을 하나 합치고,
   합칠 쌍이 없을 때까지 되풀이합니다 (점수가 같으면 왼쪽 쌍부터). 이 파일의 보통 조각 점수는 -순위입니다.
4. 어휘에 없는 글자는 UTF-8 바이트마다 바이트 조각(<0xEC> 같은)으로 씁니다.

특수 토큰(<bos>, <eos>, <start_of_turn> …, 파일의 종류로는 CONTROL)은 글에서 만들어지지 않습니다: 글 "<bos>" 는
SentencePiece 처럼 글자 그대로 자릅니다. transformers 의 토크나이저는 글 속의 특수 토큰 글을 그 id 로 읽으므로 여기서
둘이 다릅니다 (tests/test_next_token.py 가 "<bos>" 로 확인하고, 페이지가 말합니다). 대화 형식(<start_of_turn>)은 이
페이지가 쓰지 않습니다. 맨 앞에 <bos> 하나를 붙이는 것은 encode 가 합니다 (파일의 add_bos_token).
"""

# --8<-- [start:tokenizer]
import heapq
import numbers
import re

import arguments

# 파일의 token_type 값 (SentencePiece 의 조각 종류)
NORMAL, CONTROL, USER_DEFINED, BYTE = 1, 3, 4, 6


class GemmaTokenizer:
    def __init__(self, meta):
        keys = ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.scores", "tokenizer.ggml.bos_token_id")
        if not isinstance(meta, dict) or any(k not in meta for k in keys):
            have = sorted(k for k in meta if k.startswith("tokenizer.")) if isinstance(meta, dict) else type(meta).__name__
            raise ValueError(f"meta 는 read_gguf 가 돌려준 메타데이터여야 하고 {list(keys)} 가 있어야 합니다: {have}")
        pieces = list(meta["tokenizer.ggml.tokens"])
        kinds = [int(t) for t in meta["tokenizer.ggml.token_type"]]
        scores = [float(s) for s in meta["tokenizer.ggml.scores"]]
        if not len(pieces) == len(kinds) == len(scores):
            raise ValueError(f"조각 {len(pieces)}개, 종류 {len(kinds)}개, 점수 {len(scores)}개: 개수가 같아야 합니다")
        # 파일은 사용자 정의 조각의 ▁ 를 공백으로 적어 둡니다 ("  "). 글도 공백을 ▁ 로 바꾼 뒤 찾으므로 되돌립니다.
        self.pieces = [p.replace(" ", "▁") if k == USER_DEFINED else p for p, k in zip(pieces, kinds)]
        self.bos = int(meta["tokenizer.ggml.bos_token_id"])
        self.score = {p: s for p, s, k in zip(self.pieces, scores, kinds) if k == NORMAL}
        self.id = {p: i for i, (p, k) in enumerate(zip(self.pieces, kinds)) if k in (NORMAL, USER_DEFINED)}
        self.byte_id = {int(p[3:5], 16): i for i, (p, k) in enumerate(zip(self.pieces, kinds)) if k == BYTE}
        user = sorted((p for p, k in zip(self.pieces, kinds) if k == USER_DEFINED), key=len, reverse=True)
        # 긴 것부터: 가장 긴 조각
        self.user_pattern = re.compile("|".join(map(re.escape, user))) if user else None

    def _bpe(self, text):
        """사용자 정의 조각이 없는 글 → 조각 id 들 (점수가 가장 높은 이웃 쌍부터 합치기)."""
        # 글자 하나씩
        symbols = list(text)
        # 이웃을 잇는 목록
        nxt, prev = list(range(1, len(symbols) + 1)), list(range(-1, len(symbols) - 1))
        heap = []

        def push(left):
            right = nxt[left]
            if right < len(symbols) and (merged := symbols[left] + symbols[right]) in self.score:
                # 점수가 높고, 같으면 왼쪽부터
                heapq.heappush(heap, (-self.score[merged], left, merged))

        for i in range(len(symbols) - 1):
            push(i)
        while heap:
            _, left, merged = heapq.heappop(heap)
            right = nxt[left]
            if symbols[left] is None or right >= len(symbols) or symbols[left] + symbols[right] != merged:
                # 그사이 한쪽이 다른 쌍에 합쳐져 낡은 후보입니다
                continue
            symbols[left], symbols[right] = merged, None
            nxt[left] = nxt[right]
            if nxt[left] < len(symbols):
                prev[nxt[left]] = left
            push(left)
            if prev[left] >= 0:
                push(prev[left])
        ids = []
        for s in symbols:
            if s is None:
                continue
            if s in self.id:
                ids.append(self.id[s])
            else:
                # 어휘에 없는 글자: UTF-8 바이트마다 바이트 조각
                ids.extend(self.byte_id[b] for b in s.encode("utf-8"))
        return ids

    def encode(self, text, add_bos=True):
        """글 → 토큰 id 리스트 (맨 앞에 <bos>). text 는 비어 있지 않은 문자열이어야 합니다."""
        arguments.text(text)
        if not text:
            raise ValueError("text 가 빈 문자열입니다: 다음 토큰을 고를 글이 한 글자 이상 있어야 합니다")
        if not isinstance(add_bos, bool):
            raise TypeError(f"add_bos 는 True 나 False 여야 합니다: add_bos={add_bos!r}")
        text = text.replace(" ", "▁")
        ids, start = [self.bos] if add_bos else [], 0
        for m in self.user_pattern.finditer(text) if self.user_pattern else ():
            ids += self._bpe(text[start:m.start()]) + [self.id[m.group()]]
            start = m.end()
        return ids + self._bpe(text[start:])

    def piece(self, token_id):
        """id → 조각 글 (▁ 그대로, 바이트 조각은 <0xEC> 처럼)."""
        if isinstance(token_id, bool) or not isinstance(token_id, numbers.Integral):
            raise TypeError(f"token_id 는 정수여야 합니다: token_id={token_id!r} ({type(token_id).__name__})")
        if not 0 <= int(token_id) < len(self.pieces):
            raise ValueError(f"token_id={token_id} 는 0 이상 {len(self.pieces)} 미만이어야 합니다 (어휘 크기)")
        return self.pieces[int(token_id)]

    def decode(self, ids):
        """id 들 → 글. ▁ 는 공백으로, 이어진 바이트 조각은 UTF-8 로 풉니다 (특수 토큰은 뺍니다)."""
        if isinstance(ids, (str, bytes)) or not hasattr(ids, "__iter__"):
            raise TypeError(f"ids 는 토큰 id 의 목록이어야 합니다: ids={ids!r:.60} ({type(ids).__name__})")
        out = bytearray()
        byte_of = {i: b for b, i in self.byte_id.items()}
        for i in ids:
            p = self.piece(i)
            if i in byte_of:
                out.append(byte_of[i])
            elif p in self.id:
                out += p.replace("▁", " ").encode("utf-8")
        return out.decode("utf-8", errors="replace")
# --8<-- [end:tokenizer]
