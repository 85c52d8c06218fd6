// The sheet kept in the browser, under the counter: the move the counter counted ("counter:result", or until it
// sends one the total it draws), offered to be inscribed in one touch; once inscribed, the sheet tells the counter
// ("sheet:inscribed"), and does not offer it again while the counter still shows it.
globalThis.LocalSheet ??= {};

LocalSheet.counter = (page) => {
  "use strict";

  const { $, format, forCount, root } = page;
  const belowCounter = root.hasAttribute("data-below-counter");

  let counted = null; // {score, words: [{word, score}], detail_text, tiles_used} or null
  let countedSent = false; // the counter sends "counter:result" itself: its drawn total is no longer read
  let inscribedMove = ""; // the move last put on a classic sheet, not offered again while the counter still shows it

  function countedText(move) {
    const words = move.words.map(({ word }) => word).filter(Boolean).join(" + ");
    const points = move.score;
    return words ? format(forCount("counted", points), { words, points }) : format(forCount("countedPoints", points), { points });
  }

  /** The counter's move, or none. The points box follows it, unless something else was typed there. */
  function setCounted(move) {
    const before = counted;
    const valid = move && Number.isInteger(move.score) && Array.isArray(move.words);
    if (!valid || JSON.stringify(move) !== inscribedMove) inscribedMove = "";
    counted = valid && !inscribedMove ? move : null;
    const points = $("points");
    if (points.value === "" || (before && points.value === String(before.score))) points.value = counted ? counted.score : "";
    page.render();
  }

  /** The counted move is on a classic sheet: it is offered no more, and the counter may clear it. */
  function inscribed(move) {
    inscribedMove = JSON.stringify(move);
    counted = null;
    page.render();
    document.dispatchEvent(new CustomEvent("sheet:inscribed", { detail: { score: move.score } }));
  }

  // Until the counter sends its result (issue 25), the total it draws stands for it.
  function drawnResult() {
    const total = document.querySelector("#result #total, #grid-result #total");
    if (!total) return null;
    const names = document.querySelectorAll("#counter .calculation .word-name, #grid-result .word-name");
    return { score: Number(total.textContent), words: [...names].map((name) => ({ word: name.textContent, score: null })), detail_text: "", tiles_used: null };
  }

  if (belowCounter) {
    document.addEventListener("counter:result", (event) => {
      countedSent = true;
      setCounted(event.detail);
    });
    document.addEventListener("htmx:afterSettle", () => {
      if (!countedSent) setCounted(drawnResult());
    });
    counted = drawnResult();
  }

  return { counted: () => counted, countedText, inscribed };
};
