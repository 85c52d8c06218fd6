// Runs static/js/score_rules.js, as the page loads it, on the cases tests/scoring/test_score_rules_js.py writes on
// stdin: {"function", "figures" (counter_figures), "texts" (the page's sentences), "cases"}. Writes on stdout one
// answer per case, in the shape the test gives the engine's, or {"crash": "…"} for an error that is no refusal.
// The scripts to load are named on the command line, in the page's order (the test's PAGE_SCRIPTS).
"use strict";

const path = require("node:path");

for (const script of process.argv.slice(2)) require(path.join(__dirname, "..", "..", "static", "js", script));
const { RuleError, forEdition, message, refusedMove } = globalThis.ScoreRules;

const playShape = (play, scoring) =>
  play && {
    notation: play.notation,
    placed: play.placed.map(([index, { letter, blank }]) => [scoring.squareName(index), blank ? letter.toLowerCase() : letter]),
    words: play.words.map((word) => [word.word, word.coordinate, word.calculation, word.score]),
    tiles_placed: play.tilesPlaced,
    bonus: play.bonus,
    score: play.score,
  };

function typed(scoring, texts, { words }) {
  const read = words.map(({ text, settings, was }) =>
    scoring.readWord(text, scoring.followSettings(settings, was, text)),
  );
  const result = scoring.countTyped(read);
  let counted = result;
  if (result && result.error) counted = { error: message(result.error, texts) };
  else if (result) {
    counted = {
      tiles_placed: result.tilesPlaced,
      bonus: result.bonus,
      score: result.score,
      too_many_tiles: result.tooManyTiles,
      warning: result.tooManyTiles ? texts.tooManyTiles : "",
    };
  }
  return {
    words: read.map((word, i) => {
      const scored = result && !result.error ? result.byWord[i] : null;
      return {
        tiles: word.tiles.map((t) => [t.letter, t.shown, t.value, t.square, t.on_board, t.blank, t.forced_blank]),
        error: word.error ? message(word.error, texts) : "",
        scored: scored && [scored.word, scored.calculation, scored.score],
      };
    }),
    result: counted,
    detail: scoring.detailText(result, texts),
    new_tiles: scoring.newTiles(read),
  };
}

function scoreTyped(scoring, texts, { words }) {
  try {
    const result = scoring.scoreTyped(words);
    return {
      words: result.words.map((word) => [word.word, word.calculation, word.score]),
      tiles_placed: result.tilesPlaced,
      bonus: result.bonus,
      score: result.score,
      too_many_tiles: result.tooManyTiles,
    };
  } catch (error) {
    if (error instanceof RuleError) return { refusal: message(error, texts) };
    throw error;
  }
}

function grid(scoring, texts, { moves, players, attempts }) {
  const replayed = scoring.replay(moves);
  const tracking = scoring.track(replayed.board.cells.filter(Boolean));
  return {
    laid: replayed.laid,
    scores: replayed.plays.map((play) => play.score),
    refused: replayed.refused.map((refusal) => message(refusal, texts)),
    off_board: replayed.refused.map((refusal) => refusedMove(refusal, texts)),
    tracking: { remaining: tracking.remaining, overplayed: tracking.overplayed, in_bag: tracking.inBag(players) },
    attempts: attempts.map((fields) => {
      const move = scoring.pending(replayed.board, fields);
      return {
        start: move.start,
        placements: [...move.placements].map(([index, tile]) => [scoring.squareName(index), tile.letter, tile.blank]),
        blank_marks: move.blankMarks,
        error: move.error ? message(move.error, texts) : "",
        play: playShape(move.play, scoring),
      };
    }),
  };
}

function evaluateTiles(scoring, texts, { moves, placements, horizontal }) {
  const { board } = scoring.replay(moves);
  const tiles = new Map(placements.map(([square, letter, blank]) => [scoring.squareIndex(square), { letter, blank }]));
  try {
    return playShape(scoring.evaluateTiles(board, tiles, horizontal), scoring);
  } catch (error) {
    if (error instanceof RuleError) return { refusal: message(error, texts) };
    throw error;
  }
}

const FUNCTIONS = { typed, scoreTyped, grid, evaluateTiles };

const scorings = new Map();

function scoringFor(figures, edition, rules) {
  const key = JSON.stringify([edition, rules]);
  if (!scorings.has(key)) scorings.set(key, forEdition(figures, edition, rules));
  return scorings.get(key);
}

function answer(call, figures, texts, input) {
  try {
    return call(scoringFor(figures, input.edition, input.rules ?? figures.rules), texts, input);
  } catch (error) {
    return { crash: String(error.stack || error) };
  }
}

const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const { function: name, figures, texts, cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const call = FUNCTIONS[name];
  if (!call) throw new Error(`run_score_rules.js has no function "${name}" to test`);
  process.stdout.write(JSON.stringify(cases.map((input) => answer(call, figures, texts, input))));
});
