"""Compare the glued values of two executions of the book, chapter by chapter.

    .venv/bin/python scripts/compare_books.py BOOK_A BOOK_B [--label-a A --label-b B]
        [--fixture OUT.json --commit REV --machine-a TEXT --machine-b TEXT]

BOOK_A and BOOK_B are folders of executed notebooks (``book/``, or the ``--out`` folder of
``compsem run-all`` or ``benchmarks/bench_book.py`` run on another machine). Every numeric glued
value of a chapter present in both is compared, timing keys left out
(:func:`compsem.determinism.is_timing`). It prints, per chapter, how many values differ beyond
1e-6 and beyond 0.5% (relative) and the largest difference; with ``--fixture`` it writes every
value that differs beyond 1e-6, with both numbers, in the form
``tests/test_cross_cpu_verdicts.py`` replays the claims with.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from compsem import determinism, report

CLOSE = 1e-6
"""Relative difference below which two glued values count as the same (the values are printed
to at most six significant digits in the book)."""
VISIBLE = 0.005
"""Relative difference counted apart (0.5%): large enough to change the printed digits of most
values."""


def relative(a: float, b: float) -> float:
    """|a - b| relative to the larger magnitude (0 when both are 0; NaN equals NaN)."""
    if math.isnan(a) and math.isnan(b):
        return 0.0
    if math.isnan(a) or math.isnan(b):
        return math.inf
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def chapter_values(book: Path) -> dict[str, dict[str, float]]:
    """Every chapter notebook of ``book`` (sorted by name) -> its numeric, non-timing glued
    values."""
    out = {}
    for notebook in sorted(book.glob("*.ipynb")):
        values = report.read_glued(notebook)
        numbers = {k: float(v) for k, v in sorted(values.items())
                   if isinstance(v, (int, float)) and not isinstance(v, bool)
                   and not determinism.is_timing(k)}
        if numbers:
            out[notebook.stem] = numbers
    return out


def compare(a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]):
    """Per chapter in both books: (values compared, {key: (a, b)} differing beyond
    :data:`CLOSE`)."""
    result = {}
    for chapter in sorted(set(a) & set(b)):
        common = sorted(set(a[chapter]) & set(b[chapter]))
        differ = {k: (a[chapter][k], b[chapter][k]) for k in common
                  if relative(a[chapter][k], b[chapter][k]) > CLOSE}
        result[chapter] = (len(common), differ)
    return result


def table(result, label_a: str, label_b: str) -> str:
    """The per-chapter summary that benchmarks/results/cross_cpu_digits.txt records."""
    lines = [f"# {'chapter':<22} {'values':>6} {'>1e-6':>6} {'>0.5%':>6}  "
             f"largest |difference| (key: {label_a} -> {label_b})"]
    totals = [0, 0, 0]
    for chapter, (n, differ) in result.items():
        visible = sum(relative(*pair) > VISIBLE for pair in differ.values())
        largest = "-"
        if differ:
            key = max(differ, key=lambda k: (abs(differ[k][0] - differ[k][1]), k))
            x, y = differ[key]
            largest = f"{abs(x - y):.4g} ({key}: {x:.4g} -> {y:.4g})"
        lines.append(f"  {chapter:<22} {n:>6} {len(differ):>6} {visible:>6}  {largest}")
        for i, count in enumerate((n, len(differ), visible)):
            totals[i] += count
    lines.append(f"  {'all':<22} {totals[0]:>6} {totals[1]:>6} {totals[2]:>6}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book_a", type=Path)
    parser.add_argument("book_b", type=Path)
    parser.add_argument("--label-a", default="a")
    parser.add_argument("--label-b", default="b")
    parser.add_argument("--fixture", type=Path, help="write the differing values here (JSON)")
    parser.add_argument("--commit", default="", help="the commit both books were executed at")
    parser.add_argument("--machine-a", default="", help="the CPU that executed BOOK_A, in words")
    parser.add_argument("--machine-b", default="", help="the CPU that executed BOOK_B, in words")
    args = parser.parse_args(argv)
    for book in (args.book_a, args.book_b):
        if not book.is_dir() or not any(book.glob("*.ipynb")):
            parser.error(f"{book}: not a folder of executed notebooks (*.ipynb)")
    result = compare(chapter_values(args.book_a), chapter_values(args.book_b))
    print(table(result, args.label_a, args.label_b))
    if args.fixture:
        fixture = {
            "commit": args.commit,
            "machines": {args.label_a: {"cpu": args.machine_a},
                         args.label_b: {"cpu": args.machine_b}},
            "how": (f"glued values of the book executed on each machine; every value that "
                    f"differs beyond {CLOSE:g} relative, with both numbers "
                    f"(scripts/compare_books.py)"),
            "values": {chapter: {k: {args.label_a: x, args.label_b: y}
                                 for k, (x, y) in differ.items()}
                       for chapter, (_, differ) in result.items() if differ},
        }
        args.fixture.write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
        print(f"wrote {args.fixture}")


if __name__ == "__main__":
    main()
