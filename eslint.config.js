// `make lint`'s JavaScript half: ESLint's recommended rules on our own scripts (static/js, htmx's minified copy
// aside). The scripts are plain browser files, most of them classic scripts, some ES modules; tests/js holds the
// node side of the tests that run the browser's rules against the Python engine.
// bench/ holds node scripts that time other solvers.
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["static/js/htmx.min.js", "staticfiles/**", "node_modules/**", ".venv/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      // The globals our scripts share, each made by the script of its name (LocalSheet: the local_sheet_*.js parts).
      globals: {
        ...globals.browser, htmx: "readonly", Letters: "readonly", SheetRules: "readonly", ScoreRules: "readonly",
        Timer: "readonly", LocalSheet: "readonly", WordList: "readonly",
      },
    },
    rules: { "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }] },
  },
  {
    files: ["static/js/service_worker.js"],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ["static/js/**/*.mjs", "tests/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ["eslint.config.js", "tests/**/*.js", "bench/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: globals.node },
  },
];
