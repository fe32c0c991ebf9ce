"""``temporal-bench browse`` (temporal_bench/browse/) on real CLI runs with a scripted model whose
answers cycle right, wrong, invalid over the docs: the page has one card per logged sample, each
card's verdict is the script's, the counts agree with the run's metrics, the joins (TempVS
GT_strict, CaT-Bench TC/OCC) point at the right cards, a missing image is a named and counted
placeholder, and headless Chromium (Debian's ``chromium``) applies a filter from the URL."""

import json
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from temporal_bench.browse.cli import main_browse, write_page
from temporal_bench.catbench.fixtures import write_fixture as write_catbench
from temporal_bench.data_locations import data_locations
from temporal_bench.isobench.breakdowns import breakdown_metrics
from temporal_bench.isobench.fixtures import write_fixture as write_isobench
from temporal_bench.lmms_eval_tasks.catbench.questions import with_switched_twins
from temporal_bench.runs.records import doc_record
from temporal_bench.tempvs.fixtures import write_fixture as write_tempvs
from tests.harness import lm_eval, lmms_eval, read_samples
from tests.task_docs import catbench_split as load_split
from tests.task_docs import isobench_records as load_records
from tests.task_docs import task_docs

TEMPVS = ["tempvs_mt1_two", "tempvs_mt3_event_separate"]
LMMS_TASKS = [*TEMPVS, "catbench_switched", "isobench"]
OUTCOMES = ("right", "wrong", "invalid")  # doc i gets OUTCOMES[i % 3]
CHROMIUM = shutil.which("chromium")


# ---- the run --------------------------------------------------------------------------------------


def tempvs_answer(doc, outcome):
    wrong = next(c for c in doc["choices"] if c != doc["answer"])
    answer = {"right": doc["answer"], "wrong": wrong}.get(outcome)
    if answer is None:
        return "I cannot tell."
    return answer if doc["kind"] == "main" else f"Image {answer}"


def yes_no_answer(doc, outcome):
    gold = doc["answer"].lower()
    return {"right": gold, "wrong": "no" if gold == "yes" else "yes"}.get(outcome, "I cannot tell.").capitalize()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("browse_data")
    return {"TEMPVS_DATA_DIR": str(write_tempvs(root / "tempvs")), "CATBENCH_DATA_DIR": str(write_catbench(root / "catbench")), "ISOBENCH_DATA_DIR": str(write_isobench(root / "isobench", "hf"))}


@pytest.fixture(scope="module")
def docs(data):
    """Each task's docs in doc_id order, as the run sees them."""
    found = {task: task_docs(task, data["TEMPVS_DATA_DIR"]) for task in TEMPVS}
    found["catbench_switched"] = with_switched_twins(load_split("test", data_dir=data["CATBENCH_DATA_DIR"]))
    found["isobench"] = load_records(data["ISOBENCH_DATA_DIR"])
    return found


def expected_statuses(docs, task):
    return Counter(OUTCOMES[i % 3] for i in range(len(docs[task])))


@pytest.fixture(scope="module")
def script(docs, tmp_path_factory):
    entries = {}
    for task, docs_of_task in docs.items():
        answer = tempvs_answer if task in TEMPVS else yes_no_answer
        entries.update({f"{task}/{i}": answer(doc, OUTCOMES[i % 3]) for i, doc in enumerate(docs_of_task)})
    path = tmp_path_factory.mktemp("browse_script") / "script.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def lmms_run(data, script, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browse_lmms")
    results = lmms_eval(tmp, LMMS_TASKS, model_args=f"policy=script,script={script}", env=data)
    return tmp / "lmms_eval_out", results


@pytest.fixture(scope="module")
def page(lmms_run, data):
    out, _ = lmms_run
    with data_locations(data):
        path, notes = write_page(out)
    assert notes == []  # one full run: nothing partial, no task in two results files
    return path


# ---- reading the page -----------------------------------------------------------------------------


class PageParser(HTMLParser):
    """The page's card data, its per-task counts table and its count of images not found."""

    def __init__(self):
        super().__init__()
        self.data_text, self.rows, self.missing = "", [], None
        self._in_data = self._in_row = False
        self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("id") == "browse-data":
            self._in_data = True
        elif tag == "p" and attrs.get("id") == "missing-count":
            self.missing = int(attrs["data-missing"])
        elif tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_data = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, text):
        if self._in_data:
            self.data_text += text
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


# ---- the tests ------------------------------------------------------------------------------------


def test_one_card_per_logged_sample_with_the_scripts_verdicts_and_the_metrics_counts(lmms_run, page, docs):
    out, results = lmms_run
    cards, table, missing, data = read_page(page)
    assert missing == 0
    by_task = {task: [c for c in cards if c["task"] == task] for task in LMMS_TASKS}
    for task in LMMS_TASKS:
        assert len(by_task[task]) == logged_lines(out, task) == len(docs[task]), task
        statuses = Counter(card["status"] for card in by_task[task])
        assert statuses == expected_statuses(docs, task), task
        assert table[task] == {"cards": len(by_task[task]), **{s: statuses[s] for s in OUTCOMES}}, task
    assert len({card["id"] for card in cards}) == len(cards)
    for task in TEMPVS:  # TempVS: MT, GT and the invalid rate give the right and invalid cards
        mains = [c for c in by_task[task] if "main question" in data["strings"][c["facts"]]]
        grounding = [c for c in by_task[task] if c not in mains]
        assert len(mains) == sum(d["kind"] == "main" for d in docs[task]) and len(grounding) == sum(d["kind"] == "grounding" for d in docs[task])
        assert sum(c["status"] == "right" for c in mains) == round(metric(results, task, "mt_acc") * len(mains))
        assert sum(c["status"] == "right" for c in grounding) == round(metric(results, task, "gt_acc") * len(grounding))
        assert sum(c["status"] == "invalid" for c in by_task[task]) == round(metric(results, task, "invalid_rate") * len(by_task[task]))
    catbench = by_task["catbench_switched"]
    real = [c for c in catbench if c["question"].startswith("real|")]
    assert sum(c["status"] == "invalid" for c in catbench) == metric(results, "catbench_switched", "invalid_count")
    assert sum(c["status"] == "right" for c in real) == round(metric(results, "catbench_switched", "accuracy") * len(real))
    iso = by_task["isobench"]
    answered = [c for c in iso if c["status"] != "invalid"]
    assert len(answered) == round(metric(results, "isobench", "coverage") * len(iso))
    accuracy = breakdown_metrics("isobench", [doc_record(s) for s in read_samples(out, "isobench")])["accuracy"]
    assert sum(c["status"] == "right" for c in answered) == round(accuracy * len(answered))


def test_cards_show_the_images_in_order_the_prompt_and_the_answers(page, docs):
    cards, _, _, data = read_page(page)
    strings = data["strings"]
    by_question = {(c["task"], c["question"]): c for c in cards}
    for task in ("tempvs_mt1_two", "tempvs_mt3_event_separate", "isobench"):
        for doc in docs[task][:20]:
            card = by_question[task, doc.get("doc_key", doc.get("id"))]
            shown = card["images"]
            assert all(image[0] in data["thumbs"] for image in shown), card["id"]
            if task == "tempvs_mt3_event_separate":  # one thumbnail per frame, in the doc's order
                assert [strings[image[3]] for image in shown] == [f"image {i} of {len(doc['frames'])}" for i in range(1, len(doc["frames"]) + 1)]
            else:
                assert len(shown) == 1
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
    broken = Path(tmp_path / "tempvs")
    shutil.copytree(data["TEMPVS_DATA_DIR"], broken)
    strip = min((broken / "pororo" / "combined").iterdir())  # a strip the tempvs_mt1_two questions show
    strip.write_bytes(b"not a jpeg")
    with data_locations({**data, "TEMPVS_DATA_DIR": str(broken)}):
        path, notes = write_page(out, tmp_path / "page.html")
    cards, _, missing, data_ = read_page(path)
    assert missing == 1
    [note] = notes  # what browse prints
    assert note.startswith(f"1 image(s) could not be found (their cards show a grey placeholder; the page lists them all): {strip}; the first because: ") and "cannot be read" in note
    placeholders = [image for c in cards for image in c.get("images", []) if image[0] is None]
    assert placeholders and {data_["strings"][image[1]] for image in placeholders} == {str(strip)}
    assert "cannot be read" in data_["strings"][placeholders[0][2]]


def test_a_task_whose_data_cannot_be_found_still_gets_every_card(lmms_run, data, tmp_path, capsys):
    out, _ = lmms_run
    (tmp_path / "empty").mkdir()
    settings = {**data, "TEMPVS_DATA_DIR": str(tmp_path / "empty")}
    argv = [str(out), "--output", str(tmp_path / "page.html")] + [f"--data={k}={v}" for k, v in settings.items()]
    assert main_browse(argv) == 0
    summary, path = capsys.readouterr().out.splitlines()
    assert path == str(tmp_path / "page.html")
    cards, table, missing, data_ = read_page(tmp_path / "page.html")
    assert len(cards) == sum(row["cards"] for row in table.values()) == sum(logged_lines(out, t) for t in LMMS_TASKS)
    tempvs = [c for c in cards if c["task"] in TEMPVS]
    first = ", ".join(f"the images of tempvs_mt1_two doc {doc_id}" for doc_id in range(3))
    assert summary.startswith(f"note: {len(tempvs)} image(s) could not be found (their cards show a grey placeholder; the page lists them all): {first} and {len(tempvs) - 3} more; the first because: ")
    assert "no TempVS layout" in summary
    assert all(len(c["images"]) == 1 and c["images"][0][0] is None for c in tempvs)
    assert "no TempVS layout" in data_["strings"][tempvs[0]["images"][0][2]]
    assert missing == len(tempvs)  # one named placeholder per card whose doc could not be rebuilt
    assert all(image[0] is not None for c in cards if c["task"] == "isobench" for image in c["images"])


def _shown(card):
    """What a card shows, without the ids that depend on the page's other cards."""
    return (card["task"], card["question"], card["status"], card["gold"], card["parsed"], len(card.get("images", [])), tuple(join[1] for join in card.get("joins", [])), tuple(len(join[2]) for join in card.get("joins", [])))


def test_tasks_limits_the_page_to_the_tasks_named(lmms_run, page, data, tmp_path, capsys):
    out, _ = lmms_run
    argv = [str(out), "--output", str(tmp_path / "page.html"), "--tasks", "isobench,tempvs_mt1_two"] + [f"--data={k}={v}" for k, v in data.items()]
    assert main_browse(argv) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "page.html")
    cards, table, missing, data_ = read_page(tmp_path / "page.html")
    assert list(table) == ["isobench", "tempvs_mt1_two"] and missing == 0  # in the run's order
    assert len(cards) == logged_lines(out, "tempvs_mt1_two") + logged_lines(out, "isobench")
    full = read_page(page)[0]
    assert sorted(map(_shown, cards)) == sorted(_shown(c) for c in full if c["task"] in ("tempvs_mt1_two", "isobench"))
    assert set(data_["thumbs"]) == {image[0] for c in cards for image in c["images"]}  # only their images


def test_tasks_names_the_known_tasks_for_an_unknown_one(lmms_run, capsys):
    out, _ = lmms_run
    with pytest.raises(SystemExit) as exit_:
        main_browse([str(out), "--tasks", "isobench", "--tasks", "tempvs_mt1_too"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "temporal-bench browse: error: --tasks: no run has task(s) tempvs_mt1_too (the runs have: catbench_switched, isobench, tempvs_mt1_two, tempvs_mt3_event_separate) (see temporal-bench browse --help)"
    )


def test_an_lm_eval_catbench_run_gets_its_prompts_and_twins(data, script, tmp_path):
    results = lm_eval(tmp_path / "out", ["catbench_switched"], f"policy=script,script={script}", data)
    cards, table, missing, data_ = read_page(write_page(tmp_path / "out")[0])
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
