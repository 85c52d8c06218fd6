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
