// A player's recap replays the game move by move: every move's board is in the page, one shown at a time.
// "Coup précédent" / "Coup suivant", the ← → keys and the table's move numbers switch moves in place; without
// JavaScript the same buttons and links load the page with ?coup=N.
(() => {
  const replay = document.querySelector("[data-replay]");
  if (!replay) return;
  const moves = [...replay.querySelectorAll("[data-move]")];
  if (!moves.length) return;
  const status = replay.querySelector("#replay-status");
  const previous = replay.querySelector('[data-replay-step="-1"]');
  const next = replay.querySelector('[data-replay-step="1"]');
  let index = Math.max(0, moves.findIndex((move) => !move.hidden));

  const show = (wanted, remember = true) => {
    index = Math.min(Math.max(wanted, 0), moves.length - 1);
    moves.forEach((move, i) => { move.hidden = i !== index; });
    const number = Number(moves[index].dataset.move);
    status.textContent = moves[index].dataset.status;
    previous.disabled = index === 0;
    next.disabled = index === moves.length - 1;
    previous.value = String(number - 1);
    next.value = String(number + 1);
    document.querySelectorAll("#recap-table tbody tr").forEach((row) => {
      row.classList.toggle("current", row.dataset.number === String(number));
    });
    if (!remember) return;
    // The address keeps the move shown: a reload or a shared link opens it (?coup=N, read by the server).
    const url = new URL(window.location.href);
    url.searchParams.set("coup", String(number));
    window.history.replaceState(null, "", url);
  };

  replay.querySelector(".replay-controls").addEventListener("click", (event) => {
    const button = event.target.closest("[data-replay-step]");
    if (!button) return;
    event.preventDefault();
    show(index + Number(button.dataset.replayStep));
    // The button pressed may just have been disabled (the first or last move): keep the focus in the controls.
    if (button.disabled) (button === next ? previous : next).focus();
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest("[data-replay-goto]");
    if (!link) return;
    event.preventDefault();
    show(moves.findIndex((move) => move.dataset.move === link.dataset.replayGoto));
    replay.scrollIntoView({ block: "start" });
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    if (event.key === "ArrowLeft") show(index - 1);
    else if (event.key === "ArrowRight") show(index + 1);
    else return;
    event.preventDefault();
  });

  show(index, false);
})();
