// The arbiter's bulletins at the keyboard: table number, Enter, score or move, Enter. Enter in the table box goes
// on to the score box instead of sending half a bulletin.
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowUp" && event.target.id === "bulletin-table" && !event.target.value && lastRefused) {
    event.preventDefault();
    const entry = document.getElementById("bulletin-entry");
    event.target.value = lastRefused.table;
    entry.value = lastRefused.entry;
    entry.focus();
    entry.select();
    lastRefused = null;
    return;
  }
  if (event.key !== "Enter" || event.target.id !== "bulletin-table") return;
  const entry = document.getElementById("bulletin-entry");
  if (entry && !entry.value.trim()) {
    event.preventDefault();
    entry.focus();
  }
});

// A score typed but not yet sent looks different from a saved one, until the row comes back from the server.
// A box brought back to what the server sent is not unsaved any more (and the console's poll may update its row).
document.addEventListener("input", (event) => {
  const box = event.target;
  if (!box.closest(".results-table .cell-form, .game-sheet .sheet-form")) return;
  const changed = box.value !== box.defaultValue;
  box.classList.toggle("dirty", changed);
  box.classList.toggle("saved", !changed && box.defaultValue !== "");
});

// A bulletin is read the moment Enter is pressed, and the form is empty again at once for the next one: an
// arbiter typing ahead never mixes two bulletins. They are sent one after the other, in the order typed, so the
// last answer carries the last count. Each answer adds a line on top of the entry log (a refusal stays in sight
// while the next bulletins go through); htmx swaps the player's row and the count it carries.
let bulletins = Promise.resolve();
let lastRefused = null;
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id !== "bulletin-form" || !window.htmx) return;
  event.preventDefault();
  const body = new FormData(form);
  form.reset();
  form.querySelector("#bulletin-table").focus();
  const log = (html) => htmx.swap(form.dataset.log, html, { swapStyle: "afterbegin" });
  // A refused bulletin is never put back into the form by itself (an arbiter typing ahead would type into it):
  // the Up arrow in the empty table box calls the last one back, to be corrected.
  const refused = () => { lastRefused = { table: body.get("table"), entry: body.get("entry") }; };
  // A bulletin the server could not write (its database restarting: 503; no answer) is sent once more by itself a
  // second later (the same bulletin twice sets the same score); failing again, it is logged as not saved.
  const send = () => fetch(form.action, { method: "POST", body, headers: { "HX-Request": "true" } });
  const wait = () => new Promise((resolve) => { setTimeout(resolve, 1000); });
  const retryable = (response) => [502, 503, 504].includes(response.status);
  const sendWithRetry = () => send()
    .then((response) => (retryable(response) ? wait().then(send) : response))
    .catch(() => wait().then(send));
  // Lost, it is named in the log as a refusal is: its table, what was typed, why (the server's sentence when it
  // answered 503), and the Up arrow that calls it back.
  const lost = (reason) => {
    const table = body.get("table") ?? "";
    const template = /^\d+$/.test(table.trim()) ? form.dataset.lost : form.dataset.lostNamed;
    const line = document.createElement("li");
    line.className = "error";
    line.setAttribute("role", "alert");
    line.textContent = `${template.replace("{table}", table).replace("{entry}", body.get("entry") ?? "")} ${reason} `;
    const hint = document.createElement("small");
    hint.className = "hint";
    hint.textContent = form.dataset.recall;
    line.append(hint);
    document.querySelector(form.dataset.log)?.prepend(line);
    refused();
  };
  const said = (html) => new DOMParser().parseFromString(html, "text/html").body.textContent.trim();
  bulletins = bulletins.then(() =>
    sendWithRetry()
      .then((response) => response.text().then((html) => {
        if (retryable(response)) {
          lost(response.status === 503 && said(html) ? said(html) : form.dataset.offline);
          return;
        }
        log(html);
        if (!response.ok) refused();
      }))
      .catch(() => lost(form.dataset.offline)),
  );
});

// The game's sheet: a cell is sent when it changes (htmx, on "change"); Enter sends it too and goes down to the
// same player's next move, as in a spreadsheet, instead of reloading the page.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.classList.contains("sheet-form") || !window.htmx) return;
  event.preventDefault();
  const cell = form.closest("td");
  const row = cell.parentElement.nextElementSibling;
  const below = row?.cells[cell.cellIndex]?.querySelector("input[name=entry]");
  if (below) below.focus();
  else form.querySelector("input[name=entry]").blur();
});

// A refused cell keeps the focus, its text selected, to be corrected at once.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.id !== "game-sheet") return;
  const refused = document.querySelector("#game-sheet input[aria-invalid=true]");
  if (refused) {
    refused.focus();
    refused.select();
  }
});

// The sheet comes back whole after each cell (totals, solos and places follow): a cell being typed meanwhile
// keeps what was typed in it.
let typing = null;
document.addEventListener("htmx:beforeSwap", (event) => {
  const active = document.activeElement;
  typing = event.detail.target?.id === "game-sheet" && active?.classList.contains("dirty")
    ? { id: active.id, value: active.value }
    : null;
});
document.addEventListener("htmx:afterSwap", () => {
  const input = typing && document.getElementById(typing.id);
  if (input) {
    input.value = typing.value;
    input.classList.remove("saved");
    input.classList.add("dirty");
  }
  typing = null;
});

// The console's poll brings the rows the players changed from their phones: a row the arbiter is typing in is
// left as it is (his Enter will send it), every other one is swapped.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const row = event.detail.target;
  if (!row.matches?.(".results-table tr")) return;
  const busy = row.contains(document.activeElement) || row.querySelector(".dirty, [role=alert]");
  if (busy) event.detail.shouldSwap = false;
});

// A refusal the whole console comes back with (a draw cancelled, the timer) is brought into sight.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.tagName !== "MAIN") return;
  const refusal = document.querySelector("main [role=alert].error");
  if (refusal) refusal.scrollIntoView({ block: "center" });
});

// The table box takes the focus for the bulletins at the keyboard, on a wide screen only: on a phone the focus
// would scroll the page down to it, out of sight of the draw and the timer just shown.
const focusWide = () => {
  if (window.matchMedia("(min-width: 600px)").matches) document.querySelector("[data-focus-wide]")?.focus();
};
focusWide();
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.tagName === "MAIN") focusWide();
});
