// "Revoir la partie": one step of the replay at a time, switched with "Coup précédent" / "Coup suivant" or the
// arrow keys. Without JavaScript every step stays on the page, one under the other.
(function () {
  "use strict";
  const replay = document.getElementById("replay");
  if (!replay) return;
  const steps = Array.from(replay.querySelectorAll(".replay-step"));
  const nav = replay.querySelector(".replay-nav");
  const previous = document.getElementById("step-prev");
  const next = document.getElementById("step-next");
  const position = document.getElementById("step-position");
  if (!steps.length) return;
  let current = 0;

  function show(index, remember) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach((step, i) => { step.hidden = i !== current; });
    previous.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    position.textContent = `${current + 1} / ${steps.length}`;
    if (remember) history.replaceState(null, "", `#${steps[current].id}`);
  }

  function stepOf(id) {
    return steps.findIndex((step) => step.id === id);
  }

  // A refused rack opens its own step; a link to a line (#coup-12), or a rack just saved, opens that line's.
  const refused = steps.findIndex((step) => step.hasAttribute("data-current"));
  const linked = stepOf(decodeURIComponent(location.hash.slice(1)));
  nav.hidden = false;
  replay.classList.add("stepping");
  show(refused >= 0 ? refused : Math.max(linked, 0), false);

  previous.addEventListener("click", () => show(current - 1, true));
  next.addEventListener("click", () => show(current + 1, true));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    if (event.key === "ArrowLeft") show(current - 1, true);
    else if (event.key === "ArrowRight") show(current + 1, true);
    else return;
    event.preventDefault();
  });
  // The list of every move links to the steps: open the step instead of scrolling to a hidden one.
  window.addEventListener("hashchange", () => {
    const index = stepOf(decodeURIComponent(location.hash.slice(1)));
    if (index >= 0) {
      show(index, false);
      replay.scrollIntoView({ block: "start" });
    }
  });
})();
