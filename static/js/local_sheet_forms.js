// The sheet kept in the browser: what each of its forms and buttons does. A classic game's turn (points, pass,
// exchange), penalty, challenge, undo, a line corrected or taken off; the end of the game with the racks left, its
// reopening; a new game, another with the same players; a previous game opened, deleted or saved to the account.
// A figure typed is checked against the rule set's and the page's limits, as the server checks a member's sheet.
globalThis.LocalSheet ??= {};

LocalSheet.forms = (page) => {
  "use strict";

  const { $, root, config, text, format, forCount, sentence, toast, fieldError, limits, notation } = page;
  const { editionsByCode, rulesOf, displayName, buildSheet, change, currentGame, gameById } = page;
  const { RuleError, rackValue, rackLetters, checkRacks, strip } = SheetRules;

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

  // ---- A new game. ----

  function newGame(type, players, editionCode, chosenRules) {
    const game = page.createGame(type, players, editionCode, chosenRules);
    page.add(game);
    page.showFinish(false);
    page.render();
    if (game.type === "classic") {
      toast(format(text.started, { name: displayName(game, 0) }));
      $("points").focus();
    } else {
      toast(text.startedDuplicate);
      page.duplicate.focusFirstCell();
    }
  }

  $("new-game-open").addEventListener("click", () => {
    page.showFinish(false);
    page.openForm(page.showNewGame, "new-game", "game-type");
  });

  for (const id of ["game-type", "player-count", "rules"]) $(id).addEventListener("change", page.updateNewGameForm);

  $("new-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const count = Number($("player-count").value);
    const seats = [...document.querySelectorAll(".name-field input")];
    const names = seats.slice(0, count).map((field) => field.value);
    page.showNewGame(false);
    newGame($("game-type").value, names, $("sheet-edition").value, $("rules").value);
    for (const field of seats) field.value = "";
  });

  $("again").addEventListener("click", () => {
    const game = currentGame();
    newGame(game.type, game.players, game.edition, game.switchedFrom || game.rules);
  });

  // ---- A classic game's lines. ----

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
    const counted = page.counted();
    const move = counted && counted.score === points ? counted : null;
    const words = move ? move.words.map(({ word }) => word).filter(Boolean).join(" + ") : "";
    if (!recordTurn("play", points, words)) return;
    $("points").value = "";
    if (move) page.inscribed(move);
    $("points").focus();
  });

  $("points").addEventListener("input", () => fieldError("points", ""));

  for (const button of document.querySelectorAll("#entry [data-turn]")) {
    button.addEventListener("click", () => recordTurn(button.dataset.turn));
  }

  /** A penalty's or a challenge's form: `field` a whole number from 1 to `max` (else `refusal` under it), then,
   * unless the game is full, `record(game, seat, number)` for the player chosen in `seatField`. */
  function panelForm(form, field, max, refusal, seatField, record) {
    $(form).addEventListener("submit", (event) => {
      event.preventDefault();
      const game = currentGame();
      const number = typedInteger($(field));
      if (number === null || number < 1 || number > max) return fieldError(field, format(refusal, { max }));
      fieldError(field, "");
      if (refuseLine(game)) return;
      record(game, Number($(seatField).value), number);
    });
  }

  panelForm("penalty-form", "penalty-points", limits.penalty, text.penaltyRange, "penalty-player", (game, seat, points) => {
    $("penalty-panel").open = false;
    change(game, (g) => g.lines.push({ player: seat, kind: "penalty", points: -points }));
    toast(format(text.penaltyRecorded, { points, name: displayName(game, seat) }));
  });

  panelForm("challenge-form", "challenge-words", limits.challenge_words, text.wordsRange, "challenger", (game, seat, words) => {
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
    if (line.kind === "penalty" && (points === null || points > -1 || points < -limits.penalty)) refusal = format(text.penaltyRange, { max: limits.penalty });
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

  $("lines-body").addEventListener("click", (event) => {
    const button = event.target.closest("[data-delete-line]");
    if (!button) return;
    const index = Number(button.dataset.deleteLine);
    page.takeOff(currentGame(), "lines", index, { deleted: text.deletedLine, restored: text.restoredLine, refuse: refuseLine });
  });

  // ---- The end of the game. ----

  $("finish-open").addEventListener("click", () => {
    const game = currentGame();
    const sheet = buildSheet(game);
    $("rack-fields").replaceChildren(...game.players.map((_name, seat) => {
      const field = page.clone("tpl-rack");
      const input = field.querySelector("input");
      input.id = `rack-${seat}`;
      input.value = game.racks ? game.racks[seat] : "";
      const label = field.querySelector("label");
      label.htmlFor = input.id;
      label.textContent = format(text.rackLabel, { name: displayName(game, seat), total: sheet.totals[seat] });
      return field;
    }));
    page.openForm(page.showFinish, "finish", "rack-0");
  });

  for (const [button, show] of [["finish-cancel", page.showFinish], ["new-game-cancel", page.showNewGame]]) {
    $(button).addEventListener("click", () => {
      show(false);
      page.render();
    });
  }

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
    page.showFinish(false);
    change(game, (g) => { g.racks = racks; g.finished = page.now(); });
    $("results").scrollIntoView({ block: "start" });
    toast(text.gameFinished);
  });

  $("reopen").addEventListener("click", () => {
    change(currentGame(), (g) => { g.finished = null; });
    toast(text.reopened);
  });

  // ---- The buttons drawn for a game (the current one or a previous one), which carry its id on an enclosing
  // element. ----

  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button) return;
    const id = button.closest("[data-id]").dataset.id;
    const game = gameById(id);
    if (!game) return;
    const control = button.closest(".delete-control");
    switch (button.dataset.action) {
      case "open":
        page.open(id);
        page.showNewGame(false);
        page.showFinish(false);
        page.render();
        $("game").scrollIntoView({ block: "start" });
        toast(format(text.opened, { date: page.formatDate(game.started) }));
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
        page.remove(id);
        page.render();
        toast(text.gameDeleted);
        break;
      case "save":
        page.save(game, button);
        break;
    }
  });
};
