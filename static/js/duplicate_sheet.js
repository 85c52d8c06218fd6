// A duplicate game on the sheet kept in the browser (seed 000's « Duplicate : le même tirage pour tous »): a line per
// move with its top, then each player's score, every cell editable, a score above its top flagged as a typo; each
// player's total, gap to the tops and percentage of them; the move's timer, ringing at zero (static/js/timer.js's).
// Its rules are static/js/sheet_rules.js's (ranking.py's, held to it by tests/sheets/test_sheet_rules_js.py), its
// figures the rule set's (the most a move scores, the times a move may last). static/js/local_sheet.js keeps the game
// and calls this with what its parts share (`sheet`): the page's texts, `change` to alter and keep a game and
// `takeOff` to take a move off with a way back, `toast`, the counter's counted move, which stays offered after a
// touch (the same move is often a player's score and the top).
globalThis.DuplicateSheet = (sheet) => {
  "use strict";

  const { $, clone, text, format, forCount, toast, change, displayName, rulesOf, limits } = sheet;
  const { duplicateRanking, aboveTop } = SheetRules;
  const decimal = new Intl.NumberFormat(sheet.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

  const emptyMove = (players) => ({ top: null, scores: Array(players).fill(null) });
  const tops = (game) => game.moves.map((move) => move.top);
  const scores = (game) => game.players.map((_name, seat) => game.moves.map((move) => move.scores[seat]));
  const ranking = (game) => duplicateRanking(tops(game), scores(game), rulesOf(game));
  const signed = (gap) => (gap > 0 ? `+${gap}` : String(gap));

  /** What a new duplicate game adds to a game: its first move, waiting for its top and scores. */
  const fresh = (players) => ({ moves: [emptyMove(players)], timerSeconds: null });

  /** Each player in seat order, with his ranking's row. */
  const standings = (game) => ranking(game).map((row, seat) => ({ seat, total: row.total, place: row.place, row }));

  const againstTops = (row) => format(text.againstTops, { gap: signed(row.gap), percent: decimal.format(row.percent) });

  function rankingText(game) {
    return standings(game)
      .sort((a, b) => a.place - b.place || a.seat - b.seat)
      .map(({ seat, row }) => format(text.rankingLine, {
        place: row.place,
        name: displayName(game, seat),
        total: row.total,
        gap: signed(row.gap),
        percent: decimal.format(row.percent),
      }))
      .join("\n");
  }

  // ---- The table: redrawn when its shape changes, else its cells filled in place, so that the focus stays. ----

  let drawnShape = "";

  function cell(tag, content, attributes = {}) {
    const node = document.createElement(tag);
    node.textContent = content;
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    return node;
  }

  function input(move, key, label) {
    const td = clone("tpl-move-cell");
    const field = td.querySelector("input");
    field.dataset.move = move;
    field.dataset.cell = key;
    field.setAttribute("aria-label", label);
    td.querySelector(".typo-flag").id = `typo-${move}-${key}`;
    return td;
  }

  function actionsHeading() {
    const heading = document.createElement("th");
    heading.append(cell("span", text.actions, { class: "visually-hidden" }));
    return heading;
  }

  function drawTable(game) {
    const names = game.players.map((_name, seat) => cell("th", displayName(game, seat), { scope: "col" }));
    const head = document.createElement("tr");
    head.append(cell("th", text.numberHeading, { scope: "col" }), cell("th", text.top, { scope: "col" }), ...names, actionsHeading());
    $("moves-head").replaceChildren(head);
    $("moves-body").replaceChildren(...game.moves.map((_move, index) => {
      const number = index + 1;
      const row = document.createElement("tr");
      row.append(cell("td", number, { class: "number" }), input(index, "top", format(text.moveTop, { number })));
      for (const seat of game.players.keys()) {
        row.append(input(index, seat, format(text.moveScore, { name: displayName(game, seat), number })));
      }
      const remove = cell("button", "×", { type: "button", class: "remove", "aria-label": format(text.deleteMove, { number }) });
      remove.dataset.deleteMove = index;
      const actions = document.createElement("td");
      actions.append(remove);
      row.append(actions);
      return row;
    }));
    const foot = document.createElement("tr");
    foot.append(cell("th", text.total, { scope: "row" }), cell("td", "", { id: "tops-total" }));
    foot.append(...game.players.map((_name, seat) => cell("td", "", { id: `duplicate-total-${seat}` })), cell("td", ""));
    $("moves-foot").replaceChildren(foot);
  }

  function fillTable(game) {
    for (const field of $("moves-body").querySelectorAll("input[data-move]")) {
      const move = game.moves[Number(field.dataset.move)];
      const top = move.top;
      const value = field.dataset.cell === "top" ? top : move.scores[Number(field.dataset.cell)];
      if (document.activeElement !== field) field.value = value ?? "";
      const typo = field.dataset.cell !== "top" && aboveTop(value, top);
      const flag = field.parentElement.querySelector(".typo-flag");
      flag.hidden = !typo;
      field.classList.toggle("typo", typo);
      field.setAttribute("aria-invalid", typo ? "true" : "false");
      if (typo) field.setAttribute("aria-describedby", flag.id);
      else field.removeAttribute("aria-describedby");
    }
    $("tops-total").textContent = tops(game).reduce((sum, top) => sum + (top ?? 0), 0);
    ranking(game).forEach((row, seat) => { $(`duplicate-total-${seat}`).textContent = row.total; });
    $("moves-error").hidden = true;
  }

  function render(game, counted) {
    const shape = `${game.id}|${game.players.length}|${game.moves.length}`;
    if (shape !== drawnShape) {
      if (!drawnShape.startsWith(`${game.id}|`)) timer.stop();
      drawTable(game);
      drawnShape = shape;
    }
    fillTable(game);
    renderCounted(game, counted);
    renderTimer(game);
    $("duplicate-ranking-text").textContent = rankingText(game);
  }

  const focusFirstCell = () => $("moves-body").querySelector("input")?.focus();

  /** A cell's score: null when left empty, a whole number up to the rule set's most, or undefined (refused). */
  function typedScore(field, max) {
    const value = field.value.trim();
    if (value === "" && !field.validity.badInput) return null;
    if (!/^[0-9]+$/.test(value) || Number(value) > max) return undefined;
    return Number(value);
  }

  $("moves-body").addEventListener("change", (event) => {
    const field = event.target.closest("input[data-move]");
    if (!field) return;
    const game = sheet.current();
    const max = rulesOf(game).max_move_points;
    const score = typedScore(field, max);
    if (score === undefined) {
      field.setAttribute("aria-invalid", "true");
      $("moves-error").textContent = format(text.cellRange, { max });
      $("moves-error").hidden = false;
      return;
    }
    const move = Number(field.dataset.move);
    change(game, (g) => {
      if (field.dataset.cell === "top") g.moves[move].top = score;
      else g.moves[move].scores[Number(field.dataset.cell)] = score;
    });
  });

  // × takes a move off at once, with "Annuler" to put it back.
  $("moves-body").addEventListener("click", (event) => {
    const button = event.target.closest("[data-delete-move]");
    if (!button) return;
    const index = Number(button.dataset.deleteMove);
    sheet.takeOff(sheet.current(), "moves", index, { deleted: text.deletedMove, restored: text.restoredMove, refuse: refuseMove });
  });

  function refuseMove(game) {
    if (game.moves.length < limits.lines) return false;
    toast(format(text.tooManyMoves, { max: limits.lines }), { error: true });
    return true;
  }

  $("add-move").addEventListener("click", () => {
    const game = sheet.current();
    if (refuseMove(game)) return;
    change(game, (g) => g.moves.push(emptyMove(g.players.length)));
    toast(format(text.moveAdded, { number: game.moves.length }));
    $("moves-body").querySelector("tr:last-child input")?.focus();
  });

  // ---- The counter's move: into a player's next empty cell, or as the next top. ----

  function renderCounted(game, counted) {
    $("counted").hidden = !counted;
    if (!counted) return;
    $("counted-move").textContent = sheet.countedText(counted);
    const buttons = game.players.map((_name, seat) => {
      const button = cell("button", format(text.inscribe, { name: displayName(game, seat) }), { type: "button" });
      button.dataset.seat = seat;
      return button;
    });
    buttons.push(cell("button", text.asTop, { type: "button" }));
    $("counted-actions").replaceChildren(...buttons);
  }

  $("counted-actions").addEventListener("click", (event) => {
    const button = event.target.closest("button");
    const counted = sheet.counted();
    if (!button || !counted) return;
    const game = sheet.current();
    const seat = button.dataset.seat === undefined ? null : Number(button.dataset.seat);
    const empty = (move) => (seat === null ? move.top : move.scores[seat]) === null;
    let index = game.moves.findIndex(empty);
    if (index < 0) {
      if (refuseMove(game)) return;
      index = game.moves.length;
    }
    const points = counted.score;
    change(game, (g) => {
      if (index === g.moves.length) g.moves.push(emptyMove(g.players.length));
      if (seat === null) g.moves[index].top = points;
      else g.moves[index].scores[seat] = points;
    });
    const number = index + 1;
    toast(seat === null
      ? format(forCount("topRecorded", points), { points, number })
      : format(forCount("scoreRecorded", points), { points, name: displayName(game, seat), number }));
  });

  // ---- The move's timer (static/js/timer.js): set to one of the rule set's times, it rings and vibrates at zero. ----

  function chosenSeconds(game) {
    const rules = rulesOf(game);
    const choices = rules.move_seconds_choices;
    if (choices.includes(game.timerSeconds)) return game.timerSeconds;
    return choices.includes(rules.move_seconds) ? rules.move_seconds : choices[choices.length - 1];
  }

  function duration(seconds) {
    const minutes = Math.floor(seconds / 60);
    const rest = seconds % 60;
    return rest ? format(text.timerMinutesSeconds, { minutes, seconds: rest }) : format(text.timerMinutes, { minutes });
  }

  const timer = Timer.byHand({
    box: $("move-timer"),
    display: $("timer-display"),
    start: $("timer-start"),
    reset: $("timer-reset"),
    seconds: () => chosenSeconds(sheet.current()),
    onReset: () => {
      renderTimer(sheet.current());
      $("timer-start").focus();
    },
  });

  function renderTimer(game) {
    const select = $("timer-seconds");
    const choices = rulesOf(game).move_seconds_choices.map(String);
    if ([...select.options].map((option) => option.value).join() !== choices.join()) {
      select.replaceChildren(...choices.map((seconds) => new Option(duration(Number(seconds)), seconds)));
    }
    select.value = String(chosenSeconds(game));
    timer.show();
  }

  $("timer-seconds").addEventListener("change", (event) => {
    const seconds = Number(event.target.value);
    change(sheet.current(), (g) => { g.timerSeconds = seconds; });
  });

  return { fresh, standings, againstTops, render, focusFirstCell };
};
