// Runs static/js/sheet_rules.js, as the page loads it, on the cases tests/sheets/test_sheet_rules_js.py writes on
// stdin: {"function", "config" (the page's, from browser_config), "cases"}. Writes on stdout one answer per case:
// {"value": …}, {"refusal": [sentence, values]} for a RuleError, {"crash": "…"} for any other error. The scripts to
// load are named on the command line, in the page's order (the test's PAGE_SCRIPTS).
"use strict";

const path = require("node:path");

for (const script of process.argv.slice(2)) require(path.join(__dirname, "..", "..", "static", "js", script));
const rules = globalThis.SheetRules;

function calls(config) {
  const editions = Object.fromEntries(config.editions.map((edition) => [edition.code, edition]));
  const { notation } = config;
  return {
    allowsPlayers: ({ rules: set, count }) => rules.allowsPlayers(set, count),
    passLimit: ({ rules: set, lines, players }) => {
      const run = rules.passRun(lines, config.turn_kinds);
      return { run, reached: rules.passLimitReached(set, run, players) };
    },
    sharedPlaces: ({ totals }) => rules.sharedPlaces(totals),
    percentOf: ({ total, topTotal }) => rules.percentOf(total, topTotal),
    duplicateRanking: ({ tops, scores, rules: set }) => rules.duplicateRanking(tops, scores, set),
    aboveTop: ({ score, top }) => rules.aboveTop(score, top),
    endOfGame: ({ scores, values, rule }) => rules.endOfGame(scores, values, rule),
    split: ({ text, edition }) => rules.split(text, editions[edition], notation),
    rackValue: ({ text, edition }) => rules.rackValue(text, editions[edition], notation),
    rackLetters: ({ text, edition }) => rules.rackLetters(text, editions[edition], notation),
    checkRacks: ({ racks, edition }) => rules.checkRacks(racks, editions[edition].counts) ?? null,
    strip: ({ text }) => rules.strip(text),
  };
}

function answer(call, input) {
  try {
    return { value: call(input) };
  } catch (error) {
    if (error instanceof rules.RuleError) return { refusal: [error.sentence, error.values] };
    return { crash: String(error.stack || error) };
  }
}

const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const { function: name, config, cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const call = calls(config)[name];
  if (!call) throw new Error(`sheet_rules.js has no function "${name}" to test`);
  process.stdout.write(JSON.stringify(cases.map((input) => answer(call, input))));
});
