"""7장 정리: 한 단계로 닿는 거리, 차례로 기다리는 단계 수(RNN 은 n, 어텐션은 3)와 그 대가 O(n²), NLP 밖의 어텐션."""

# --8<-- [start:steps]
import numpy as np

from attention import scaled_dot_product_attention, softmax


class Value:
    """배열 하나와, 그 배열을 얻기까지 차례로 기다려야 했던 연산의 수(steps)."""

    def __init__(self, array, steps=0):
        self.array, self.steps = array, steps


def step(fn, *inputs):
    """연산 하나: 입력이 모두 준비되어야 시작합니다. 그래서 차례 단계 = 가장 늦은 입력 + 1."""
    return Value(fn(*(v.array for v in inputs)), 1 + max(v.steps for v in inputs))


def rnn(x, W, U):
    """RNN: 상태 h_t 를 계산하려면 h_{t-1} 이 있어야 합니다. 토큰마다 한 단계씩 차례로."""
    h = Value(np.zeros(W.shape[0]))
    for x_t in x:
        h = step(lambda h, x_t: np.tanh(W @ h + U @ x_t), h, Value(x_t))
    return h


def self_attention(x):
    """어텐션: 모든 토큰 쌍의 점수를 행렬 곱 한 번에, 소프트맥스 한 번, 가중합 행렬 곱 한 번."""
    X = Value(x)
    scores = step(lambda a: a @ a.T / np.sqrt(a.shape[-1]), X)
    weights = step(lambda s: softmax(s, axis=-1), scores)
    return step(lambda w, v: w @ v, weights, X)


rng = np.random.default_rng(0)
d = 16
W, U = rng.standard_normal((d, d)) * 0.1, rng.standard_normal((d, d)) * 0.1
steps = {}
print("토큰 수 | 차례 단계: RNN | 어텐션")
for n in (8, 64, 512):
    x = rng.standard_normal((n, d))
    steps[n] = (rnn(x, W, U).steps, self_attention(x).steps)
    print(f"{n:7d} | {steps[n][0]:13d} | {steps[n][1]:6d}")
# 세 단계로 계산한 어텐션은
# 코어 함수와 같은 값입니다
core_out, _ = scaled_dot_product_attention(x, x, x)
same_as_core = np.allclose(self_attention(x).array,
                           core_out)
print("코어의 scaled_dot_product_attention 과",
      "같은 값인가?", same_as_core)
# --8<-- [end:steps]

# --8<-- [start:quadratic]
def attention_core_cost(n, d_head=64, bytes_per_number=4):
    """헤드 하나, 층 하나에서 Q Kᵀ 와 가중치 @ V 의 FLOP, 그리고 가중치 행렬의 메모리."""
    # 두 번의 (n × d_head × n) 행렬 곱
    flops = 2 * n * n * d_head * 2
    # float32 n × n 가중치 행렬
    memory_mb = n * n * bytes_per_number / 2**20
    return flops, memory_mb


# 휴대전화의 실행 결과 상자(약 32자)에 들어가게
# FLOP 은 백만 단위로 찍습니다. MiB 는 n × n
# 어텐션 가중치를 float32 로 담은 메모리,
# 마지막 열은 128 토큰 대비 FLOP.
print("   n  FLOP(백만)    MiB 128 대비")
base_flops, _ = attention_core_cost(128)
for n in (128, 512, 2048, 8192):
    flops, mem = attention_core_cost(n)
    print(f"{n:4d} {flops / 1e6:10,.1f} {mem:6g} {flops / base_flops:5.0f}배")
# --8<-- [end:quadratic]

# --8<-- [start:beyond]
# ViT-B/16: 224×224 이미지를 16×16 패치로
# 자르면 몇 개의 "토큰"이 되나?
vit_patches = (224 // 16) ** 2
print("ViT 패치 수:", vit_patches)
print("  + 분류 토큰 1개 =", vit_patches + 1)
# Whisper: 30초 소리 → 10ms 간격 로그-멜
# 스펙트로그램 → 합성곱(보폭 2) → 인코더 위치
frames = 30 * 1000 // 10
print("Whisper 스펙트로그램 프레임:", frames)
print("  → 인코더 위치:", frames // 2)
print("인코더 헤드 하나의 가중치 원소:",
      f"{(frames // 2) ** 2:,}")
# --8<-- [end:beyond]


# --8<-- [start:quiz_1]
def projection_cost(n, d_model=512, d_head=64):
    """헤드 하나의 Q, K, V 투영: (n × d_model) @ (d_model × d_head) 세 번의 FLOP."""
    return 3 * 2 * n * d_model * d_head


p1024, p4096 = projection_cost(1024), projection_cost(4096)
f1024, _ = attention_core_cost(1024)
f4096, _ = attention_core_cost(4096)
print(f"토큰 1024 → 4096 ({4096 // 1024}배)")
print(f"  투영 FLOP {p4096 / p1024:.0f}배")
print(f"  점수·가중합 FLOP {f4096 / f1024:.0f}배")
# 투영은 토큰마다 같은 일(n 에 비례),
# 점수는 토큰 쌍마다 하나(n² 에 비례)
even = next(n for n in range(1, 4097)
            if attention_core_cost(n)[0] >= projection_cost(n))
print(f"둘이 같아지는 n (d_model 512): {even}")
# --8<-- [end:quiz_1]


# 확인 문제를 먼저 예상하고 확인하기 (snippets/lib/predict.py, docs/assets/predict.js): 숫자는 모두 위의 계산에서
def data_quiz_1():
    """문제 1: 토큰이 4배가 되면 Q·K·V 투영과 점수·가중합의 FLOP 이 각각 몇 배가 되는지 (두 값을 함께 적어도 됩니다)."""
    from predict import also, number, wrong

    longer = 4096 // 1024
    proj, core = p4096 / p1024, f4096 / f1024
    assert proj == longer and core == longer**2
    values = {"longer": str(longer), "proj": f"{proj:.0f}", "core": f"{core:.0f}", "even": str(even)}
    other = "투영은 토큰 하나마다 하는 일이고, 점수는 토큰 둘(쿼리와 키)마다 하는 일입니다. 토큰이 늘 때 각각 몇 번 하게 되는지 세어 보세요."
    return number(
        label="투영과 점수의 FLOP은 각각 몇 배",
        unit="배",
        name="투영",
        answer=proj,
        tolerance=0.1,
        right="투영은 토큰마다 같은 행렬을 한 번씩 곱하므로 n에 비례해 {proj}배이고, 점수는 토큰 쌍마다 하나라서 n²에 "
        "비례해 {core}배입니다. 더 빨리 커지는 쪽은 점수이고, 토큰이 {even}개를 넘으면 점수 쪽이 더 큽니다.",
        wrong=[
            wrong(core, 0.1, "투영도 n²으로 셌나요? 투영은 토큰 하나하나에 (d_model × d_head) 행렬을 곱할 뿐, 다른 "
                  "토큰과 짝을 짓지 않습니다. 그래서 {proj}배입니다."),
            wrong(1.0, 0.05, "투영 행렬의 크기가 그대로라서 일도 그대로라고 봤나요? 파라미터 수는 그대로지만, 그 행렬을 "
                  "곱하는 횟수는 토큰 수만큼이라 {proj}배가 됩니다."),
        ],
        other=other,
        more=[
            also("점수", answer=core, tolerance=0.1, other=other, wrong=[
                wrong(float(longer), 0.1, "점수도 토큰 수에 비례한다고 봤나요? 모든 쿼리가 모든 키와 점수를 하나씩 "
                      "만들므로 점수의 개수가 n²이고, 길이가 {longer}배면 {core}배입니다."),
                wrong(float(longer**3), 1.0, "n³으로 셌나요? 점수 하나를 만드는 곱셈 수(d_head)는 길이와 상관없이 "
                      "그대로이고, 늘어나는 것은 점수의 개수 n²뿐입니다. 그래서 {core}배입니다."),
            ]),
        ],
        values=values,
    )


# --8<-- [start:quiz_2]
patches_384 = (384 // 16) ** 2
tokens_384 = patches_384 + 1
print("384×384 이미지, 16×16 패치:", patches_384)
print("  + 분류 토큰 1개 =", tokens_384)
print(f"헤드 하나의 가중치 원소 {tokens_384 ** 2:,}")
ratio = tokens_384 / (vit_patches + 1)
print(f"224×224 ({vit_patches + 1}개) 대비")
print(f"  한 변 {384 / 224:.1f}배, 토큰 {ratio:.1f}배")
print(f"  가중치 원소 {ratio ** 2:.1f}배")
# --8<-- [end:quiz_2]

# --8<-- [start:quiz_3]
x_long = rng.standard_normal((2048, d))
print("토큰 2048개의 어텐션 차례 단계:", self_attention(x_long).steps)
print("토큰 8개일 때:", steps[8][1])
# --8<-- [end:quiz_3]

# --8<-- [start:quiz_4]
# 이미 있는 토큰 512개의 키·밸류
history = rng.standard_normal((512, d))
# 새로 만들 토큰 하나의 쿼리
new_query = rng.standard_normal((1, d))
out_new, w_new = scaled_dot_product_attention(new_query, history, history)
print("새 토큰 하나의 가중치:", w_new.shape)
print("출력:", out_new.shape)
# --8<-- [end:quiz_4]

# --8<-- [start:figure]
def figure_quadratic(narrow=False):
    """문장 길이에 따른 비용: 어텐션의 FLOP 과 메모리는 n² 으로, RNN 의 차례 단계는 n 으로 늘어납니다."""
    import matplotlib.pyplot as plt

    from plotting import current_theme, width

    t = current_theme()
    ns = np.array([128, 256, 512, 1024, 2048, 4096, 8192])
    mem = np.array([attention_core_cost(int(n))[1] for n in ns])
    fig, ax = plt.subplots(figsize=(width(narrow), 4.2 if narrow else 3.8), layout="constrained")
    ax.plot(ns, mem, "o-", color=t["accent"], label="어텐션 가중치 행렬 메모리 (n²)")
    ax.plot(ns, mem[0] * ns / ns[0], "s--", color=t["accent2"], label="n 에 비례했다면")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(ns, labels=[str(n) for n in ns], rotation=45 if narrow else 0)  # 2^k 대신 보통 숫자로
    ticks = [1 / 16, 1 / 4, 1, 4, 16, 64, 256]
    ax.set_yticks(ticks, labels=["1/16", "1/4", "1", "4", "16", "64", "256"])
    ax.minorticks_off()
    ax.set_xlabel("토큰 수 n")
    ax.set_ylabel("MiB (헤드 하나, 층 하나, float32)")
    ax.set_title("길이가 2배면 어텐션 비용은 4배")
    ax.grid(True, alpha=0.6)
    ax.legend()
    return fig
# --8<-- [end:figure]
