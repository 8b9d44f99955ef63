"""Draw the app icons (PNG for the web manifest) without any image library.

Run ``python -m games.poker.icons`` after changing the design; the PNGs are
committed under ``games/poker/static/poker/``. The picture matches ``icon.svg``: a blue
rounded square with a white 5×5 grid whose main diagonal is highlighted.
"""

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static" / "poker"
BLUE = (36, 87, 197)
WHITE = (255, 255, 255)
GOLD = (240, 180, 40)


def _pixel(x: float, y: float) -> tuple[int, int, int, int]:
    """Colour at (x, y) in a unit square."""
    radius = 0.18
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    if (x - cx) ** 2 + (y - cy) ** 2 > radius**2:
        return (0, 0, 0, 0)
    margin, gap = 0.14, 0.025
    size = (1 - 2 * margin - 4 * gap) / 5
    for row in range(5):
        for col in range(5):
            left = margin + col * (size + gap)
            top = margin + row * (size + gap)
            if left <= x < left + size and top <= y < top + size:
                return (*(GOLD if row == col else WHITE), 255)
    return (*BLUE, 255)


def png(size: int) -> bytes:
    rows = b"".join(
        b"\x00" + b"".join(bytes(_pixel((x + 0.5) / size, (y + 0.5) / size)) for x in range(size))
        for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
