// temporal-bench browse: draws the cards that match the filters, a page at a time. Plain
// JavaScript, no network. The filters live in the URL hash (#status=wrong&task=tempvs_mt1_two),
// so a filtered view can be bookmarked or opened directly.
(function () {
  "use strict";
  var PAGE = 200;
  var STATUS = { right: "\u2713 right", wrong: "\u2717 wrong", invalid: "? invalid", request_failed: "\u26a0 request failed" };
  var data = JSON.parse(document.getElementById("browse-data").textContent);
  var S = data.strings;
  var K = data.keys;  // a card's field -> its short name in the data
  var cards = data.cards;
  var byId = {};
  cards.forEach(function (card) { byId[card[K.id]] = card; });
  var anyFailed = cards.some(function (card) { return card[K.status] === "request_failed"; });
  var controls = Array.prototype.slice.call(document.querySelectorAll("[data-filter]"));
  var main = document.getElementById("cards");
  var shown = document.getElementById("shown-count");
  var more = document.getElementById("more-cards");
  var matching = [];
  var drawn = 0;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function labelled(label, node) {
    var box = el("div");
    box.appendChild(el("div", "label", label));
    box.appendChild(node);
    return box;
  }

  function texts(indices) {
    return indices.map(function (i) { return S[i]; }).join("\n");
  }

  function figure(image) {
    var fig = el("figure");
    if (image[0] === null) {
      fig.className = "missing";
      var box = el("div", "placeholder", "image not found");
      box.appendChild(el("code", "", S[image[1]]));
      fig.appendChild(box);
      var why = el("figcaption", "", S[image[3]] || S[image[2]]);
      why.title = S[image[2]];
      fig.appendChild(why);
      return fig;
    }
    var img = el("img");
    img.src = "data:" + data.mime + ";base64," + data.thumbs[image[0]];
    img.width = image[1];
    img.height = image[2];
    img.alt = S[image[3]];
    img.loading = "lazy";
    fig.appendChild(img);
    fig.appendChild(el("figcaption", "", S[image[3]]));
    return fig;
  }

  function join(entry) {
    var box = el("div", "join " + (entry[1] === 1 ? "j-ok" : entry[1] === 0 ? "j-bad" : "j-none"));
    box.appendChild(el("span", "join-title", S[entry[0]]));
    entry[2].forEach(function (link) {
      var chip;
      if (link[1]) {
        chip = el("a", "chip s-" + link[2], S[link[0]]);
        chip.href = "#" + link[1];
        chip.dataset.card = link[1];
      } else {
        chip = el("span", "chip s-missing", S[link[0]] + " (not logged)");
      }
      box.appendChild(document.createTextNode(" "));
      box.appendChild(chip);
    });
    if (S[entry[3]]) {
      box.appendChild(el("br"));
      box.appendChild(el("small", "", S[entry[3]]));
    }
    return box;
  }

  function draw(card) {
    var node = el("article", "card s-" + card[K.status]);
    node.id = card[K.id];
    node.dataset.status = card[K.status];
    var head = el("header");
    head.appendChild(el("span", "badge s-" + card[K.status], STATUS[card[K.status]]));
    head.appendChild(el("b", "task", S[card[K.task]]));
    head.appendChild(el("span", "facts", S[card[K.facts]]));
    head.appendChild(el("code", "qid", card[K.question]));
    node.appendChild(head);
    var body = el("div", "card-body");
    var left = el("div");
    if (card[K.images]) {
      var images = el("div", "images");
      card[K.images].forEach(function (image) { images.appendChild(figure(image)); });
      left.appendChild(images);
    }
    var answers = el("div", "answers");
    answers.appendChild(labelled("Gold answer", el("b", "gold", S[card[K.gold]])));
    answers.appendChild(labelled("Parsed answer", el("b", "parsed s-" + card[K.status], S[card[K.parsed]])));
    left.appendChild(answers);
    (card[K.joins] || []).forEach(function (entry) { left.appendChild(join(entry)); });
    left.appendChild(el("div", "label", "Raw response"));
    left.appendChild(el("pre", "response", texts(card[K.response]) || "(empty)"));
    if (card[K.scored]) {
      left.appendChild(el("div", "label", "After the task's filters"));
      left.appendChild(el("pre", "response", texts(card[K.scored])));
    }
    body.appendChild(left);
    var prompt = el("details", "prompt");
    prompt.open = true;
    prompt.appendChild(el("summary", "", "Prompt"));
    var scroller = el("div", "scroller");  // starts scrolled to the end, where the question is
    scroller.appendChild(el("pre", "", texts(card[K.prompt])));
    prompt.appendChild(scroller);
    body.appendChild(prompt);
    node.appendChild(body);
    return node;
  }

  function wanted() {
    var filters = {};
    controls.forEach(function (control) {
      if (control.value) filters[control.dataset.filter] = control.value;
    });
    return filters;
  }

  function matches(card, filters) {
    for (var name in filters) {
      var want = filters[name];
      if (name === "q") {
        var text = (texts(card[K.prompt]) + "\n" + texts(card[K.response]) + "\n" + card[K.question]).toLowerCase();
        if (text.indexOf(want.toLowerCase()) < 0) return false;
      } else if (name === "status") {
        if (want === "failed" ? card[K.status] === "right" : card[K.status] !== want) return false;
      } else if ((S[card[K[name]]] || "-") !== want) {
        return false;
      }
    }
    return true;
  }

  function drawMore() {
    var stop = Math.min(drawn + PAGE, matching.length);
    var batch = document.createDocumentFragment();
    for (; drawn < stop; drawn++) {
      var opened = document.getElementById(matching[drawn][K.id]);  // opened earlier from a link: now in its place
      if (opened) opened.remove();
      batch.appendChild(draw(matching[drawn]));
    }
    main.appendChild(batch);
    more.hidden = drawn >= matching.length;
    more.firstChild.textContent = "show " + Math.min(PAGE, matching.length - drawn) + " more of the " +
      (matching.length - drawn) + " cards left";
  }

  function apply() {
    var filters = wanted();
    var count = { right: 0, wrong: 0, invalid: 0, request_failed: 0 };
    matching = cards.filter(function (card) { return matches(card, filters); });
    matching.forEach(function (card) { count[card[K.status]] += 1; });
    shown.textContent = matching.length + " of " + cards.length + " cards match: " + count.right + " right, " +
      count.wrong + " wrong, " + count.invalid + " invalid" + (anyFailed ? ", " + count.request_failed + " request(s) failed" : "");
    shown.dataset.matching = matching.length;
    document.getElementById("no-cards").hidden = matching.length > 0;
    main.textContent = "";
    drawn = 0;
    drawMore();
    var hash = new URLSearchParams(filters).toString();
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }

  function fromHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    controls.forEach(function (control) {
      var value = params.get(control.dataset.filter) || "";
      if (control.tagName === "SELECT" && value &&
          !Array.prototype.some.call(control.options, function (o) { return o.value === value; })) {
        value = "";  // a value this run does not have
      }
      control.value = value;
    });
  }

  var typing = null;
  controls.forEach(function (control) {
    if (control.tagName === "INPUT") {
      control.addEventListener("input", function () { clearTimeout(typing); typing = setTimeout(apply, 250); });
    } else {
      control.addEventListener("change", apply);
    }
  });
  document.getElementById("f-reset").addEventListener("click", function () {
    controls.forEach(function (control) { control.value = ""; });
    apply();
  });
  document.getElementById("show-more").addEventListener("click", drawMore);

  // a joined question: go to its card, or open it right below this one when the filters hide it
  main.addEventListener("click", function (event) {
    var link = event.target.closest("a.chip");
    if (!link) return;
    event.preventDefault();
    var target = document.getElementById(link.dataset.card);
    if (!target) {
      target = draw(byId[link.dataset.card]);
      target.classList.add("opened");
      link.closest("article").after(target);
    }
    target.scrollIntoView({ block: "center" });
    target.classList.remove("flash");
    void target.offsetWidth;
    target.classList.add("flash");
  });

  var filterKeys = controls.map(function (control) { return control.dataset.filter; });
  window.addEventListener("hashchange", function () {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (filterKeys.some(function (key) { return params.has(key); })) {
      fromHash();
      apply();
    }
  });
  fromHash();
  apply();
})();
