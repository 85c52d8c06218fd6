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

  // ---- "Vérifier les mots dans une liste de mots libre": the edition's list, downloaded once and kept. ----

  // The address of each edition's list, which carries its version (scoring/browser.py's word_lists). The first tick
  // downloads it; the browser keeps it in Cache Storage under that address, one cache an edition, and checks each
  // word here (static/js/word_list.js): the one file that transits, and nothing typed is sent (seed 000).
  const listAddresses = JSON.parse($("word-lists").textContent);
  const CACHE_PREFIX = "clubsite-word-list-";
  // By edition: {state: "loading", percent (null while unknown)}, {state: "ready", list} or {state: "failed"}.
  const lists = new Map();

  /** The response's body, the download's percentage told as it arrives. */
  async function readAll(response, progress) {
    const total = Number(response.headers.get("Content-Length")) || 0;
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      chunks.push(chunk.value);
      received += chunk.value.length;
      if (total) progress(Math.min(100, Math.floor((received * 100) / total)));
    }
    return new Blob(chunks);
  }

  const gunzipped = (blob) => new Response(blob.stream().pipeThrough(new DecompressionStream("gzip"))).text();

  /** The edition's list from the browser's cache, else from the server (then kept, in place of any other version
   * of it); the page is counted again once it is there, or once it failed. */
  async function downloadList(code) {
    const address = new URL(listAddresses[code], location.href).href;
    const loading = (percent) => {
      lists.set(code, { state: "loading", percent });
      drawListStatus();
    };
    loading(null);
    try {
      const cache = globalThis.caches ? await caches.open(CACHE_PREFIX + code) : null;
      const kept = await cache?.match(address);
      let blob;
      if (kept) blob = await kept.blob();
      else {
        const response = await fetch(address);
        if (!response.ok) throw new Error(`${address}: ${response.status}`);
        blob = await readAll(response, loading);
      }
      const list = WordList.fromText(await gunzipped(blob), figures.word_list);
      if (cache && !kept) {
        await cache.put(address, new Response(blob, { headers: { "Content-Type": "application/gzip" } }));
        for (const request of await cache.keys()) if (request.url !== address) await cache.delete(request);
      }
      lists.set(code, { state: "ready", list });
    } catch {
      lists.set(code, { state: "failed" }); // offline before the first download: the next tick tries again
    }
    recount();
  }

  /** The list words are checked against: the edition's, once in the browser, while the box is ticked; null
   * otherwise. The first call for an edition downloads its list. */
  function listFor(code, check) {
    if (!check || !Object.hasOwn(listAddresses, code)) return null;
    if (!lists.has(code)) downloadList(code);
    const entry = lists.get(code);
    return entry.state === "ready" ? entry.list : null;
  }

  /** Beside the box: the download's progress, the list's size once it is there, or why there is none. */
  function drawListStatus() {
    const status = $("word-list-status");
    if (!status) return;
    const form = status.closest("form");
    const code = field(form, "edition").value;
    const check = field(form, "check").checked;
    const entry = lists.get(code);
    let text = "";
    if (check && !Object.hasOwn(listAddresses, code)) text = texts.noWordList;
    else if (check && entry?.state === "ready") {
      const count = new Intl.NumberFormat(texts.locale).format(entry.list.size);
      text = format(plural(texts.wordListReady, entry.list.size, texts.locale), { count });
    } else if (check && entry?.state === "failed") text = texts.wordListFailed;
    else if (check && entry) {
      text = entry.percent === null ? texts.wordListLoading : format(texts.wordListProgress, { percent: entry.percent });
    }
    status.textContent = text;
    status.classList.toggle("error", text === texts.wordListFailed);
  }

  // The box ticked again after a failed download tries again.
  document.addEventListener("change", (event) => {
    if (!event.target.matches("#counter-form [name=check], #grid-form [name=check]") || !event.target.checked) return;
    const code = field(event.target.form, "edition").value;
    if (lists.get(code)?.state === "failed") lists.delete(code);
  }, true);

  function verdictNodes(word, list) {
    if (!list) return [];
    const listed = list.hasWord(word);
    return [" ", node("span", { class: listed ? "verdict in" : "verdict out" }, listed ? texts.inList : texts.outOfList)];
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

  function drawCalculation(box, scored, list) {
    const output = box.querySelector("output.calculation");
    if (!scored) return output.replaceChildren();
    output.replaceChildren(
      node("span", { class: "word-name" }, scored.word),
      ` ${scored.calculation}`,
      ...verdictNodes(scored, list),
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
    const list = listFor(field(form, "edition").value, check);
    boxes.forEach((box, i) => drawCalculation(box, counted?.byWord[i], list));
    const detailText = scoring.detailText(result, texts);
    drawTypedResult(result, detailText, check);
    drawListStatus();
    const scored = counted ? counted.byWord.filter(Boolean) : [];
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

  function drawMove(move, check, list) {
    const place = $("grid-move");
    if (move.error) return place.replaceChildren(node("p", { class: "error", role: "alert" }, say(move.error)));
    const { play } = move;
    if (!play) {
      return place.replaceChildren(node("p", { class: "hint" }, move.start === null ? texts.gridHint : texts.gridLettersHint));
    }
    const words = play.words.map((word) =>
      node("li", {}, node("span", { class: "word-name" }, word.word), ` ${word.calculation}`, ...verdictNodes(word, list)),
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
    drawMove(move, check, listFor(code, check));
    drawListStatus();
    drawTracking(scoring, board, data, form);
    const { play } = move;
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

  function recount() {
    countTyped();
    countGrid({ byVisitor: false });
  }
  document.addEventListener("htmx:afterSettle", recount);
  recount();
})();
