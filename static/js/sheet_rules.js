// The rules the sheet kept in the browser applies (seeds 000 and 003), classic and duplicate, each written as the
// engine writes it and named after it: scoring/engine/rules.py, ranking.py and endgame.py, and the passed-turn run
// of sheets/sheet.py. A classic script with no DOM and no figure of its own: the rule sets, the editions and the
// notation come from the page's config (sheets/local.py's browser_config), and a refusal is a RuleError naming one of
// the page's sentences, which the page writes in French. Letters are read by static/js/letters.js (editions.py's
// Edition.split), which the page loads before it. The engine is the oracle: tests/sheets/test_sheet_rules_js.py runs
// every function here under node against it.
globalThis.SheetRules = (() => {
  "use strict";

  const { RuleError, strip, split, value } = Letters;

  // ---- rules.py: RuleSet. ----

  function allowsPlayers(rules, count) {
    return rules.min_players <= count && count <= rules.max_players;
  }

  /** `passes`: the seat of each pass in the current run of consecutive passes, oldest first. */
  function passLimitReached(rules, passes, playerCount) {
    if (rules.consecutive_pass_limit && passes.length >= rules.consecutive_pass_limit) {
      const run = passes.slice(-rules.consecutive_pass_limit);
      if (!rules.passes_per_player_limit) return true;
      for (let seat = 0; seat < playerCount; seat += 1) {
        if (run.filter((player) => player === seat).length < rules.passes_per_player_limit) return false;
      }
      return true;
    }
    if (rules.pass_rounds_limit) return passes.length >= rules.pass_rounds_limit * playerCount;
    return false;
  }

  /** sheets/sheet.py's _pass_run: the seats of the trailing run of turns that scored nothing (pass, exchange,
   * withdrawn word, 0), oldest first. `turnKinds`: the kinds of line that use a turn. */
  function passRun(lines, turnKinds) {
    const run = [];
    for (const line of [...lines].reverse()) {
      if (!turnKinds.includes(line.kind)) continue;
      if (line.points !== 0) break;
      run.unshift(line.player);
    }
    return run;
  }

  // ---- ranking.py. ----

  /** The place of each total, in the order given; equal totals share a place (1, 2, 2, 4). */
  function sharedPlaces(totals) {
    const ordered = [...totals].sort((a, b) => b - a);
    return totals.map((total) => ordered.indexOf(total) + 1);
  }

  // ---- ranking.py: a duplicate game, each total set against the sum of the tops. ----

  /** percent_of: `total` as a percentage of `topTotal`, one decimal rounded half up (72 of 78: 92.3), 0 before
   * any top. Worked in whole numbers, as Decimal does: in floats, 6.25 % may come out 6.249…. */
  function percentOf(total, topTotal) {
    if (!topTotal) return 0;
    const sign = Math.sign(total) * Math.sign(topTotal);
    const twice = 2 * Math.abs(total) * 1000 + Math.abs(topTotal); // (tenths + ½) × 2 × topTotal
    const divisor = 2 * Math.abs(topTotal);
    return (sign * (twice - (twice % divisor))) / divisor / 10;
  }

  /** ranking.py's _score: a score not written counts 0. */
  const scoreAt = (line, move) => (move < line.length ? line[move] : null) ?? 0;

  /** solos_by_move: for each move, the player whose score beats every other's, or null; none alone. */
  function solosByMove(tops, scores) {
    if (scores.length < 2) return tops.map(() => null);
    return tops.map((_top, move) => {
      const moveScores = scores.map((line) => scoreAt(line, move));
      const best = Math.max(...moveScores);
      const leaders = moveScores.flatMap((score, player) => (score === best ? [player] : []));
      return leaders.length === 1 ? leaders[0] : null;
    });
  }

  /** rank, with neither penalty nor avertissement: for each player (`scores[seat]`, a score or null per move), his
   * total with his solos' bonus, gap and percentage of the tops, and place. An empty top counts 0. */
  function duplicateRanking(tops, scores, rules) {
    const topTotal = tops.reduce((sum, top) => sum + (top ?? 0), 0);
    const bonus = scores.length >= rules.solo_min_players ? rules.solo_bonus : 0;
    const soloists = solosByMove(tops, scores);
    const figures = scores.map((line, player) => {
      const solos = soloists.filter((soloist) => soloist === player).length;
      const written = tops.reduce((sum, _top, move) => sum + scoreAt(line, move), 0);
      return { total: written + solos * bonus, solos, solo_points: solos * bonus };
    });
    const places = sharedPlaces(figures.map(({ total }) => total));
    return figures.map(({ total, solos, solo_points }, player) => ({
      total,
      gap: total - topTotal,
      percent: percentOf(total, topTotal),
      place: places[player],
      solos,
      solo_points,
    }));
  }

  /** A score above its move's top cannot be (ranking.py's above_top): a typo, once both are written. */
  const aboveTop = (score, top) => score !== null && top !== null && score > top;

  // ---- endgame.py. ----

  /** `rackValues[i]` is null for the player who finished (at most one), else the value of his letters. */
  function endOfGame(scores, rackValues, rule) {
    const finishers = rackValues.filter((value) => value === null).length;
    if (finishers > 1) throw new RuleError("oneFinisher");
    const others = rackValues.reduce((sum, value) => sum + (value ?? 0), 0);
    const double = rule === "finisher_gains_double";
    const adjustments = rackValues.map((value) => {
      if (value === null) return double ? 2 * others : others;
      if (finishers && double) return 0;
      return -value;
    });
    const finals = scores.map((score, i) => score + adjustments[i]);
    const places = sharedPlaces(finals);
    return scores.map((before, i) => ({ before, adjustment: adjustments[i], final: finals[i], place: places[i] }));
  }

  const isValue = (text) => /^[0-9]+$/.test(text);

  /** The value of the letters left on a rack, typed as letters (the blank: 0) or as a number. */
  function rackValue(text, edition, notation) {
    text = strip(text);
    if (isValue(text)) {
      const value = Number(text);
      if (value > notation.max_rack_value) throw new RuleError("rackValue", { max: notation.max_rack_value });
      return value;
    }
    const letters = text.replaceAll(notation.blank, "").replaceAll(" ", "");
    if (!letters) return 0;
    // As Edition.value(letter): a letter in parentheses counts, only `?` is a blank worth 0.
    const tiles = split(letters.toUpperCase(), edition, notation);
    return tiles.reduce((sum, [letter]) => sum + value(edition, letter), 0);
  }

  /** The letters of a rack typed as letters (the blank as itself), none when it was given as a value. */
  function rackLetters(text, edition, notation) {
    text = strip(text).replaceAll(" ", "");
    if (isValue(text)) return [];
    const letters = text.replaceAll(notation.blank, "");
    const blanks = Array([...text].length - [...letters].length).fill(notation.blank);
    return blanks.concat(letters ? split(letters.toUpperCase(), edition, notation).map(([letter]) => letter) : []);
  }

  /** `racks`: [player, letters] pairs. More of a letter than is still off the board, on one rack or on all of
   * them together, cannot be. */
  function checkRacks(racks, remaining) {
    const together = {};
    for (const [player, letters] of racks) {
      for (const letter of new Set(letters)) {
        const count = letters.filter((l) => l === letter).length;
        together[letter] = (together[letter] ?? 0) + count;
        const left = remaining[letter] ?? 0;
        if (count > left) throw new RuleError("rackTooMany", { player, count, letter, left });
      }
    }
    for (const [letter, count] of Object.entries(together)) {
      const left = remaining[letter] ?? 0;
      if (count > left) throw new RuleError("racksTooMany", { count, letter, left });
    }
  }

  return {
    RuleError,
    allowsPlayers,
    passLimitReached,
    passRun,
    sharedPlaces,
    percentOf,
    duplicateRanking,
    aboveTop,
    endOfGame,
    rackValue,
    rackLetters,
    checkRacks,
    split,
    strip,
  };
})();
