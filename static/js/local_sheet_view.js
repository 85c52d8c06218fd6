// The sheet kept in the browser: drawing the page from the games kept (`render`, after every change). The current
// game's scoreboard, its classic lines or its duplicate table (static/js/duplicate_sheet.js's), the results once it
// is over, the previous games, the forms' parts that follow the game (seats, rules' notes), and which of the
// "Nouvelle partie" and "Fin de partie" forms is open.
globalThis.LocalSheet ??= {};

LocalSheet.view = (page) => {
  "use strict";

  const { $, clone, config, text, format, formatDate, root, rulesByCode, editionsByCode } = page;
  const { isDuplicate, rulesOf, displayName, buildSheet, resultsText, standings, bestFirst, fallsBack } = page;
  const EDITABLE_KINDS = ["play", "penalty"];

  function render() {
    const game = page.currentGame();
    $("storage-warning").hidden = page.storageWorks();
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
      renderScoreboard(game, page.duplicate.standings(game), null);
      page.duplicate.render(game, page.counted());
    }

    const remove = deleteControl(game);
    remove.querySelector('[data-action="ask-delete"]').textContent = text.deleteGame;
    root.querySelector('.confirm-slot[data-game="current"]').replaceChildren(remove);
    $("current-save").replaceChildren(...(page.saveable(game) ? [saveControl(game)] : []));
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
        againstTops.textContent = page.duplicate.againstTops(row);
      }
      return card;
    }));
  }

  function renderClassic(game) {
    const sheet = buildSheet(game);
    const counted = page.counted();
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
    $("counted-note").textContent = counted ? page.countedText(counted) : "";
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
    const previous = page.previousGames();
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
      card.querySelector(".save-slot").replaceChildren(...(page.saveable(game) ? [saveControl(game)] : []));
      return card;
    }));
    $("no-previous").hidden = previous.length > 0;
  }

  function deleteControl(game) {
    const control = clone("tpl-delete");
    control.dataset.id = game.id;
    return control;
  }

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
    const switches = fallsBack(chosen, type, wanted);
    $("rules-note").hidden = !switches;
    $("rules-note").textContent = switches ? switchedNote(chosen, wanted) : "";
  }

  /** Opens the "Nouvelle partie" or the "Fin de partie" form (`show` one of the two below): drawn, scrolled to, and
   * `field` focused. */
  function openForm(show, form, field) {
    show(true);
    render();
    $(form).scrollIntoView({ block: "start" });
    $(field).focus();
  }

  return { render, showNewGame, showFinish, updateNewGameForm, openForm };
};
