// The counter's pages in the visitor's browser (issue 25; seed 000: « les lettres tapées ne quittent pas le
// navigateur »). Typed mode (scoring/counter.html) and grid mode (scoring/grid.html) read their form, score it with
// static/js/score_rules.js and draw the result as the server draws a page's first state, in the same markup. The
// form goes to the server only by a button (a share link, "Poser sur la grille", a host page's "Inscrire"), or
// without JavaScript. Each counted move is told to the page: the document's "counter:result" event, its detail
// {score, words: [{word, score}], detail_text, tiles_used, move} or null while there is none (docs/code.md).
(() => {
  "use strict";

  const figuresScript = document.getElementById("counter-figures");
  if (!figuresScript) return;
  const figures = JSON.parse(figuresScript.textContent);
  const texts = JSON.parse(document.getElementById("counter-texts").textContent);
  const { format, plural, message } = ScoreRules;
  const MAX_WORDS = 1 + figures.notation.max_secondary_words;
  const $ = (id) => document.getElementById(id);
  const say = (error) => message(error, texts);

  const scorings = new Map();
  function scoringFor(code) {
    if (!scorings.has(code)) scorings.set(code, ScoreRules.forEdition(figures, code));
    return scorings.get(code);
  }

  const field = (form, name) => form.elements.namedItem(name);

  function node(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.append(...children);
    return element;
  }

  /** « Total : <strong id="total">22</strong> points », as the template's total_line writes it. */
  function totalLine(score) {
    const [before, after] = plural(texts.total, score, texts.locale).split("%(score)s");
    return node("p", { class: "total" }, before, node("strong", { id: "total" }, String(score)), after);
  }

  /** « Prime pour 7 jetons posés : +50 », as the template's bonus_line writes it: the tiles placed are the rack. */
  function bonusLine({ tilesPlaced, bonus }) {
    return node("p", { class: "bonus" }, format(plural(texts.bonus, tilesPlaced, texts.locale), { count: tilesPlaced, bonus }));
  }

  /** A copy of one of the page's <template>s, its placeholders (@i@, @j@…) filled in text and attributes. */
  function fromTemplate(id, values) {
    const copy = $(id).content.cloneNode(true);
    const fill = (text) => text.replace(/@(\w)@/g, (all, key) => (key in values ? String(values[key]) : all));
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let current = walker.nextNode(); current; current = walker.nextNode()) {
      if (current.nodeType === Node.TEXT_NODE) current.data = fill(current.data);
      else for (const attribute of current.attributes) attribute.value = fill(attribute.value);
    }
    return copy.firstElementChild;
  }

  // ---- The counted move, told to the page (the score sheet under the counter listens). ----

  let ready = false;
  let current = null;
  let told;
  function dispatch() {
    const key = JSON.stringify(current);
    if (key === told) return;
    told = key;
    document.dispatchEvent(new CustomEvent("counter:result", { detail: current }));
  }
  function tell(detail) {
    current = detail;
    if (ready) dispatch();
  }
  // Deferred like this one, the scripts that listen have run by then: they hear the page's first state too.
  document.addEventListener("DOMContentLoaded", () => {
    ready = true;
    dispatch();
  });

  // ---- "Vérifier les mots dans une liste de mots libre". ----

  // The verdicts by word, null for a word the server did not judge. Until the free list is kept in the browser
  // (issue 25, a step of its own), they come from the server, which draws the page with them: asked only while the
  // box is ticked and for words not judged yet, the one time besides a button that what is typed leaves the page.
  const verdicts = new Map();
  let asking = 0;

  function readVerdicts(root) {
    for (const item of root.querySelectorAll("output.calculation, #grid-result .words li")) {
      const name = item.querySelector(".word-name");
      const verdict = item.querySelector(".verdict");
      if (name && verdict) verdicts.set(name.textContent.toUpperCase(), verdict.classList.contains("in"));
    }
  }

  function askVerdicts(form, words, recount) {
    const unjudged = words.map((word) => word.toUpperCase()).filter((word) => !verdicts.has(word));
    if (!unjudged.length) return;
    clearTimeout(asking);
    asking = setTimeout(async () => {
      try {
        // The form's own address: its buttons are named "action", which `form.action` would give.
        const response = await fetch(form.getAttribute("action"), { method: "POST", body: new FormData(form) });
        readVerdicts(new DOMParser().parseFromString(await response.text(), "text/html"));
      } catch {
        return; // offline: the words stay unjudged, asked again at the next change
      }
      for (const word of unjudged) if (!verdicts.has(word)) verdicts.set(word, null);
      recount();
    }, 250);
  }

  function verdictNodes(word, check) {
    const verdict = check ? verdicts.get(word.toUpperCase()) : null;
    if (verdict === true) return [" ", node("span", { class: "verdict in" }, texts.inList)];
    if (verdict === false) return [" ", node("span", { class: "verdict out" }, texts.outOfList)];
    return [];
  }

  const wordListNote = () => node("p", { class: "note" }, texts.wordListNote);

  // ---- Typed mode: words typed tile by tile, each tile told its square. ----

  const boxesOf = (form) => [...form.querySelectorAll("fieldset.word")];

  /** A word box's tiles as the form would send them: [square, déjà posé, joker]; a disabled joker box (a letter
   * the edition lacks) is not sent. */
  function settingsOf(box) {
    return [...box.querySelectorAll("details.tile")].map((tile) => {
      const blank = tile.querySelector('input[name$="_bl"]');
      return [
        tile.querySelector("input[type=radio]:checked")?.value ?? "simple",
        tile.querySelector('input[name$="_on"]').checked,
        blank.checked && !blank.disabled,
      ];
    });
  }

  function tileNode(index, j, tile) {
    const element = fromTemplate("tile-template", { i: index, j, n: j + 1, L: tile.letter, v: tile.value });
    element.querySelector(`input[type=radio][value="${tile.square}"]`).checked = true;
    element.querySelector('input[name$="_on"]').checked = tile.on_board;
    const blank = element.querySelector('input[name$="_bl"]');
    blank.checked = tile.blank || tile.forced_blank;
    blank.disabled = tile.forced_blank;
    if (!tile.forced_blank) blank.parentElement.querySelector("small").remove();
    return element;
  }

  function drawTiles(box, index, word) {
    const tiles = box.querySelector(".tiles");
    const was = tiles.querySelector('input[name$="_was"]');
    was.value = word.text;
    tiles.replaceChildren(was, ...word.tiles.map((tile, j) => tileNode(index, j, tile)));
    if (word.error) tiles.append(node("p", { class: "error", role: "alert" }, say(word.error)));
  }

  function drawCalculation(box, scored, check) {
    const output = box.querySelector("output.calculation");
    if (!scored) return output.replaceChildren();
    output.replaceChildren(
      node("span", { class: "word-name" }, scored.word),
      ` ${scored.calculation}`,
      ...verdictNodes(scored.word, check),
    );
  }

  function drawTypedResult(result, detailText, check) {
    const section = $("result");
    if (!result) return section.replaceChildren(node("p", { class: "hint" }, texts.typedHint));
    if (result.error) return section.replaceChildren(node("p", { class: "error", role: "alert" }, say(result.error)));
    const parts = [node("p", {}, `${texts.tilesPlaced} : `, node("strong", { id: "tiles-placed" }, String(result.tilesPlaced)))];
    if (result.bonus) parts.push(bonusLine(result));
    parts.push(result.tooManyTiles ? node("p", { class: "warning", role: "alert" }, texts.tooManyTiles) : totalLine(result.score));
    if (check) parts.push(wordListNote());
    parts.push(
      node("pre", { id: "detail-text", class: "detail-text" }, detailText),
      node(
        "button",
        { type: "button", class: "copy", "data-copy": "#detail-text", "data-copied": texts.copied, "data-failed": texts.copyFailed },
        texts.copyDetail,
      ),
    );
    section.replaceChildren(...parts);
  }

  /** Count the typed words; `retyped` is the box whose text changed (its tiles are drawn again, their settings
   * following their letters), `all` redraws every box's tiles (another edition). */
  function countTyped({ retyped = null, all = false } = {}) {
    const form = $("counter-form");
    if (!form) return;
    const scoring = scoringFor(field(form, "edition").value);
    const boxes = boxesOf(form);
    const words = boxes.map((box, index) => {
      const text = box.querySelector(".word-input").value;
      if (box !== retyped && !all) return scoring.readWord(text, settingsOf(box));
      const was = box.querySelector('input[name$="_was"]').value;
      const word = scoring.readWord(text, scoring.followSettings(settingsOf(box), was, text));
      drawTiles(box, index, word);
      return word;
    });
    const result = scoring.countTyped(words);
    const counted = result && !result.error ? result : null;
    const check = field(form, "check").checked;
    boxes.forEach((box, i) => drawCalculation(box, counted?.byWord[i], check));
    const detailText = scoring.detailText(result, texts);
    drawTypedResult(result, detailText, check);
    const scored = counted ? counted.byWord.filter(Boolean) : [];
    if (check) askVerdicts(form, scored.map((word) => word.word), () => countTyped());
    tell(
      counted && !counted.tooManyTiles
        ? {
          score: counted.score,
          words: scored.map((word) => ({ word: word.word, score: word.score })),
          detail_text: detailText,
          tiles_used: scoring.newTiles(words),
          move: null,
        }
        : null,
    );
  }

  function wordBox(form, index, text = "", settings = []) {
    const box = fromTemplate("word-template", { i: index });
    const input = box.querySelector(".word-input");
    input.removeAttribute("autofocus");
    input.value = text;
    if (text) drawTiles(box, index, scoringFor(field(form, "edition").value).readWord(text, settings));
    return box;
  }

  function wordsChanged(form) {
    const count = boxesOf(form).length;
    field(form, "words").value = String(count);
    form.querySelector("button[name=action][value=add]").hidden = count >= MAX_WORDS;
    countTyped();
  }

  function addWord(form) {
    const boxes = boxesOf(form);
    if (boxes.length >= MAX_WORDS) return;
    const box = wordBox(form, boxes.length);
    boxes.at(-1).after(box);
    box.querySelector(".word-input").focus();
    wordsChanged(form);
  }

  /** Remove secondary word `index`: the boxes after it are drawn again one place up, their names with them. */
  function removeWord(form, index) {
    const boxes = boxesOf(form);
    if (!(index > 0 && index < boxes.length)) return;
    const after = boxes.slice(index + 1).map((box) => [box.querySelector(".word-input").value, settingsOf(box)]);
    boxes.slice(index).forEach((box) => box.remove());
    let last = boxes[index - 1];
    after.forEach(([text, settings], k) => {
      const box = wordBox(form, index + k, text, settings);
      last.after(box);
      last = box;
    });
    (boxesOf(form)[index] ?? boxes[index - 1]).querySelector(".word-input").focus();
    wordsChanged(form);
  }

  document.addEventListener("input", (event) => {
    if (event.target.matches("#counter-form .word-input")) countTyped({ retyped: event.target.closest("fieldset.word") });
  });
  document.addEventListener("change", (event) => {
    if (event.target.closest("#counter-form") && event.target.type !== "text") {
      countTyped({ all: event.target.name === "edition" });
    }
  });
  // Another edition, another word list: its verdicts are asked afresh.
  document.addEventListener(
    "change",
    (event) => {
      if (event.target.matches("#counter-form [name=edition], #grid-form [name=edition]")) verdicts.clear();
    },
    true,
  );
  // "Ajouter un mot secondaire" and "×" are done here; Enter in a word box sends nothing. The other buttons (a share
  // link, the host page's) go on to htmx, which posts the form.
  document.addEventListener(
    "submit",
    (event) => {
      if (event.target.id !== "counter-form") return;
      const action = event.submitter?.name === "action" ? event.submitter.value : "";
      if (action && action !== "add" && !action.startsWith("remove-")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (action === "add") addWord(event.target);
      else if (action) removeWord(event.target, Number(action.slice("remove-".length)));
    },
    true,
  );
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches?.("#counter-form .word-input")) event.preventDefault();
  });

  // ---- Grid mode: the letters typed from a start square fill the free squares of the board kept. ----

  const keptBoards = new Map();
  function keptBoard(scoring, code, moves) {
    const key = JSON.stringify([code, moves]);
    if (!keptBoards.has(key)) keptBoards.set(key, scoring.replay(moves).board);
    return keptBoards.get(key);
  }

  function drawBoard(scoring, board, move, horizontal) {
    const element = $("board");
    element.dataset.start = move.start === null ? "" : scoring.squareName(move.start);
    element.dataset.direction = horizontal ? "h" : "v";
    for (const cell of element.querySelectorAll(".cell[data-square]")) {
      const name = cell.dataset.square;
      const index = scoring.squareIndex(name);
      const onBoard = board.cells[index];
      const laid = move.placements.get(index);
      const tile = onBoard ?? laid;
      cell.classList.toggle("placed", Boolean(onBoard));
      cell.classList.toggle("new", Boolean(laid));
      cell.classList.toggle("start", index === move.start);
      if (laid) cell.dataset.blank = `${name}${laid.letter}`;
      else delete cell.dataset.blank;
      cell.setAttribute("aria-label", tile ? `${name} ${tile.letter}${tile.blank ? ` ${texts.joker}` : ""}` : name);
      drawFace(cell, tile, index === figures.board.center);
    }
  }

  /** A square's face: its tile, the centre's star, or nothing; left alone when it shows that already, so that a
   * touch whose press redrew the board (the letters' box losing the focus) still lands on its square. */
  function drawFace(cell, tile, center) {
    const face = cell.firstElementChild;
    const wanted = tile ? [tile.blank ? "t blank" : "t", tile.letter] : center ? ["", "★"] : null;
    if (!wanted ? !face : face && face.className === wanted[0] && face.textContent === wanted[1]) return;
    if (!wanted) return cell.replaceChildren();
    cell.replaceChildren(tile ? node("span", { class: wanted[0] }, tile.letter) : node("span", { "aria-hidden": "true" }, "★"));
  }

  function drawMove(move, check) {
    const place = $("grid-move");
    if (move.error) return place.replaceChildren(node("p", { class: "error", role: "alert" }, say(move.error)));
    const { play } = move;
    if (!play) {
      return place.replaceChildren(node("p", { class: "hint" }, move.start === null ? texts.gridHint : texts.gridLettersHint));
    }
    const words = play.words.map((word) =>
      node("li", {}, node("span", { class: "word-name" }, word.word), ` ${word.calculation}`, ...verdictNodes(word.word, check)),
    );
    const parts = [node("p", { class: "notation" }, play.notation), node("ol", { class: "words" }, ...words)];
    if (check) parts.push(wordListNote());
    parts.push(node("p", {}, `${texts.tilesPlaced} : `, node("strong", { id: "tiles-placed" }, String(play.tilesPlaced))));
    if (play.bonus) parts.push(bonusLine(play));
    parts.push(totalLine(play.score));
    place.replaceChildren(...parts);
  }

  /** "Jetons encore à venir": the set less the board's tiles and those played off it. The board only changes by a
   * button, which redraws the page with its warnings; here the edition (on an empty board) and the players do. */
  function drawTracking(scoring, board, data, form) {
    const tracking = scoring.track([...board.cells.filter(Boolean), ...data.off_board_tiles]);
    // The store's racks, else the visitor's choice: the page's list always has one selected.
    const players = data.players ?? Number(field(form, "players").value);
    const unseen = $("unseen");
    document.querySelectorAll(".tracking .remaining").forEach((span) => span.remove());
    unseen.parentElement.before(
      ...Object.entries(tracking.remaining).map(([letter, count]) =>
        node("span", { class: count ? "remaining" : "remaining none" }, node("b", {}, letter), ` ${count}`),
      ),
    );
    unseen.textContent = format(plural(texts.unseen, tracking.unseen, texts.locale), { unseen: tracking.unseen });
    $("bag").textContent = String(tracking.inBag(players));
  }

  /** Count the move typed on the grid; `byVisitor` when he changed something, which puts away the last button's
   * message. The joker marks the move no longer uses leave the form (emptied letters drop them all). */
  function countGrid({ byVisitor = true } = {}) {
    const form = $("grid-form");
    if (!form) return;
    const data = JSON.parse($("grid-app").dataset.board);
    const code = field(form, "edition").value;
    const scoring = scoringFor(code);
    const board = keptBoard(scoring, code, data.moves);
    const horizontal = !form.querySelector("input[name=direction][value=v]").checked;
    const fields = { start: field(form, "start").value, horizontal, letters: field(form, "letters").value };
    const move = scoring.pending(board, { ...fields, blanks: field(form, "blanks").value });
    field(form, "blanks").value = move.blankMarks;
    // The last button's message (the move's own lines are in #grid-move).
    if (byVisitor) document.querySelectorAll("#grid-result > .message, #grid-result > .error").forEach((line) => line.remove());
    const check = field(form, "check").checked;
    drawBoard(scoring, board, move, horizontal);
    drawMove(move, check);
    drawTracking(scoring, board, data, form);
    const { play } = move;
    if (check && play) askVerdicts(form, play.words.map((word) => word.word), () => countGrid({ byVisitor: false }));
    tell(
      play
        ? {
          score: play.score,
          words: play.words.map((word) => ({ word: word.word, score: word.score })),
          detail_text: scoring.detailText(
            { byWord: play.words, tilesPlaced: play.tilesPlaced, bonus: play.bonus, tooManyTiles: false, score: play.score },
            texts,
          ),
          tiles_used: play.placed.map(([, tile]) => (tile.blank ? figures.notation.blank : tile.letter)),
          move: play.notation,
        }
        : null,
    );
  }

  document.addEventListener("input", (event) => {
    if (event.target.closest?.("#grid-form")) countGrid();
  });
  document.addEventListener("change", (event) => {
    if (event.target.closest?.("#grid-form") || event.target.id === "players") countGrid();
  });

  // ---- The page's first state, and the one a button's answer brings. ----

  function countPage(byVisitor) {
    readVerdicts(document);
    countTyped();
    countGrid({ byVisitor });
  }
  document.addEventListener("htmx:afterSettle", () => countPage(false));
  countPage(false);
})();
