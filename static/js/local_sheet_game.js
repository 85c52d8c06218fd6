// The sheet kept in the browser: a game and its sheet, as sheets/sheet.py computes a member's (the totals, whose
// turn it is, the pass limit, the results once it is over) with static/js/sheet_rules.js's rules. No DOM: what it
// needs of the page is its config and texts (`page`, static/js/local_sheet_page.js's).
globalThis.LocalSheet ??= {};

LocalSheet.game = (page) => {
  "use strict";

  const { config, text, limits, notation, rulesByCode, editionsByCode, format } = page;
  const { allowsPlayers, passLimitReached, passRun, sharedPlaces, endOfGame, rackValue, strip } = SheetRules;

  const isDuplicate = (game) => game.type === "duplicate";
  const rulesOf = (game) => rulesByCode[game.rules];
  const now = () => new Date().toISOString();

  // A game whose rule set or edition the admin has since removed stays stored, but cannot be shown.
  const shown = (game) => Boolean(rulesByCode[game.rules] && editionsByCode[game.edition]);

  function displayName(game, seat) {
    return game.players[seat] || format(text.player, { number: seat + 1 });
  }

  /** A classic game of `count` players under `chosen` rules is played under their fallback (RuleSet.fallback). */
  const fallsBack = (chosen, type, count) =>
    type === "classic" && !allowsPlayers(chosen, count) && Boolean(rulesByCode[chosen.fallback_code]);

  /** A new game, classic or duplicate (with what page.duplicate.fresh adds), not yet kept. */
  function createGame(type, players, editionCode, chosenRules) {
    const chosen = rulesByCode[chosenRules];
    const classic = type !== "duplicate";
    const switched = fallsBack(chosen, classic ? "classic" : "duplicate", players.length);
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
    if (!classic) Object.assign(game, page.duplicate.fresh(game.players.length));
    return game;
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
    if (isDuplicate(game)) return page.duplicate.standings(game);
    const sheet = buildSheet(game);
    if (sheet.results) return sheet.results.map((r) => ({ seat: r.seat, total: r.final, place: r.place }));
    const places = sharedPlaces(sheet.totals);
    return sheet.totals.map((total, seat) => ({ seat, total, place: places[seat] }));
  }

  /** Best first, for a game's summary (as the member's history shows his games). */
  const bestFirst = (game) => standings(game).sort((a, b) => a.place - b.place);

  return {
    isDuplicate, rulesOf, now, shown, displayName, fallsBack, createGame, buildSheet, resultsText, standings, bestFirst,
  };
};
