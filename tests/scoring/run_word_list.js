// Runs static/js/word_list.js, as the page loads it (after letters.js and score_rules.js), on the cases
// tests/scoring/test_word_list_js.py writes on stdin: {"figures" (counter_figures), "lists" (each list's text, as
// the server sends it once decompressed), "cases"}. Writes on stdout one answer per case, or {"crash": "…"}.
"use strict";

const path = require("node:path");

const STATIC = path.join(__dirname, "..", "..", "static", "js");
require(path.join(STATIC, "letters.js"));
require(path.join(STATIC, "score_rules.js"));
require(path.join(STATIC, "word_list.js"));
const { forEdition } = globalThis.ScoreRules;
const { normaliseWord, fromText } = globalThis.WordList;

const verdicts = (words, list) => words.map((word) => [word.word, list.hasWord(word)]);

const FUNCTIONS = {
  normalise: ({ figures }, { text }) => normaliseWord(text, figures.word_list),
  size: ({ lists }, { list }) => lists[list].size,
  has: ({ lists }, { list, word }) => lists[list].has(word),
  // The typed counter's words, each box read as typed (counter_page.js's countTyped), and their verdicts.
  typed: ({ lists, scoring }, { list, edition, words }) => {
    const read = words.map((text) => scoring(edition).readWord(text));
    const result = scoring(edition).countTyped(read);
    return result && !result.error ? verdicts(result.byWord.filter(Boolean), lists[list]) : null;
  },
  // A move typed on the grid over a board (counter_page.js's countGrid): its main and cross words' verdicts.
  grid: ({ lists, scoring }, { list, edition, moves, attempt }) => {
    const { board } = scoring(edition).replay(moves);
    const { play } = scoring(edition).pending(board, attempt);
    return play ? verdicts(play.words, lists[list]) : null;
  },
};

const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const { figures, lists: texts, cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const lists = Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, fromText(text, figures.word_list)]));
  const scorings = new Map();
  const scoring = (code) => {
    if (!scorings.has(code)) scorings.set(code, forEdition(figures, code));
    return scorings.get(code);
  };
  const answers = cases.map((input) => {
    try {
      return FUNCTIONS[input.function]({ figures, lists, scoring }, input);
    } catch (error) {
      return { crash: String(error.stack || error) };
    }
  });
  process.stdout.write(JSON.stringify(answers));
});
