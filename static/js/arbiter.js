// The arbiter's bulletins at the keyboard: table number, Enter, score or move, Enter. Enter in the table box goes
// on to the score box instead of sending half a bulletin.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.target.id !== "bulletin-table") return;
  const entry = document.getElementById("bulletin-entry");
  if (entry && !entry.value.trim()) {
    event.preventDefault();
    entry.focus();
  }
});

// A score typed but not yet sent looks different from a saved one, until the row comes back from the server.
document.addEventListener("input", (event) => {
  if (!event.target.closest(".results-table .cell-form")) return;
  event.target.classList.remove("saved");
  event.target.classList.add("dirty");
});

// A bulletin is read the moment Enter is pressed, and the form is empty again at once for the next one: an
// arbiter typing ahead never mixes two bulletins. They are sent one after the other, in the order typed, so the
// last answer carries the last count. Each answer adds a line on top of the entry log (a refusal stays in sight
// while the next bulletins go through); htmx swaps the player's row and the count it carries.
let bulletins = Promise.resolve();
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id !== "bulletin-form" || !window.htmx) return;
  event.preventDefault();
  const body = new FormData(form);
  form.reset();
  form.querySelector("#bulletin-table").focus();
  const log = (html) => htmx.swap(form.dataset.log, html, { swapStyle: "afterbegin" });
  bulletins = bulletins.then(() =>
    fetch(form.action, { method: "POST", body, headers: { "HX-Request": "true" } })
      .then((response) => response.text())
      .then(log)
      .catch(() => log(`<li class="error" role="alert">${form.dataset.offline}</li>`)),
  );
});
