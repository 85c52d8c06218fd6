// The score sheet kept in this browser (seeds 000 and 003), for visitors and members alike, on its own page and
// under the counter. Every game lives in localStorage and nothing leaves the browser: the one request it makes is a
// member's "Enregistrer dans mon compte". The rules are static/js/sheet_rules.js's (the engine's, held to it by
// tests/sheets/test_sheet_rules_js.py), their figures the page's config (the admin's rule sets and editions, the
// engine's notation), the French the template's.
//
// This script puts the sheet's parts together, each in its own file and loaded before it, each a function of `page`,
// what the parts share (the page's config and texts, then what every part adds to it, read when it is called):
//   local_sheet_page.js     the page's config, texts, elements and toast
//   local_sheet_game.js     a game and its sheet: totals, turn, pass limit, results (no DOM)
//   local_sheet_store.js    the games in localStorage, and every change to one
//   local_sheet_view.js     drawing the page
//   local_sheet_counter.js  the counter's move, inscribed in one touch under the counter
//   local_sheet_account.js  "Enregistrer dans mon compte"
//   local_sheet_forms.js    what each form and button does
//   duplicate_sheet.js      a duplicate game's table and timer
(() => {
  "use strict";

  const root = document.getElementById("local-sheet");
  if (!root) return;
  const page = LocalSheet.page(root);
  for (const part of ["game", "store", "view", "counter", "account"]) Object.assign(page, LocalSheet[part](page));
  // duplicate_sheet.js's names for what it is given.
  Object.assign(page, { current: page.currentGame, byId: page.gameById });
  page.duplicate = globalThis.DuplicateSheet(page);
  LocalSheet.forms(page);
  page.render();
})();
