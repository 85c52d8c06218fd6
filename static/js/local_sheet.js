// The score sheet kept in this browser (seeds 000 and 003), for visitors and members alike, on its own page and
// under the counter. Every game lives in localStorage and nothing leaves the browser: the one request this script
// makes is a member's "Enregistrer dans mon compte". The rules are static/js/sheet_rules.js's (the engine's, held to
// it by tests/sheets/test_sheet_rules_js.py), their figures the page's config (the admin's rule sets and editions,
// the engine's notation), the French the template's. A duplicate game's table and timer are
// static/js/duplicate_sheet.js's; this script keeps the games and draws the rest.
(() => {
  "use strict";

  const root = document.getElementById("local-sheet");
  if (!root) return;
  const config = JSON.parse(document.getElementById("local-sheet-config").textContent);
  const text = document.getElementById("local-texts").dataset;
  const limits = config.limits;
  const { notation } = config;
  const { RuleError, allowsPlayers, passLimitReached, passRun, sharedPlaces, endOfGame } = SheetRules;
  const { rackValue, rackLetters, checkRacks, strip } = SheetRules;
  const saveUrl = root.dataset.saveUrl || "";
  const csrfToken = root.dataset.csrf || "";
  const belowCounter = root.hasAttribute("data-below-counter");
  const lang = document.documentElement.lang || "fr";
  const STORAGE_KEY = "clubsite.local-sheet.v1";
  const EDITABLE_KINDS = ["play", "penalty"];
  const rulesByCode = Object.fromEntries(config.rules.map((rules) => [rules.code, rules]));
  const editionsByCode = Object.fromEntries(config.editions.map((edition) => [edition.code, edition]));

  const $ = (id) => document.getElementById(id);

  /** A sentence of the template with its %(name)s and %(name)d placeholders filled and %% a %, as Python's % does. */
  function format(template, values = {}) {
    return template.replace(/%\((\w+)\)[sd]|%%/g, (match, key) => (match === "%%" ? "%" : String(values[key])));
  }

  /** The page's sentence `name` for `count` points: French takes the singular for 0 and 1 (its `name`One). */
  const forCount = (name, count) => text[Math.abs(count) < 2 && text[`${name}One`] ? `${name}One` : name];

  /** A refusal (static/js/sheet_rules.js's RuleError) as the page writes it. */
  const sentence = (error) => format(text[error.sentence], error.values);

  // ---- A game and its sheet, as sheets/sheet.py computes a member's. ----

  const isDuplicate = (game) => game.type === "duplicate";
  const rulesOf = (game) => rulesByCode[game.rules];

  function displayName(game, seat) {
    return game.players[seat] || format(text.player, { number: seat + 1 });
  }

  function buildSheet(game) {
    const rules = rulesOf(game);
    const totals = game.players.map(() => 0);
    let nextTurn = 0;
    const rows = game.lines.map((line, index) => {
      totals[line.player] += line.points;
      if (config.turn_kinds.includes(line.kind)) nextTurn = (line.player + 1) % game.players.length;
      return { number: index + 1, line, cumulative: totals[line.player] };
    });
    let results = null;
    if (game.finished) {
      const edition = editionsByCode[game.edition];
      const values = game.racks.map((rack) => (strip(rack) ? rackValue(rack, edition, notation) : null));
      results = endOfGame(totals, values, rules.end_of_game)
        .map((final, seat) => ({ seat, ...final }))
        .sort((a, b) => a.place - b.place);
    }
    return {
      rules,
      rows,
      totals,
      turn: game.finished ? null : nextTurn,
      passLimitReached: passLimitReached(rules, passRun(game.lines, config.turn_kinds), game.players.length),
      results,
    };
  }

  /** The final ranking as text, for "Copier le classement" (sheets/sheet.py's results_text). */
  function resultsText(game, results) {
    return results
      .map((r) => `${r.place}. ${displayName(game, r.seat)} : ${r.final} (${r.before} ${r.adjustment >= 0 ? "+" : ""}${r.adjustment})`)
      .join("\n");
  }

  /** Each player's total in seat order during the game; once it is over, the final scores, best first. */
  function standings(game) {
    if (isDuplicate(game)) return duplicate.standings(game);
    const sheet = buildSheet(game);
    if (sheet.results) return sheet.results.map((r) => ({ seat: r.seat, total: r.final, place: r.place }));
    const places = sharedPlaces(sheet.totals);
    return sheet.totals.map((total, seat) => ({ seat, total, place: places[seat] }));
  }

  /** Best first, for a game's summary (as the member's history shows his games). */
  const bestFirst = (game) => standings(game).sort((a, b) => a.place - b.place);

  // ---- The games in localStorage: newest first, the last `limits.games` kept. ----

  let storageWorks = true;
  let store = load();

  function load() {
    try {
      const data = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
      if (data && Array.isArray(data.games)) return data;
    } catch (error) {
      storageWorks = !(error instanceof DOMException);
    }
    return { current: null, games: [] };
  }

  function persist() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(store));
      storageWorks = true;
    } catch {
      storageWorks = false;
    }
  }

  // A game whose rule set or edition the admin has since removed stays stored, but cannot be shown.
  const shown = (game) => Boolean(rulesByCode[game.rules] && editionsByCode[game.edition]);
  const currentGame = () => store.games.find((game) => game.id === store.current && shown(game)) || null;
  const gameById = (id) => store.games.find((game) => game.id === id) || null;
  const now = () => new Date().toISOString();

  /** Every change goes through here: the game is marked changed, kept, and the page drawn again. */
  function change(game, mutate) {
    for (const field of ["points", "penalty-points", "challenge-words"]) fieldError(field, "");
    mutate(game);
    game.updated = now();
    persist();
    render();
  }

  function newGame(type, players, editionCode, chosenRules) {
    const chosen = rulesByCode[chosenRules];
    const classic = type !== "duplicate";
    const switched = classic && !allowsPlayers(chosen, players.length) && Boolean(rulesByCode[chosen.fallback_code]);
    const game = {
      id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      type: classic ? "classic" : "duplicate",
      started: now(),
      updated: now(),
      edition: editionCode,
      rules: switched ? chosen.fallback_code : chosen.code,
      switchedFrom: switched ? chosen.code : null,
      players: players.map((name) => strip(name).slice(0, limits.name)),
      lines: [],
      racks: null,
      finished: null,
      saved: null,
    };
    if (!classic) Object.assign(game, duplicate.fresh(game.players.length));
    store.games.unshift(game);
    store.games = store.games.slice(0, limits.games);
    store.current = game.id;
    persist();
    showFinish(false);
    render();
    if (classic) {
      toast(format(text.started, { name: displayName(game, 0) }));
      $("points").focus();
    } else {
      toast(text.startedDuplicate);
      duplicate.focusFirstCell();
    }
  }

  // ---- Drawing the page. ----

  function clone(id) {
    return $(id).content.firstElementChild.cloneNode(true);
  }

  function formatDate(iso, withTime = false) {
    const options = withTime ? { dateStyle: "long", timeStyle: "short" } : { dateStyle: "long" };
    return new Date(iso).toLocaleString(lang, options);
  }

  let toastTimer = null;
  let undoToast = null;

  /** A short message at the foot of the screen; with `undo`, an "Annuler" beside it that calls it. */
  function toast(message, { error = false, undo = null } = {}) {
    const node = $("toast");
    node.textContent = message;
    node.classList.toggle("error", error);
    node.hidden = false;
    undoToast = undo;
    $("toast-undo").hidden = !undo;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      node.hidden = true;
      $("toast-undo").hidden = true;
      undoToast = null;
    }, undo ? 10000 : 4000);
  }

  $("toast-undo").addEventListener("click", () => {
    const undo = undoToast;
    undoToast = null;
    $("toast-undo").hidden = true;
    if (undo) undo();
  });

  function fieldError(id, message) {
    const node = $(`${id}-error`);
    node.textContent = message || "";
    node.hidden = !message;
    $(id).setAttribute("aria-invalid", message ? "true" : "false");
  }

  function render() {
    const game = currentGame();
    $("storage-warning").hidden = storageWorks;
    $("game").hidden = !game || !$("new-game").hidden;
    if (!game) showNewGame(true);
    $("new-game-cancel").hidden = !game;
    if (game) renderGame(game);
    renderPrevious();
  }

  function gameMeta(game) {
    const parts = [editionsByCode[game.edition].name, rulesOf(game).name, isDuplicate(game) ? text.duplicate : ""];
    return parts.filter(Boolean).join(" · ");
  }

  function renderGame(game) {
    $("game-title").textContent = format(text.gameOf, { date: formatDate(game.started) });
    $("game-meta").textContent = [gameMeta(game), game.finished ? text.finished : ""].filter(Boolean).join(" · ");
    const switchedFrom = rulesByCode[game.switchedFrom];
    $("switched-note").hidden = !switchedFrom;
    if (switchedFrom) $("switched-note").textContent = switchedNote(switchedFrom, game.players.length);

    const classic = !isDuplicate(game);
    for (const id of ["entry", "pass-limit", "finish", "results", "classic-lines", "finish-open"]) {
      if (!classic) $(id).hidden = true;
    }
    $("duplicate").hidden = classic;
    if (classic) renderClassic(game);
    else {
      renderScoreboard(game, duplicate.standings(game), null);
      duplicate.render(game, counted);
    }

    const remove = deleteControl(game);
    remove.querySelector('[data-action="ask-delete"]').textContent = text.deleteGame;
    root.querySelector('.confirm-slot[data-game="current"]').replaceChildren(remove);
    $("current-save").replaceChildren(...(saveable(game) ? [saveControl(game)] : []));
  }

  function renderScoreboard(game, seats, turn) {
    $("scoreboard").replaceChildren(...seats.map(({ seat, total, row }) => {
      const card = clone("tpl-score-card");
      card.querySelector(".name").textContent = displayName(game, seat);
      card.querySelector(".total").textContent = total;
      card.querySelector(".total").id = `local-total-${seat}`;
      card.classList.toggle("turn", seat === turn);
      card.querySelector(".turn-label").hidden = seat !== turn;
      const againstTops = card.querySelector(".against-tops");
      againstTops.hidden = !row;
      if (row) {
        againstTops.id = `local-against-tops-${seat}`;
        againstTops.textContent = duplicate.againstTops(row);
      }
      return card;
    }));
  }

  function renderClassic(game) {
    const sheet = buildSheet(game);
    renderScoreboard(game, standings(game), sheet.turn);
    $("pass-limit").hidden = !sheet.passLimitReached || Boolean(game.finished);
    $("classic-lines").hidden = false;

    const playing = !game.finished;
    $("entry").hidden = !playing || !$("finish").hidden;
    if (playing) {
      const name = displayName(game, sheet.turn);
      $("turn-title").textContent = format(text.turnTitle, { name });
      $("inscribe").textContent = format(text.inscribe, { name });
      $("points").max = sheet.rules.max_move_points;
      for (const select of document.querySelectorAll(".seat-select")) fillSeats(select, game);
      if (!$("penalty-panel").open) $("penalty-points").value = sheet.rules.penalty_offer;
      $("challenge-panel").hidden = !sheet.rules.challenge_penalty;
      $("challenge-explain").textContent = format(text.challengeExplain, { penalty: sheet.rules.challenge_penalty });
    }
    $("counted-note").hidden = !counted;
    $("counted-note").textContent = counted ? countedText(counted) : "";
    $("finish-open").hidden = !playing || !$("finish").hidden;

    $("results").hidden = !sheet.results;
    if (sheet.results) {
      $("results-body").replaceChildren(...sheet.results.map((result) => {
        const row = clone("tpl-result");
        row.querySelector(".place").textContent = result.place;
        row.querySelector(".player").textContent = displayName(game, result.seat);
        row.querySelector(".before").textContent = result.before;
        row.querySelector(".adjustment").textContent = `${result.adjustment >= 0 ? "+" : ""}${result.adjustment}`;
        row.querySelector(".final").textContent = result.final;
        return row;
      }));
      $("local-ranking-text").textContent = resultsText(game, sheet.results);
    }

    $("lines-table").hidden = !sheet.rows.length;
    $("no-lines").hidden = Boolean(sheet.rows.length);
    $("lines-body").replaceChildren(...sheet.rows.map((row) => lineRow(game, row)));
  }

  function switchedNote(chosen, count) {
    return format(text.switched, { chosen: chosen.name, count, fallback: rulesByCode[chosen.fallback_code].name });
  }

  function fillSeats(select, game) {
    const chosen = select.value;
    select.replaceChildren(...game.players.map((_name, seat) => new Option(displayName(game, seat), seat)));
    if (chosen !== "" && Number(chosen) < game.players.length) select.value = chosen;
  }

  function lineRow(game, { number, line, cumulative }) {
    const row = clone("tpl-line");
    row.className = `kind-${line.kind}`;
    row.querySelector(".number").textContent = number;
    row.querySelector(".player").textContent = displayName(game, line.player);
    const words = line.kind === "challenge" && line.words > 1 ? ` × ${line.words}` : "";
    const move = line.move ? ` · ${line.move}` : "";
    row.querySelector(".kind").textContent = config.kinds[line.kind] + words + move;
    row.querySelector(".cumulative").textContent = cumulative;
    const points = row.querySelector(".points");
    if (!game.finished && EDITABLE_KINDS.includes(line.kind)) {
      const form = clone("tpl-cell-form");
      const input = form.querySelector("input");
      input.value = line.points;
      input.setAttribute("aria-label", format(text.linePoints, { number }));
      form.dataset.index = number - 1;
      points.append(form);
    } else {
      points.textContent = line.points;
    }
    if (!game.finished) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "remove";
      remove.textContent = "×";
      remove.dataset.deleteLine = number - 1;
      remove.setAttribute("aria-label", format(text.deleteLine, { number }));
      row.querySelector(".line-actions").append(remove);
    }
    return row;
  }

  function renderPrevious() {
    const previous = store.games.filter((game) => game.id !== store.current && shown(game));
    $("previous-list").replaceChildren(...previous.map((game) => {
      const card = clone("tpl-previous");
      card.dataset.id = game.id;
      card.querySelector(".date").textContent = formatDate(game.started, true);
      const status = card.querySelector(".status");
      status.textContent = game.finished ? text.finished : text.inProgress;
      status.classList.toggle("done", Boolean(game.finished));
      card.querySelector(".players").replaceChildren(...bestFirst(game).map(({ seat, total, place }, i) => {
        const span = document.createElement(game.finished && place === 1 ? "b" : "span");
        span.textContent = `${i ? " · " : ""}${displayName(game, seat)} ${total}`;
        return span;
      }));
      card.querySelector(".meta").textContent = gameMeta(game);
      card.querySelector(".confirm-slot").replaceChildren(deleteControl(game));
      card.querySelector(".save-slot").replaceChildren(...(saveable(game) ? [saveControl(game)] : []));
      return card;
    }));
    $("no-previous").hidden = previous.length > 0;
  }

  function deleteControl(game) {
    const control = clone("tpl-delete");
    control.dataset.id = game.id;
    return control;
  }

  // The account's sheets are classic games: a duplicate game stays in the browser.
  const saveable = (game) => Boolean(saveUrl) && !isDuplicate(game);

  function saveControl(game) {
    const control = clone(game.saved ? "tpl-saved" : "tpl-save");
    control.dataset.id = game.id;
    if (game.saved) {
      control.querySelector(".saved-link").href = game.saved.url;
      control.querySelector(".stale").hidden = game.saved.at === game.updated;
    }
    return control;
  }

  function showNewGame(show) {
    $("new-game").hidden = !show;
    if (show) updateNewGameForm();
  }

  function showFinish(show) {
    $("finish").hidden = !show;
    $("finish-error").hidden = true;
  }

  /** The seats, the legend and the rules' note for the type of game chosen (its players: the page's config). */
  function updateNewGameForm() {
    const type = $("game-type").value;
    const bounds = config.players[type];
    const select = $("player-count");
    const wanted = Math.min(Math.max(Number(select.value), bounds.min), bounds.max);
    const counts = Array.from({ length: bounds.max - bounds.min + 1 }, (_none, i) => String(bounds.min + i));
    if ([...select.options].map((option) => option.value).join() !== counts.join()) {
      select.replaceChildren(...counts.map((count) => new Option(count, count)));
    }
    select.value = String(wanted);
    $("players-legend").textContent = format(text.playersLegend, bounds);
    $("game-type-note").hidden = type !== "duplicate";
    for (const field of document.querySelectorAll(".name-field")) field.hidden = Number(field.dataset.seat) >= wanted;
    const chosen = rulesByCode[$("rules").value];
    const switches = type === "classic" && !allowsPlayers(chosen, wanted) && Boolean(rulesByCode[chosen.fallback_code]);
    $("rules-note").hidden = !switches;
    $("rules-note").textContent = switches ? switchedNote(chosen, wanted) : "";
  }

  // ---- The counter above the sheet: its counted move, inscribed in one touch. ----

  let counted = null; // {score, words: [{word, score}], detail_text, tiles_used} or null
  let countedSent = false; // the counter sends "counter:result" itself: its drawn total is no longer read
  let inscribedMove = ""; // the move last put on a classic sheet, not offered again while the counter still shows it

  function countedText(move) {
    const words = move.words.map(({ word }) => word).filter(Boolean).join(" + ");
    const points = move.score;
    return words ? format(forCount("counted", points), { words, points }) : format(forCount("countedPoints", points), { points });
  }

  /** The counter's move, or none. The points box follows it, unless something else was typed there. */
  function setCounted(move) {
    const before = counted;
    const valid = move && Number.isInteger(move.score) && Array.isArray(move.words);
    if (!valid || JSON.stringify(move) !== inscribedMove) inscribedMove = "";
    counted = valid && !inscribedMove ? move : null;
    const points = $("points");
    if (points.value === "" || (before && points.value === String(before.score))) points.value = counted ? counted.score : "";
    render();
  }

  /** The counted move is on the sheet: the counter may clear it. */
  function inscribed(move) {
    document.dispatchEvent(new CustomEvent("sheet:inscribed", { detail: { score: move.score } }));
  }

  // Until the counter sends its result (issue 25), the total it draws stands for it.
  function drawnResult() {
    const total = document.querySelector("#result #total, #grid-result #total");
    if (!total) return null;
    const names = document.querySelectorAll("#counter .calculation .word-name, #grid-result .word-name");
    return { score: Number(total.textContent), words: [...names].map((name) => ({ word: name.textContent, score: null })), detail_text: "", tiles_used: null };
  }

  if (belowCounter) {
    document.addEventListener("counter:result", (event) => {
      countedSent = true;
      setCounted(event.detail);
    });
    document.addEventListener("htmx:afterSettle", () => {
      if (!countedSent) setCounted(drawnResult());
    });
  }

  // ---- What each button does. ----

  /** A whole number typed in a field; 0 for an empty box (seed 003); null for anything else. */
  function typedPoints(input) {
    const value = input.value.trim();
    if (value === "" && !input.validity.badInput) return 0;
    return /^-?[0-9]+$/.test(value) ? Number(value) : null;
  }

  /** A whole number typed in a field, or null. */
  function typedInteger(input) {
    const value = input.value.trim();
    return /^-?[0-9]+$/.test(value) ? Number(value) : null;
  }

  function refuseLine(game) {
    if (game.lines.length < limits.lines) return false;
    toast(format(text.tooManyLines, { max: limits.lines }), { error: true });
    return true;
  }

  function recordTurn(kind, points = 0, move = "") {
    const game = currentGame();
    if (refuseLine(game)) return false;
    const seat = buildSheet(game).turn;
    change(game, (g) => g.lines.push({ player: seat, kind, points, ...(move ? { move } : {}) }));
    const next = displayName(game, buildSheet(game).turn);
    const name = displayName(game, seat);
    toast(kind === "play" ? format(forCount("recorded", points), { points, name }) : format(text.turnRecorded, { kind: config.kinds[kind], name, next }));
    return true;
  }

  $("points-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const game = currentGame();
    const max = rulesOf(game).max_move_points;
    const points = typedPoints($("points"));
    if (points === null) return fieldError("points", text.pointsMissing);
    if (points < 0 || points > max) return fieldError("points", format(text.pointsRange, { max }));
    fieldError("points", "");
    const move = counted && counted.score === points ? counted : null;
    const words = move ? move.words.map(({ word }) => word).filter(Boolean).join(" + ") : "";
    if (!recordTurn("play", points, words)) return;
    $("points").value = "";
    if (move) {
      inscribedMove = JSON.stringify(move);
      counted = null;
      render();
      inscribed(move);
    }
    $("points").focus();
  });

  $("points").addEventListener("input", () => fieldError("points", ""));

  for (const button of document.querySelectorAll("#entry [data-turn]")) {
    button.addEventListener("click", () => recordTurn(button.dataset.turn));
  }

  $("penalty-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const game = currentGame();
    const points = typedInteger($("penalty-points"));
    if (points === null || points < 1 || points > limits.penalty) return fieldError("penalty-points", text.penaltyRange);
    fieldError("penalty-points", "");
    if (refuseLine(game)) return;
    const seat = Number($("penalty-player").value);
    $("penalty-panel").open = false;
    change(game, (g) => g.lines.push({ player: seat, kind: "penalty", points: -points }));
    toast(format(text.penaltyRecorded, { points, name: displayName(game, seat) }));
  });

  $("challenge-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const game = currentGame();
    const words = typedInteger($("challenge-words"));
    if (words === null || words < 1 || words > limits.challenge_words) return fieldError("challenge-words", text.wordsRange);
    fieldError("challenge-words", "");
    if (refuseLine(game)) return;
    const seat = Number($("challenger").value);
    const points = rulesOf(game).challenge_penalty * words;
    $("challenge-panel").open = false;
    $("challenge-words").value = 1;
    change(game, (g) => g.lines.push({ player: seat, kind: "challenge", points: -points, words }));
    toast(format(text.challengeRecorded, { points, name: displayName(game, seat) }));
  });

  $("undo").addEventListener("click", () => {
    const game = currentGame();
    if (!game.lines.length) return toast(text.nothingToUndo, { error: true });
    const number = game.lines.length;
    change(game, (g) => g.lines.pop());
    toast(format(text.undone, { number }));
  });

  $("lines-body").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const game = currentGame();
    const index = Number(form.dataset.index);
    const line = game.lines[index];
    const input = form.querySelector("input");
    const max = rulesOf(game).max_move_points;
    const points = line.kind === "play" ? typedPoints(input) : typedInteger(input);
    let refusal = "";
    if (line.kind === "play" && (points === null || points < 0 || points > max)) refusal = format(text.pointsRange, { max });
    if (line.kind === "penalty" && (points === null || points > -1 || points < -limits.penalty)) refusal = text.penaltyRange;
    if (refusal) {
      input.setAttribute("aria-invalid", "true");
      form.parentElement.querySelector(".error")?.remove();
      const error = document.createElement("small");
      error.className = "error";
      error.setAttribute("role", "alert");
      error.textContent = refusal;
      form.after(error);
      return;
    }
    change(game, (g) => { g.lines[index].points = points; });
    toast(format(forCount("edited", points), { number: index + 1, points }));
  });

  // × takes a line off at once, with "Annuler" to put it back: a tap never loses a line without a way back.
  $("lines-body").addEventListener("click", (event) => {
    const button = event.target.closest("[data-delete-line]");
    if (!button) return;
    const game = currentGame();
    const index = Number(button.dataset.deleteLine);
    const [line] = game.lines.slice(index, index + 1);
    change(game, (g) => g.lines.splice(index, 1));
    const number = index + 1;
    toast(format(text.deletedLine, { number }), {
      undo: () => {
        const kept = gameById(game.id);
        if (!kept || refuseLine(kept)) return;
        change(kept, (g) => g.lines.splice(index, 0, line));
        toast(format(text.restoredLine, { number }));
      },
    });
    $("toast-undo").focus();
  });

  $("finish-open").addEventListener("click", () => {
    const game = currentGame();
    const sheet = buildSheet(game);
    $("rack-fields").replaceChildren(...game.players.map((_name, seat) => {
      const field = clone("tpl-rack");
      const input = field.querySelector("input");
      input.id = `rack-${seat}`;
      input.value = game.racks ? game.racks[seat] : "";
      const label = field.querySelector("label");
      label.htmlFor = input.id;
      label.textContent = format(text.rackLabel, { name: displayName(game, seat), total: sheet.totals[seat] });
      return field;
    }));
    showFinish(true);
    render();
    $("finish").scrollIntoView({ block: "start" });
    $("rack-0").focus();
  });

  $("finish-cancel").addEventListener("click", () => {
    showFinish(false);
    render();
  });

  /** The racks as typed, or RuleError: game_finish's checks, in the same order. */
  function checkedRacks(game) {
    const edition = editionsByCode[game.edition];
    const racks = game.players.map((_name, seat) => strip($(`rack-${seat}`).value));
    racks.forEach((rack, seat) => {
      if (!rack) return;
      try {
        rackValue(rack, edition, notation);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        throw new RuleError("rackPlayer", { player: displayName(game, seat), reason: sentence(error) });
      }
    });
    if (racks.filter((rack) => !rack).length > 1) throw new RuleError("oneFinisher");
    checkRacks(racks.map((rack, seat) => [displayName(game, seat), rackLetters(rack, edition, notation)]), edition.counts);
    return racks;
  }

  $("finish-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const game = currentGame();
    let racks;
    try {
      racks = checkedRacks(game);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      $("finish-error").textContent = sentence(error);
      $("finish-error").hidden = false;
      return;
    }
    showFinish(false);
    change(game, (g) => { g.racks = racks; g.finished = now(); });
    $("results").scrollIntoView({ block: "start" });
    toast(text.gameFinished);
  });

  $("reopen").addEventListener("click", () => {
    change(currentGame(), (g) => { g.finished = null; });
    toast(text.reopened);
  });

  $("again").addEventListener("click", () => {
    const game = currentGame();
    newGame(game.type, game.players, game.edition, game.switchedFrom || game.rules);
  });

  $("new-game-open").addEventListener("click", () => {
    showFinish(false);
    showNewGame(true);
    render();
    $("new-game").scrollIntoView({ block: "start" });
    $("game-type").focus();
  });

  $("new-game-cancel").addEventListener("click", () => {
    showNewGame(false);
    render();
  });

  for (const id of ["game-type", "player-count", "rules"]) $(id).addEventListener("change", updateNewGameForm);

  $("new-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const count = Number($("player-count").value);
    const seats = [...document.querySelectorAll(".name-field input")];
    const names = seats.slice(0, count).map((field) => field.value);
    showNewGame(false);
    newGame($("game-type").value, names, $("sheet-edition").value, $("rules").value);
    for (const field of seats) field.value = "";
  });

  // Buttons drawn for a game (the current one or a previous one) carry its id on an enclosing element.
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button) return;
    const id = button.closest("[data-id]").dataset.id;
    const game = gameById(id);
    if (!game) return;
    const control = button.closest(".delete-control");
    switch (button.dataset.action) {
      case "open":
        store.current = id;
        persist();
        showNewGame(false);
        showFinish(false);
        render();
        $("game").scrollIntoView({ block: "start" });
        toast(format(text.opened, { date: formatDate(game.started) }));
        break;
      case "ask-delete":
        control.querySelector(".confirm-delete").hidden = false;
        button.hidden = true;
        control.querySelector('[data-action="keep"]').focus();
        break;
      case "keep":
        control.querySelector(".confirm-delete").hidden = true;
        control.querySelector('[data-action="ask-delete"]').hidden = false;
        break;
      case "delete":
        store.games = store.games.filter((g) => g.id !== id);
        if (store.current === id) store.current = null;
        persist();
        render();
        toast(text.gameDeleted);
        break;
      case "save":
        save(game, button);
        break;
    }
  });

  // ---- "Enregistrer dans mon compte": the page's one request, a member's explicit choice. ----

  function payload(game) {
    return {
      edition: game.edition,
      rules: game.rules,
      players: game.players,
      lines: game.lines.map(({ player, kind, points, words }) => (kind === "challenge" ? { player, kind, points, words } : { player, kind, points })),
      racks: game.finished ? game.racks : null,
      started: game.started,
    };
  }

  /** The one request: the game to the member's account. Answers {status, data}, or null when the server is out of
   * reach. */
  async function sendToAccount(game) {
    let response;
    try {
      response = await fetch(saveUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken },
        body: JSON.stringify(payload(game)),
      });
    } catch {
      return null;
    }
    return { status: response.status, data: await response.json().catch(() => null) };
  }

  async function save(game, button) {
    const message = button.closest(".save-control").querySelector(".save-message");
    const say = (sentence) => { message.textContent = sentence; message.classList.add("error"); button.disabled = false; };
    button.disabled = true;
    message.classList.remove("error");
    message.textContent = text.saving;
    const answer = await sendToAccount(game);
    if (!answer) return say(text.saveOffline);
    const { status, data } = answer;
    // Logged out in the meantime (401), or logged in again elsewhere, which changed the CSRF token (403).
    if (status === 401 || status === 403) return say(text.saveLogin);
    if (status === 201 && data?.url) {
      // Kept without touching `updated`: the copy in the account is this very state of the game.
      game.saved = { url: data.url, at: game.updated };
      persist();
      render();
      toast(text.saved);
      return;
    }
    if (data?.detail) return say(format(text.saveRefused, { reason: data.detail }));
    return say(text.saveLogin);
  }

  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_KEY) return;
    store = load();
    render();
  });

  const duplicate = globalThis.DuplicateSheet({
    $, clone, text, format, forCount, toast, change, displayName, rulesOf, limits, lang, countedText,
    current: currentGame,
    byId: gameById,
    counted: () => counted,
  });

  if (belowCounter) counted = drawnResult();
  render();
})();
