"""Photograph a rulebook page in headless Chromium and check that the card pictures show.

``python -m hanafuda.rulebook.screenshot SITE OUT.png [PAGE]`` takes a screenshot of ``PAGE``
(default ``gen/koikoi/index.html``) of a built site and prints which plant colours of the card
pictures (:data:`~hanafuda.rulebook.pictures.PLANT_COLOURS`) appear in it. The colours are
drawn only by the card pictures, so finding them means the browser loaded and painted the SVGs.

The PNG reader is deliberately small (8-bit RGB or RGBA, not interlaced: what Chromium writes).

>>> png = encode_png(2, 1, bytes([255, 0, 0, 0, 255, 0]))
>>> decode_png(png)
(2, 1, [(255, 0, 0), (0, 255, 0)])
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path

from hanafuda.rulebook.pictures import PLANT_COLOURS

__all__ = ["chromium", "colours_found", "decode_png", "encode_png", "screenshot"]

_SIG = b"\x89PNG\r\n\x1a\n"


def chromium() -> str | None:
    """The Chromium executable, or None when it is not installed."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(page: Path, out: Path, width: int = 1280, height: int = 3000, timeout: float = 120) -> Path:
    """A PNG screenshot of a local HTML page (raises FileNotFoundError without Chromium)."""
    exe = chromium()
    if exe is None:
        raise FileNotFoundError("chromium is not installed")
    out = out.resolve()
    with tempfile.TemporaryDirectory(prefix="hanafuda-chromium-") as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               f"--user-data-dir={profile}", f"--window-size={width},{height}", "--virtual-time-budget=5000",
               f"--screenshot={out}", page.resolve().as_uri()]
        subprocess.run(cmd, check=True, capture_output=True, timeout=timeout)
    if not out.is_file():
        raise RuntimeError(f"chromium wrote no screenshot to {out}")
    return out


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and the RGB pixels (row by row) of an 8-bit RGB/RGBA PNG."""
    if not data.startswith(_SIG):
        raise ValueError("not a PNG file")
    pos, idat = 8, b""
    width = height = ctype = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    i = 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                line[x] = (line[x] + _paeth(a, b, c)) & 0xFF
        pixels.extend((line[x], line[x + 1], line[x + 2]) for x in range(0, stride, bpp))
        prev = line
    return width, height, pixels


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """A minimal 8-bit RGB PNG (used by the doctest above)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\x00" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))
    return (_SIG + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    v = int(hex_colour.lstrip("#"), 16)
    return v >> 16, (v >> 8) & 0xFF, v & 0xFF


def colours_found(png: Path, min_pixels: int = 40) -> dict[str, int]:
    """For each plant colour of the card pictures, how many pixels of the screenshot show it
    (exactly; only colours seen at least ``min_pixels`` times are kept)."""
    _, _, pixels = decode_png(png.read_bytes())
    counts = Counter(pixels)
    found = {}
    for _month, (plant, colour) in sorted(PLANT_COLOURS.items()):
        n = counts.get(_rgb(colour), 0)
        if n >= min_pixels:
            found[plant] = n
    return found


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: python -m hanafuda.rulebook.screenshot SITE OUT.png [PAGE]", file=sys.stderr)
        return 2
    site, out = Path(argv[0]), Path(argv[1])
    page = site / (argv[2] if len(argv) == 3 else "gen/koikoi/index.html")
    screenshot(page, out)
    found = colours_found(out)
    print(f"{out}: card colours seen: {found}")
    return 0 if found else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
