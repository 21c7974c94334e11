"""WCAG 2 의 명암비: 색 두 개의 상대 휘도(relative luminance)로 (밝은 쪽 + 0.05) / (어두운 쪽 + 0.05).

그림의 색(test_contrast, 0–1 의 RGB)과 브라우저가 계산한 색(getComputedStyle, 0–255 의 RGB)이 같은 식을 씁니다.
"""


def luminance(rgb):
    """0–1 의 sRGB 세 값 → 상대 휘도 (WCAG 2.x 의 정의, 0.03928 문턱 그대로)."""

    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b, scale=1.0):
    """색 a, b 의 명암비 (1–21). scale: 한 채널의 가장 큰 값 (0–1 이면 1, 브라우저의 rgb() 처럼 0–255 이면 255)."""
    la, lb = sorted((luminance([v / scale for v in a]), luminance([v / scale for v in b])), reverse=True)
    return (la + 0.05) / (lb + 0.05)
