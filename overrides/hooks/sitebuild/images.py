"""PNG 도우미 (Pillow): 그림과 노트북 그림을 같은 방식으로 줄이고 크기를 읽습니다."""

import io

from PIL import Image


def palette_png(data):
    """PNG 바이트 → 256색 팔레트 PNG 바이트.

    히트맵과 선 그림은 눈으로 차이가 없고 파일은 약 1/3 이 됩니다.
    """
    out = io.BytesIO()
    with Image.open(io.BytesIO(data)) as im:
        im.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def png_size(path_or_bytes):
    """(너비, 높이) 픽셀."""
    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    with Image.open(source) as im:
        return im.size
