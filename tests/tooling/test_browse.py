"""``temporal-bench browse`` (temporal_bench/browse/) on real CLI runs with a scripted model whose
answers cycle right, wrong, invalid over the docs: the page has one card per logged sample, each
card's verdict is the script's, the counts agree with the run's metrics and with what the report reads of its samples
(temporal_bench/runs/records.py ``task_records``, ``task_data``), the images are the files the samples name
(lmms-eval's ``input_media``) in the order the model saw them, the joins (TempVS GT_strict, CaT-Bench TC/OCC) point
at the right cards, an image that cannot be read (or that a sample does not name) is a named and counted placeholder,
a failed request is never shown as an answer (nor counted invalid: one definition with ``check``), a superseded run is
left out and named, each image is made once, every value is escaped, the headline metrics are the report's, and
headless Chromium (Debian's ``chromium``) applies a filter from
the URL."""

import base64
import gc
import io
import json
import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from temporal_bench import benchmarks
from temporal_bench.browse import thumbnails
from temporal_bench.browse.cli import main_browse, write_page
from temporal_bench.browse.page import NO_ANSWER
from temporal_bench.catbench.breakdowns import breakdown_metrics as catbench_breakdowns
from temporal_bench.isobench.breakdowns import breakdown_metrics as isobench_breakdowns
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.results import load_runs, with_breakdowns
from temporal_bench.tempvs.fixture_predictions import write_model_predictions
from temporal_bench.tempvs.released_predictions import main_score_predictions
from tests.harness import read_samples
from tests.recorded.browse import FAILED_TEMPVS, FAILURE, LMMS_TASKS, OUTCOMES, TEMPVS, docs_as_run
from tests.recorded.check import N_DOCS
from tests.tempvs_fixture_copies import write_tempvs

LOGGED_IMAGES = 4  # lmms-eval logs at most four image files of a doc
CHROMIUM = shutil.which("chromium")


# ---- the run --------------------------------------------------------------------------------------


def results_of(out: Path):
    """The run's results, each task's entry with its breakdown keys computed from its logged samples as
    ``temporal-bench report`` computes them (temporal_bench/runs/results.py)."""
    [run] = find_runs(out)
    return {**run.data, "results": {task: with_breakdowns(run, task, entry) for task, entry in run.data["results"].items()}}


@pytest.fixture(scope="module")
def cycling(recorded):
    """The recorded lmms-eval run of the four tasks (tests/recorded/browse.py)."""
    return recorded("browse_cycling")


@pytest.fixture(scope="module")
def data(cycling):
    return cycling.env


@pytest.fixture(scope="module")
def docs(cycling):
    """Each task's docs in doc_id order, as the run sees them."""
    return docs_as_run(cycling)


def expected_statuses(docs, task):
    return Counter(OUTCOMES[i % 3] for i in range(len(docs[task])))


@pytest.fixture(scope="module")
def lmms_run(cycling, docs):
    """The run's folder and results, its ISO-Bench images written again where its samples name them (``docs``)."""
    return cycling.out, results_of(cycling.out)


@pytest.fixture(scope="module")
def page(lmms_run, docs):
    out, _ = lmms_run
    path, notes = write_page(out)  # the images: the files the samples name, no data folder given
    # one full run: nothing partial, no task in two results files, no failed request; the separate frames of each
    # question beyond the four lmms-eval logs are said to be missing from the page
    capped = sum(len(doc["frames"]) >= LOGGED_IMAGES for doc in docs["tempvs_mt3_event_separate"])
    assert capped and notes == [f"tempvs_mt3_event_separate: {capped} card(s) show the first 4 images of their question, all that lmms-eval logs of a doc: the model may have seen more"]
    return path


# ---- reading the page -----------------------------------------------------------------------------


class PageParser(HTMLParser):
    """The page's card data, its per-task counts table, its count of images not found and its code texts (the files
    named in its header)."""

    def __init__(self):
        super().__init__()
        self.data_text, self.rows, self.missing, self.codes = "", [], None, []
        self._in_data = self._in_row = self._in_code = False
        self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("id") == "browse-data":
            self._in_data = True
        elif tag == "code":
            self._in_code = True
            self.codes.append("")
        elif tag == "p" and attrs.get("id") == "missing-count":
            self.missing = int(attrs["data-missing"])
        elif tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_data = False
        elif tag == "code":
            self._in_code = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, text):
        if self._in_data:
            self.data_text += text
        elif self._in_code:
            self.codes[-1] += text
        elif self._cell is not None and not self._cell:
            self._cell = text  # a cell's first text: the task name, or a count


def read_page(path: Path):
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    data = json.loads(parser.data_text)
    strings, names = data["strings"], {short: name for name, short in data["keys"].items()}
    cards = [{names[key]: value for key, value in card.items()} for card in data["cards"]]
    cards = [{**card, **{key: strings[card[key]] for key in ("task", "source", "relation", "distance", "gold", "parsed")}} for card in cards]
    table = {row[0]: dict(zip(("cards", "right", "wrong", "invalid"), map(int, row[1:5]))) for row in parser.rows if row}
    return cards, table, parser.missing, data


def logged_lines(out: Path, task: str) -> int:
    [samples] = out.rglob(f"*_samples_{task}.jsonl")
    return sum(1 for line in samples.read_text(encoding="utf-8").splitlines() if line.strip())


def metric(results, task, name, filter_name="none"):
    return results["results"][task][f"{name},{filter_name}"]


def thumb_colour(data, thumb):
    """The mean colour of a page's thumbnail."""
    with Image.open(io.BytesIO(base64.b64decode(data["thumbs"][thumb]))) as image:
        return ImageStat.Stat(image.convert("RGB")).mean


def file_colour(path):
    with Image.open(path) as image:
        return ImageStat.Stat(image.convert("RGB")).mean


# ---- the tests ------------------------------------------------------------------------------------


def test_one_card_per_logged_sample_with_the_scripts_verdicts_and_the_metrics_counts(lmms_run, page, docs):
    """The results file's headline metrics (TempVS MT, GT) and, for what the tasks no longer report themselves (invalid
    answers, CaT-Bench accuracy, ISO-Bench coverage), what the report computes from the same samples."""
    out, results = lmms_run
    [run] = find_runs(out)
    cards, table, missing, data = read_page(page)
    assert missing == 0
    by_task = {task: [c for c in cards if c["task"] == task] for task in LMMS_TASKS}
    for task in LMMS_TASKS:
        assert len(by_task[task]) == logged_lines(out, task) == len(docs[task]), task
        statuses = Counter(card["status"] for card in by_task[task])
        assert statuses == expected_statuses(docs, task), task
        assert table[task] == {"cards": len(by_task[task]), **{s: statuses[s] for s in OUTCOMES}}, task
        read = run.data_read(task)
        assert (read.questions, read.failed) == (len(by_task[task]), 0) and statuses["invalid"] == read.invalid, task
    assert len({card["id"] for card in cards}) == len(cards)
    for task in TEMPVS:  # TempVS: MT and GT give the right cards
        mains = [c for c in by_task[task] if "main question" in data["strings"][c["facts"]]]
        grounding = [c for c in by_task[task] if c not in mains]
        assert len(mains) == sum(d["kind"] == "main" for d in docs[task]) and len(grounding) == sum(d["kind"] == "grounding" for d in docs[task])
        assert sum(c["status"] == "right" for c in mains) == round(metric(results, task, "mt_acc") * len(mains))
        assert sum(c["status"] == "right" for c in grounding) == round(metric(results, task, "gt_acc") * len(grounding))
    catbench = by_task["catbench_switched"]
    real = [c for c in catbench if c["question"].startswith("real|")]
    computed = catbench_breakdowns("catbench_switched", run.records("catbench_switched"))
    assert computed["tc"] == metric(results, "catbench_switched", "tc")  # the records read back are the ones the task scored
    assert sum(c["status"] == "invalid" for c in catbench) == computed["invalid_count"]
    assert sum(c["status"] == "right" for c in real) == round(computed["accuracy"] * len(real))
    iso = by_task["isobench"]
    answered = [c for c in iso if c["status"] != "invalid"]
    computed = isobench_breakdowns("isobench", run.records("isobench"))
    assert computed["paper_f1_weighted"] == metric(results, "isobench", "paper_f1_weighted")
    assert len(answered) == round(computed["coverage"] * len(iso))
    assert sum(c["status"] == "right" for c in answered) == round(computed["accuracy"] * len(answered))


def test_cards_show_the_images_in_order_the_prompt_and_the_answers(page, docs):
    """Each thumbnail is the image the doc showed in that place (the synthetic frames are flat colours, each its own)."""
    cards, _, _, data = read_page(page)
    strings = data["strings"]
    by_question = {(c["task"], c["question"]): c for c in cards}
    for task in ("tempvs_mt1_two", "tempvs_mt3_event_separate", "isobench"):
        for doc in docs[task][:20]:
            card = by_question[task, doc.get("doc_key", doc.get("id"))]
            shown = card["images"]
            assert all(image[0] in data["thumbs"] for image in shown), card["id"]
            if task == "tempvs_mt3_event_separate":  # one thumbnail per frame, in the doc's order (the first four: lmms-eval logs no more)
                files = doc["frames"][:LOGGED_IMAGES]
                assert [strings[image[3]] for image in shown] == [f"image {i} of the {len(files)} the run logged" for i in range(1, len(files) + 1)]
            else:
                files = [doc["image"] if task != "isobench" else doc["image_path"]]
                assert len(shown) == 1
            assert [thumb_colour(data, image[0]) == pytest.approx(file_colour(path), abs=8) for image, path in zip(shown, files)] == [True] * len(files), card["id"]
            assert "\n".join(strings[i] for i in card["prompt"]) == doc.get("prompt", "\n".join(strings[i] for i in card["prompt"]))
    # a sequence's strip is stored once for all its questions (main and grounding)
    strips = Counter(image[0] for c in cards if c["task"] == "tempvs_mt1_two" for image in c["images"])
    sequences = {(d["source"], d["img_seq_id"]) for d in docs["tempvs_mt1_two"]}
    assert len(strips) == len(sequences)
    wrong = next(c for c in cards if c["task"] == "catbench_switched" and c["status"] == "wrong")
    assert wrong["parsed"] != wrong["gold"] and strings[wrong["response"][0]].lower() == wrong["parsed"]
    invalid = next(c for c in cards if c["task"] == "isobench" and c["status"] == "invalid")
    assert strings[invalid["response"][0]] == "I cannot tell." and invalid["parsed"] == 'none ("invalid")'


def test_joins_tempvs_gt_strict_and_catbench_tc(page, docs):
    cards, _, _, data = read_page(page)
    strings = data["strings"]
    by_id = {c["id"]: c for c in cards}
    mains = [c for c in cards if c["task"] == "tempvs_mt1_two" and "main question" in strings[c["facts"]]]
    for card in mains:
        [join] = card["joins"]
        partners = [by_id[link[1]] for link in join[2]]
        assert partners and all(p["task"] == card["task"] and "grounding" in strings[p["facts"]] for p in partners)
        assert join[1] == int(all(p["status"] == "right" for p in partners)), card["id"]
    assert {c["joins"][0][1] for c in mains} == {0, 1}
    real = [c for c in cards if c["task"] == "catbench_switched" and c["question"].startswith("real|")]
    for card in real:
        tc = next(j for j in card["joins"] if strings[j[0]].startswith("TC"))
        twin = by_id[tc[2][0][1]]
        assert twin["question"].split("|")[:4] == card["question"].split("|")[:4] and twin["relation"] != card["relation"]
        assert tc[1] == int(card["status"] != "invalid" and card["parsed"] == twin["parsed"])


def test_an_unreadable_image_is_a_named_counted_placeholder(lmms_run, data, tmp_path):
    out, _ = lmms_run
    strip = min((Path(data["TEMPVS_DATA_DIR"]) / "pororo" / "combined").iterdir())  # a strip the tempvs_mt1_two questions show
    kept = strip.read_bytes()
    try:
        strip.write_bytes(b"not a jpeg")  # corrupted since the run
        path, notes = write_page(out, tmp_path / "page.html")
    finally:
        strip.write_bytes(kept)
    cards, _, missing, data_ = read_page(path)
    assert missing == 1
    note = notes[-1]  # what browse prints
    assert note.startswith(f"1 image(s) could not be found (their cards show a grey placeholder; the page lists them all): {strip}; the first because: cannot be read (")
    placeholders = [(c, image) for c in cards for image in c.get("images", []) if image[0] is None]
    assert {data_["strings"][image[1]] for _, image in placeholders} == {str(strip)} and {c["task"] for c, _ in placeholders} == {"tempvs_mt1_two"}
    showing = [line["doc_id"] for line in read_samples(out, "tempvs_mt1_two") if line["input_media"] == [str(strip)]]
    assert len(placeholders) == len(showing) > 1  # one image, counted once, named on every card that shows it
    assert data_["strings"][placeholders[0][1][2]].startswith("cannot be read (")


def test_images_moved_since_the_run_still_give_every_card(lmms_run, data, tmp_path, capsys):
    """The image files the samples name are gone (the data folder moved): every card is there, each image a named
    placeholder, counted once per file. (Replaces the ``--data`` option's test: browse reads no data folder.)"""
    out, _ = lmms_run
    folder = Path(data["TEMPVS_DATA_DIR"])
    folder.rename(tmp_path / "moved")
    try:
        assert main_browse([str(out), "--output", str(tmp_path / "page.html")]) == 0
    finally:
        (tmp_path / "moved").rename(folder)
    *notes, summary, path = capsys.readouterr().out.splitlines()
    assert path == str(tmp_path / "page.html") and len(notes) == 1  # the note on the separate frames
    cards, table, missing, data_ = read_page(tmp_path / "page.html")
    assert len(cards) == sum(row["cards"] for row in table.values()) == sum(logged_lines(out, t) for t in LMMS_TASKS)
    files = list(dict.fromkeys(path for task in TEMPVS for line in read_samples(out, task) for path in line["input_media"]))
    assert (
        summary
        == f"note: {len(files)} image(s) could not be found (their cards show a grey placeholder; the page lists them all): {', '.join(files[:3])} and {len(files) - 3} more; the first because: cannot be read (FileNotFoundError: [Errno 2] No such file or directory: {files[0]!r})"
    )
    tempvs = [c for c in cards if c["task"] in TEMPVS]
    assert all(c["images"] and all(image[0] is None for image in c["images"]) for c in tempvs)
    assert {data_["strings"][image[1]] for c in tempvs for image in c["images"]} == set(files) and missing == len(files)
    assert all(image[0] is not None for c in cards if c["task"] == "isobench" for image in c["images"])


def test_a_question_whose_sample_names_no_image_gets_a_named_placeholder(lmms_run, tmp_path):
    """lmms-eval logs the image files a doc names, not an image it holds decoded (the upstream ISO-Bench task's
    ``image`` column): such a question's card names what is missing instead of showing no image."""
    out, _ = lmms_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("hf_datasets_cache", "*.html"))
    [samples] = copy.rglob("*_samples_isobench.jsonl")
    lines = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    samples.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "input_media"}) + "\n" for line in lines), encoding="utf-8")
    path, notes = write_page(copy, tmp_path / "page.html", wanted=["isobench"])
    cards, _, missing, data_ = read_page(path)
    assert len(cards) == len(lines) == missing and all(len(c["images"]) == 1 and c["images"][0][0] is None for c in cards)
    assert sorted(data_["strings"][c["images"][0][1]] for c in cards) == sorted(f"the image(s) of isobench doc {line['doc_id']}" for line in lines)
    assert notes == [
        f"{len(lines)} image(s) could not be found (their cards show a grey placeholder; the page lists them all): the image(s) of isobench doc 0, the image(s) of isobench doc 1, the image(s) of isobench doc 2 and {len(lines) - 3} more; the first because: its logged sample names no image file: lmms-eval logs (as input_media) the image files or URIs a doc names, not an image the doc holds decoded (a dataset's image column)"
    ]


def test_a_release_s_scored_outputs_say_why_they_show_no_image(tmp_path):
    """The TempVS release's model outputs, scored by ``score-predictions``, log no image file: each card of a model that
    saw images names the question's missing images and why; the text-only (blind) models' cards show none."""
    release = write_tempvs(tmp_path / "tempvs")
    write_model_predictions(release, "InternVL2_5-78B-MPO", "combined")
    for input_kind in ("combined", "blind"):
        main_score_predictions([str(release), "--input", input_kind, "--output-dir", str(tmp_path / input_kind)])  # its report's status: no verdict on synthetic data
    path, notes = write_page(tmp_path / "combined", tmp_path / "combined.html")
    cards, _, missing, data_ = read_page(path)
    [results] = (tmp_path / "combined").rglob("*_results.json")
    assert cards and missing == len(cards) and all(len(c["images"]) == 1 and c["images"][0][0] is None for c in cards)
    assert {data_["strings"][c["images"][0][2]] for c in cards} == {f"{results} holds a release's scored outputs, whose samples name no image files"}
    assert notes[-1].startswith(f"{len(cards)} image(s) could not be found")
    cards, _, missing, _ = read_page(write_page(tmp_path / "blind", tmp_path / "blind.html")[0])
    assert cards and missing == 0 and not any(c.get("images") for c in cards)


def test_a_failed_request_is_never_shown_as_an_answer(recorded, capsys):
    """lmms-eval's failure text, which CaT-Bench's parser reads as "no": its card says the request failed and shows
    no answer, the page counts it apart, and a twin's join does not call it an answer (every fourth request failed:
    tests/recorded/browse.py)."""
    out = recorded("browse_failed_requests").out
    [run] = find_runs(out)
    records = run.records("catbench_switched")
    failed = [i for i, record in enumerate(records) if record["failed"]]
    assert failed == list(range(0, len(records), 4)) and run.data_read("catbench_switched").failed == len(failed)
    assert {records[i]["pred"] for i in failed} == {"no"}  # what the metrics scored: the parser read the failure text
    assert main_browse([str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    cards, table, _, data_ = read_page(out / "browse.html")
    strings = data_["strings"]
    assert table["catbench_switched"] == {"cards": len(records), "right": len(records) - len(failed), "wrong": 0, "invalid": 0}
    assert f"<td class='n-request_failed'>{len(failed)}</td>" in (out / "browse.html").read_text(encoding="utf-8")  # counted apart
    shown_failed = [c for c in cards if c["status"] == "request_failed"]
    assert len(shown_failed) == len(failed) and {c["parsed"] for c in shown_failed} == {NO_ANSWER}
    assert all(strings[c["response"][0]] == FAILURE for c in shown_failed)  # the logged text, under "Raw response"
    by_id = {c["id"]: c for c in cards}
    links = [(strings[link[0]], by_id[link[1]]) for c in cards for join in c.get("joins", []) for link in join[2]]
    assert {label for label, linked in links if linked["status"] == "request_failed"} == {"request failed \u26a0"}
    assert all(label.startswith("answered ") for label, linked in links if linked["status"] != "request_failed")
    assert printed[0] == (
        f"note: catbench_switched: {len(failed)} of {len(records)} request(s) failed or brought no response: their cards say so and show no answer; "
        "the task's metrics scored those texts as its parser read them, so they are not the model's scores (docs/backends.md)"
    )


def _shown(card):
    """What a card shows, without the ids that depend on the page's other cards."""
    return (card["task"], card["question"], card["status"], card["gold"], card["parsed"], len(card.get("images", [])), tuple(join[1] for join in card.get("joins", [])), tuple(len(join[2]) for join in card.get("joins", [])))


def test_tasks_limits_the_page_to_the_tasks_named(lmms_run, page, tmp_path, capsys):
    out, _ = lmms_run
    argv = [str(out), "--output", str(tmp_path / "page.html"), "--tasks", "isobench,tempvs_mt1_two"]
    assert main_browse(argv) == 0
    assert gc.isenabled()  # browse collects no garbage while it writes the page, and then again
    printed = capsys.readouterr()
    assert printed.out.strip() == str(tmp_path / "page.html")
    cards, table, missing, data_ = read_page(tmp_path / "page.html")
    assert list(table) == ["isobench", "tempvs_mt1_two"] and missing == 0  # in the run's order
    assert printed.err.splitlines() == [  # each step said on standard error
        f"temporal-bench browse: reading 1 run(s) under {out}: their samples, and their values as the report reads them ...",
        "temporal-bench browse: building the cards ...",
        f"temporal-bench browse: making the thumbnails of the {len(data_['thumbs'])} image file(s) the cards show ...",
        f"temporal-bench browse: writing {tmp_path / 'page.html'} ...",
    ]
    assert len(cards) == logged_lines(out, "tempvs_mt1_two") + logged_lines(out, "isobench")
    full = read_page(page)[0]
    assert sorted(map(_shown, cards)) == sorted(_shown(c) for c in full if c["task"] in ("tempvs_mt1_two", "isobench"))
    assert set(data_["thumbs"]) == {image[0] for c in cards for image in c["images"]}  # only their images


def test_invalid_is_counted_as_check_counts_it_failed_requests_apart(recorded):
    """TempVS's parser reads a failure text as no answer (UNK) or as an answer: those questions are failed requests, not
    invalid (nor wrong) answers,
    on every part of the page (the cards, the table, the filter) as for ``check`` (temporal_bench/runs/data_read.py);
    the page shows no other invalid figure (the tasks' ``invalid_rate`` breakdown)."""
    out = recorded("browse_failed_tempvs").out
    [run] = find_runs(out)
    failed = [record for record in run.records(FAILED_TEMPVS) if record["failed"]]
    assert sum(record["pred"] == "UNK" for record in failed) > 0  # what the parser read (a grounding one: "5", of "after 5 retries")
    read = run.data_read(FAILED_TEMPVS)
    path, _ = write_page(out)
    cards, table, _, _ = read_page(path)
    statuses = Counter(card["status"] for card in cards)
    assert table[FAILED_TEMPVS]["invalid"] == statuses["invalid"] == read.invalid == 0
    assert statuses["request_failed"] == read.failed == len(failed) and statuses["right"] == len(cards) - len(failed)
    html = path.read_text(encoding="utf-8")
    assert f"<td class='n-request_failed'>{len(failed)}</td>" in html and "<option value='invalid'>invalid only (0)</option>" in html
    assert "invalid <b>" not in html and "<b>invalid</b>" not in html  # no headline invalid rate, nor its legend


def test_a_superseded_run_is_left_out_and_named(recorded, capsys):
    """check's superseded run (tests/recorded/check.py: every request of a run failed, the same command again answered):
    the page shows the re-run's cards, as the report shows its values, and names the run left out; given by name, the
    older file is shown."""
    out = recorded("catbench_superseded").out
    older, newer = sorted(out.glob("*_results.json"))  # named by their dates
    assert main_browse([str(out)]) == 0
    note = f"{older}: catbench: superseded by a newer run of the same model on the same data (the report shows that one); browse this file to see it"
    assert capsys.readouterr().out.splitlines() == [f"note: {note}", str(out / "browse.html")]
    cards, table, _, _ = read_page(out / "browse.html")
    assert table == {"catbench": {"cards": N_DOCS, "right": table["catbench"]["right"], "wrong": N_DOCS - table["catbench"]["right"], "invalid": 0}}
    assert len(cards) == N_DOCS and not any(card["status"] == "request_failed" for card in cards)  # the re-run's answers
    html = (out / "browse.html").read_text(encoding="utf-8")
    assert f"<div class='warn' id='superseded'><b>Runs a newer run of the same model supersedes (not shown)</b><ul><li>{note}</li></ul></div>" in html
    assert f"<li><code>{newer}</code> (lmms-eval)</li>" in html and f"<code>{older}</code>" not in html
    cards, *_ = read_page(write_page(older, out / "older.html")[0])
    assert len(cards) == N_DOCS and {card["status"] for card in cards} == {"request_failed"}


def test_the_headline_metrics_are_the_report_s(lmms_run, page):
    """Each task's headline metrics are the values the report reads of the run (its results, and the breakdowns computed
    once from its samples: temporal_bench/runs/results.py), ``undefined`` where it holds none."""
    out, _ = lmms_run
    [run] = load_runs([out])
    html = page.read_text(encoding="utf-8")
    for task in LMMS_TASKS:
        row = re.search(rf"<tr><td><b>{task}</b>.*?</tr>", html).group(0)
        shown = dict(re.findall(r"<span class='metric' title='[^']*'>([^<]*) <b>([^<]*)</b>", row))
        recorded_ = {key.partition(",")[0] for key in run.results[task]}
        values = {short: run.metric(task, metric) for metric, short, _ in benchmarks.of_task(task).cards.headline if metric in recorded_}
        assert shown == {short: "undefined" if value is None else f"{100 * value:.1f}%" for short, value in values.items()} and len(shown) >= 3, task


def test_each_image_is_made_once(lmms_run, monkeypatch, tmp_path):
    """However many cards show an image, its thumbnail is made once (the page's images are made together, in parallel)."""
    out, _ = lmms_run
    made, real = [], thumbnails.thumbnail
    monkeypatch.setattr(thumbnails, "thumbnail", lambda source, width: made.append((source, width)) or real(source, width))
    cards, _, _, data_ = read_page(write_page(out, tmp_path / "page.html")[0])
    assert made and set(Counter(made).values()) == {1} and len(made) == len(data_["thumbs"]) < sum(len(card.get("images", [])) for card in cards)


def test_every_value_is_escaped(recorded, tmp_path):
    """What the page writes comes from the run (its path, notes, prompts, responses): the template escapes every value
    (jinja2's autoescape) and the cards' data cannot end its script element."""
    copy = tmp_path / "run <b>&'"
    shutil.copytree(recorded("browse_failed_tempvs").out, copy)
    [samples] = copy.rglob("*_samples_*.jsonl")
    lines = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    lines[1]["input"] += "\n</script><b>bold</b> & 'quoted'"
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    path, _ = write_page(copy, tmp_path / "page.html")
    html = path.read_text(encoding="utf-8")
    assert "<b>bold</b>" not in html and "run <b>" not in html and html.count("</script>") == 2  # the page's two scripts
    cards, _, _, data_ = read_page(path)
    assert sum(data_["strings"][card["prompt"][-1]] == "</script><b>bold</b> & 'quoted'" for card in cards) == 1
    parser = PageParser()
    parser.feed(html)
    assert parser.codes == [str(next(copy.glob("*_results.json")))]  # the Run list names the results file


def test_data_is_no_option_the_images_are_the_samples_files(lmms_run, data, capsys):
    """Browse rebuilds no task: the images are the files the samples name, so a data folder is not asked for."""
    out, _ = lmms_run
    with pytest.raises(SystemExit) as exit_:
        main_browse([str(out), "--data", f"TEMPVS_DATA_DIR={data['TEMPVS_DATA_DIR']}"])
    assert exit_.value.code == 2 and "unrecognized arguments: --data" in capsys.readouterr().err


def test_tasks_names_the_known_tasks_for_an_unknown_one(lmms_run, capsys):
    out, _ = lmms_run
    with pytest.raises(SystemExit) as exit_:
        main_browse([str(out), "--tasks", "isobench", "--tasks", "tempvs_mt1_too"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "temporal-bench browse: error: --tasks: no run has task(s) tempvs_mt1_too (the runs have: catbench_switched, isobench, tempvs_mt1_two, tempvs_mt3_event_separate) (see temporal-bench browse --help)"
    )


def test_an_lm_eval_catbench_run_gets_its_prompts_and_twins(recorded):
    out = recorded("browse_catbench_lm_eval").out
    results = results_of(out)
    cards, table, missing, data_ = read_page(write_page(out)[0])
    assert len(cards) == results["n-samples"]["catbench_switched"]["effective"] and missing == 0
    assert table["catbench_switched"]["invalid"] == metric(results, "catbench_switched", "invalid_count")
    assert all("Goal:" in "\n".join(data_["strings"][i] for i in c["prompt"]) for c in cards)
    assert all(any(data_["strings"][j[0]].startswith("TC") for j in c["joins"]) for c in cards if c["question"].startswith("real|"))


# ---- in a real browser ----------------------------------------------------------------------------


def chromium(url: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}", *args, url]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (Debian: apt-get install chromium); .ci/run installs it")
def test_chromium_applies_a_filter_from_the_url_and_takes_a_screenshot(page, docs, tmp_path):
    url = page.resolve().as_uri() + "#status=wrong&task=catbench_switched"
    dom = chromium(url, tmp_path / "profile-dom", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-3000:]
    wrong = expected_statuses(docs, "catbench_switched")["wrong"]
    assert 0 < wrong < 200  # one page of cards
    assert dom.stdout.count('<article class="card s-wrong"') == wrong
    assert dom.stdout.count("<article") == wrong
    assert f'data-matching="{wrong}"' in dom.stdout
    assert f"{wrong} of {len(read_page(page)[0])} cards match: 0 right, {wrong} wrong, 0 invalid" in dom.stdout
    shot = tmp_path / "page.png"
    taken = chromium(url, tmp_path / "profile-shot", f"--screenshot={shot}", "--window-size=1280,1400", "--hide-scrollbars")
    assert taken.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", taken.stderr[-3000:]
    assert shot.stat().st_size > 20_000  # a drawn page, not a blank one
