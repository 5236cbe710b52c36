"""Time ``mamma-mia enroll DIR`` on a folder of photos and count what it
enrolled and refused.

    python -m tools.synth enroll-photos --style hard --seed 2101 --out /tmp/hard-photos
    python -m tools.bench.enroll_bench /tmp/hard-photos

Runs the command itself, in a child process, as a player would: its wall
time and its computer time (user and system CPU seconds of the command and of
everything it starts, Tesseract included), and each picture's outcome as the
command reports it (ok, failed, skipped). When the folder has the
``truth.json`` of ``tools.synth enroll-photos`` and the command wrote
``enrolled/``, each enrolled face is also compared with where its card
really lies (:mod:`tools.bench.enroll_cuts`): cut along the card's outer
edge, inside it, out over the table, the wrong way up, or too far off to tell.
Results go to ``tools/bench/results/enroll-<folder>.json``.
"""
from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_OUTCOME = re.compile(r"^\s+(ok|failed|skipped)\s+(\S+)\s+(.+?): (.*)$")


def enroll_command(folder: Path) -> list[str]:
    """``mamma-mia enroll FOLDER`` with this interpreter's installation."""
    script = Path(sys.executable).with_name("mamma-mia")
    if script.exists():
        return [str(script), "enroll", str(folder)]
    return [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())", "enroll",
            str(folder)]


def run_enroll(folder: Path) -> dict:
    """Run the command; its times, exit code and each picture's outcome."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(enroll_command(folder), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # a picture that passed its own checks may still be refused for not fitting the deck's
    # other faces: its last line is its outcome
    last = {m[3]: {"status": m[1], "card": m[2], "image": m[3], "note": m[4]}
            for m in map(_OUTCOME.match, done.stderr.splitlines()) if m}
    outcomes = list(last.values())
    return {"exit_code": done.returncode, "wall_seconds": wall,
            "cpu_seconds": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "outcomes": outcomes, "counts": dict(Counter(o["status"] for o in outcomes))}


def enroll_with_retakes(folder: Path, retakes: int) -> dict:
    """``mamma-mia enroll FOLDER``, and while it refuses pictures (at most
    ``retakes`` times) those cards photographed again and the command run
    again: the last run's outcome, with the times of every run added up and
    what each run refused."""
    from tools.synth.enroll_photos import retake_photos

    runs = [run_enroll(folder)]
    while runs[-1]["exit_code"] == 1 and len(runs) <= retakes:
        refused = [o["image"] for o in runs[-1]["outcomes"] if o["status"] == "failed"]
        if not refused:
            break
        retake_photos(folder, refused, len(runs))
        runs.append(run_enroll(folder))
    last = dict(runs[-1])
    last["cpu_seconds"] = sum(r["cpu_seconds"] for r in runs)
    last["wall_seconds"] = sum(r["wall_seconds"] for r in runs)
    last["runs"] = [{"refused": [f"{o['card']} ({o['note']})" for o in r["outcomes"] if o["status"] == "failed"],
                     "cpu_seconds": r["cpu_seconds"]} for r in runs]
    return last


def check_cuts(folder: Path) -> dict | None:
    from tools.bench.enroll_cuts import measure_cuts

    if not (folder / "truth.json").is_file() or not (folder / "enrolled" / "manifest.json").is_file():
        return None
    cuts = measure_cuts(folder)
    return {"verdicts": dict(Counter(c.verdict for c in cuts)), "faces": [c.as_json() for c in cuts]}


def print_report(result: dict) -> None:
    counts = result["enroll"]["counts"]
    print(f"mamma-mia enroll {result['folder']}: exit code {result['enroll']['exit_code']}")
    print(f"  pictures: {sum(counts.values())}; enrolled {counts.get('ok', 0)}, refused {counts.get('failed', 0)}, "
          f"skipped {counts.get('skipped', 0)}")
    for outcome in result["enroll"]["outcomes"]:
        if outcome["status"] != "ok":
            print(f"    {outcome['status']} {outcome['card']} {outcome['image']}: {outcome['note']}")
    for number, run in enumerate(result["enroll"].get("runs", [])[:-1], start=1):
        print(f"  run {number} refused {len(run['refused'])}, taken again: {'; '.join(run['refused'])}")
    print(f"  computer time {result['enroll']['cpu_seconds']:.1f} s (CPU, Tesseract included), "
          f"wall time {result['enroll']['wall_seconds']:.1f} s")
    cuts = result.get("cuts")
    if cuts:
        print(f"  enrolled faces against the true corners: {cuts['verdicts']}")
        for face in cuts["faces"]:
            if face["verdict"] == "off":
                print(f"    off       {face['notation']:<12} cut too far from the card to align")
            elif face["verdict"] != "good":
                print(f"    {face['verdict']:<9} {face['notation']:<12} corner {face['corner_error']:.1%} of the "
                      f"width off, area {face['area']:.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="folder with manifest.json and the photos")
    parser.add_argument("--out", type=Path, default=None,
                        help="result JSON (default tools/bench/results/enroll-FOLDER.json)")
    parser.add_argument("--retakes", type=int, default=0,
                        help="take refused photos again up to this many times, as a player would (a folder "
                             "of tools.synth enroll-photos only; default 0)")
    args = parser.parse_args(argv)
    result = {"folder": str(args.folder), "enroll": enroll_with_retakes(args.folder, args.retakes)}
    result["cuts"] = check_cuts(args.folder) if result["enroll"]["exit_code"] == 0 else None
    out = args.out or ROOT / "tools" / "bench" / "results" / f"enroll-{args.folder.resolve().name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print_report(result)
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
