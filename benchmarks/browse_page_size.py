"""The size of the browse page of a full-size TempVS run (issue 27: under 25 MB), and the time and memory browse takes
(issue 54: within 20 s, peak RSS at most 1 GB).

Runs the real lmms-eval CLI with the ``random_choice`` baseline and ``--log_samples`` on the
full-size synthetic release (full_size_data.py; ``--run`` reuses a run folder), then the real
``temporal-bench browse`` on it (``--repeat`` times, a fresh process each), and prints each wall time, the median,
the peak resident memory of the browse processes, the seconds of each step browse says on standard error (start:
the interpreter and the imports; reading: the samples, the records and the report's values with its breakdowns;
building: the cards; making: the thumbnails; writing: the page), the load average, the page's size, its cards, its embedded images and what each part
of the page weighs. No assertions.

The synthetic frames are flat colours, which compress far better than the release's photographs
and drawings; the script also estimates the page with photographic strips: the measured cards and
strings plus, for each embedded image, the mean size of the thumbnails (made by the page's own code)
of the release's strips (two per image sequence, ``combined/`` and ``combined_shuffled/``, weighted
by each source's sequences) cut in each source's geometry from a real photograph (matplotlib's
sample ``grace_hopper.jpg``).

    .venv/bin/python benchmarks/browse_page_size.py                  # lmms-eval --tasks tempvs, then browse
    .venv/bin/python benchmarks/browse_page_size.py --run benchmarks/.data/runs/browse_tempvs --strip-width 480
    .venv/bin/python benchmarks/browse_page_size.py --run benchmarks/.data/runs/browse_tempvs --browse-tasks tempvs_mt1_two
"""

import argparse
import base64
import io
import json
import os
import random
import re
import statistics
import time
from pathlib import Path

from full_size_data import TEMPVS_FRAME_SIZES, TEMPVS_SEQUENCES, add_data_options, data_env
from processes import BIN, run
from tempvs_requests import random_run

from temporal_bench.browse.thumbnails import WIDTHS, thumbnail
from temporal_bench.tempvs.fixtures import combined_strip


def page_parts(page: Path) -> dict[str, float]:
    """The page's cards, thumbnails and the bytes of each part of its data."""
    text = page.read_text(encoding="utf-8")
    data_text = re.search(r"<script type=.application/json. id=.browse-data.>(.*?)</script>", text, re.DOTALL).group(1)
    data = json.loads(data_text)
    thumbs = data["thumbs"]
    thumb_text = sum(len(value) for value in thumbs.values())
    images = [len(base64.b64decode(value)) for value in thumbs.values()]
    return {
        "page MB": page.stat().st_size / 1e6,
        "cards": len(data["cards"]),
        "embedded images": len(thumbs),
        "thumbnails MB (base64)": thumb_text / 1e6,
        "mean thumbnail KB (image bytes)": sum(images) / max(1, len(images)) / 1e3,
        "cards and strings MB": (len(data_text.encode()) - thumb_text) / 1e6,
        "bytes per card (cards and strings)": (len(data_text.encode()) - thumb_text) / max(1, len(data["cards"])),
    }


def photographic_strips_mb(strip_width: int, per_source: int = 12) -> float:
    """The base64 bytes (MB) of two strips per image sequence of the full release, each as large as
    the page's thumbnail of a 5-frame strip of random crops of a photograph in its source's geometry."""
    import matplotlib
    from PIL import Image

    photo = Image.open(Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg").convert("RGB")
    rng, total = random.Random(0), 0.0
    for source, size in TEMPVS_FRAME_SIZES.items():
        made = 0
        for _ in range(per_source):
            frames = []
            for _ in range(5):
                width = rng.randint(200, photo.width)
                height = min(photo.height, round(width * size[1] / size[0]))
                x, y = rng.randint(0, photo.width - width), rng.randint(0, photo.height - height)
                frames.append(photo.crop((x, y, x + width, y + height)).resize(size, Image.Resampling.LANCZOS))
            strip = io.BytesIO()
            combined_strip(source, frames, [f"Image {i}" for i in range(1, 6)]).save(strip, format="JPEG", quality=95)  # as the release's combined/ files
            made += len(base64.b64encode(thumbnail("data:image/jpeg;base64," + base64.b64encode(strip.getvalue()).decode("ascii"), strip_width)[0]))
        total += 2 * TEMPVS_SEQUENCES[source] * made / per_source
    return total / 1e6


def browse(run_dir: Path, page: Path, env: dict[str, str], strip_width: int, tasks: str) -> tuple[float, float, list[tuple[str, float]]]:
    """The wall time (s) and the peak resident memory (MB) of one ``temporal-bench browse`` process, and the seconds
    of each step it said on standard error (the first: from the start, the interpreter and the imports)."""
    command = [BIN / "temporal-bench", "browse", run_dir, "--output", page, "--strip-width", str(strip_width)]
    command += ["--tasks", tasks] if tasks else []
    finished = run(command, env).checked()
    said = [("start", 0.0)] + [(line.split(":")[1].split()[0], at) for at, line in finished.stderr if line.startswith("temporal-bench browse:")]
    return finished.wall_s, finished.peak_mb, [(step, (said[i + 1][1] if i + 1 < len(said) else finished.wall_s) - at) for i, (step, at) in enumerate(said)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default="tempvs")
    parser.add_argument("--run", type=Path, help="a run folder of an earlier call: browse it, run nothing")
    parser.add_argument("--browse-tasks", default="", help="browse's --tasks (default: every task of the run)")
    parser.add_argument("--strip-width", type=int, default=WIDTHS["strip"], help="browse's --strip-width (default: browse's)")
    parser.add_argument("--repeat", type=int, default=3, help="browse this many times (default: 3)")
    parser.add_argument("--photo-strips", type=int, default=12, help="photographic strips cut per source for the estimate (default: 12)")
    add_data_options(parser)
    args = parser.parse_args(argv)
    env = data_env(args.workdir, ["tempvs"], args.fraction)
    run_dir = args.run
    if run_dir is None:
        run_dir = args.workdir / "runs" / f"browse_{args.tasks.replace(',', '_')}"
        start = time.perf_counter()
        random_run(args.tasks, env, run_dir)
        print(f"lmms-eval --tasks {args.tasks} --model random_choice --log_samples: {time.perf_counter() - start:.0f} s")
    shown = f" --tasks {args.browse_tasks}" if args.browse_tasks else ""
    page = run_dir / f"browse_strip{args.strip_width}{shown.replace(' --tasks ', '_').replace(',', '_')}.html"
    times, peaks, steps = zip(*(browse(run_dir, page, env, args.strip_width, args.browse_tasks) for _ in range(args.repeat)))
    print(f"\n`temporal-bench browse {run_dir} --strip-width {args.strip_width}{shown}`: {', '.join(f'{t:.1f}' for t in times)} s (median {statistics.median(times):.1f} s), peak RSS {max(peaks):,.0f} MB")
    for each in steps:
        print("  steps: " + ", ".join(f"{step} {seconds:.1f} s" for step, seconds in each))
    print(f"  load average after: {os.getloadavg()[0]:.1f} (2 cores)\n")
    parts = page_parts(page)
    per_strip = photographic_strips_mb(args.strip_width, args.photo_strips) / (2 * sum(TEMPVS_SEQUENCES.values()))  # a page of some tasks: the mean
    parts["estimate with photographic strips MB"] = parts["page MB"] - parts["thumbnails MB (base64)"] + parts["embedded images"] * per_strip
    for name, value in parts.items():
        print(f"| {name} | {value:,.1f} |" if isinstance(value, float) else f"| {name} | {value:,} |")


if __name__ == "__main__":
    main()
