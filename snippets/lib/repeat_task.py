"""학습 과제: 무작위 토큰 수열 안에서 한 토막이 두 번 나옵니다. 두 번째 토막은 앞을 보고 맞힐 수 있습니다.

토큰은 뜻이 없는 번호(0–31)라서 "어떤 토큰 다음에 무엇이 자주 오는지" 를 외워서는 맞힐 수 없습니다.
맞히는 길은 하나뿐입니다: 지금 토큰이 앞에서 나온 자리를 찾아, 그 바로 다음 토큰을 베끼는 것.
"""

# --8<-- [start:task]
import numpy as np

SEGMENT = (8, 16)  # 두 번 나오는 토막의 길이 (가장 짧게, 가장 길게)


def repeat_batch(rng, batch, config, gap=None):
    """토큰 (batch, n_ctx + 1) 과 토막의 자리 (batch, 3): [첫 토막의 시작, 둘째 토막의 시작, 길이].

    gap=None 이면 두 토막 사이의 거리가 수열마다 다릅니다. gap=D 이면 둘째 토막이 늘 첫째보다 D 칸 뒤입니다.
    """
    n = config["n_ctx"] + 1
    tokens = rng.integers(0, config["vocab"], (batch, n))
    length = rng.integers(SEGMENT[0], SEGMENT[1] + 1, batch)
    if gap is None:
        first = (rng.random(batch) * (n - 2 * length + 1)).astype(int)  # 둘째 토막이 들어갈 자리를 남깁니다
        second = first + length + (rng.random(batch) * (n - first - 2 * length + 1)).astype(int)
    else:
        first = (rng.random(batch) * (n - gap - length + 1)).astype(int)
        second = first + gap
    for b in range(batch):  # 둘째 자리에 첫 토막을 베껴 넣습니다
        tokens[b, second[b]:second[b] + length[b]] = tokens[b, first[b]:first[b] + length[b]]
    return tokens, np.stack([first, second, length], axis=1)
# --8<-- [end:task]


def check_gap(gap, config):
    """고정 거리 D 는 토막이 겹치지 않고(D ≥ 가장 긴 토막) 수열 안에 들어가야 합니다."""
    if gap is None:
        return None
    if isinstance(gap, bool) or not isinstance(gap, (int, np.integer)):
        raise TypeError(f"gap 은 정수이거나 None 이어야 합니다: gap={gap!r}")
    if not SEGMENT[1] <= gap <= config["n_ctx"] + 1 - SEGMENT[1]:
        raise ValueError(f"gap={gap} 은 {SEGMENT[1]} 이상 {config['n_ctx'] + 1 - SEGMENT[1]} 이하여야 합니다 "
                         f"(토막이 겹치지 않고 길이 {config['n_ctx'] + 1} 안에 들어가게)")
    return int(gap)


# --8<-- [start:predictable]
def predictable(segments, n):
    """(batch, n) 불리언: 자리 t 의 다음 토큰이 둘째 토막 안이라 앞을 보고 맞힐 수 있으면 True.

    둘째 토막의 시작 s₂ 부터 끝에서 두 번째 자리까지입니다 (끝 자리의 다음 토큰은 다시 무작위).
    """
    t = np.arange(n)
    second, length = segments[:, 1:2], segments[:, 2:3]
    return (t >= second) & (t < second + length - 1)
# --8<-- [end:predictable]


# --8<-- [start:probe]
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"  # 토큰 번호 0–31 을 글자로 보이기 위한 표


def probe_sequence(config, gap=16, seed=3):
    """그림과 슬라이더가 보여 주는 수열 하나: 자리 4부터 12토큰이, gap 칸 뒤에 한 번 더 나옵니다.

    토막 안의 토큰(A–Z 가운데 12개)은 서로 다르고 토막 밖에는 나오지 않아서, 유도 헤드가 볼 자리가 하나로 정해집니다.
    돌려주는 값: 토큰 (n_ctx + 1,) 과 토막의 자리 (1, 3) = [[4, 4 + gap, 12]].
    """
    first, length = 4, 12
    if not length <= gap <= config["n_ctx"] - first - length + 1:
        raise ValueError(f"gap={gap} 은 {length} 이상 {config['n_ctx'] - first - length + 1} 이하여야 합니다")
    rng = np.random.default_rng(seed)
    letters = rng.permutation(26)  # A–Z 만 씁니다 (글자로 읽기 쉽게)
    segment, filler = letters[:length], letters[length:]
    tokens = rng.choice(filler, config["n_ctx"] + 1)
    tokens[first:first + length] = segment
    tokens[first + gap:first + gap + length] = segment
    return tokens, np.array([[first, first + gap, length]])
# --8<-- [end:probe]
