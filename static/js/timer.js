// Move timers. A classic game's `.timer` counts down from its setting when started (seed 003); a duplicate
// session's `[data-deadline]` counts down to the deadline set on the server, so every screen shows the same
// time (`data-deadline` and `data-now` are milliseconds since the epoch, as the server saw them). Both ring
// and vibrate at zero.
(() => {
  const ring = () => {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.7);
    } catch { /* no sound on this device */ }
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
  };

  const format = (seconds) => {
    const s = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  };

  // A game's own timer, started by hand.
  for (const box of document.querySelectorAll(".timer")) {
    const display = box.querySelector(".timer-display");
    const total = parseInt(box.dataset.seconds, 10);
    let deadline = null;
    let tick = null;
    const show = (seconds) => {
      display.textContent = format(seconds);
      box.classList.toggle("expired", seconds <= 0 && deadline !== null);
    };
    const update = () => {
      const left = (deadline - Date.now()) / 1000;
      show(left);
      if (left <= 0) { clearInterval(tick); tick = null; ring(); }
    };
    const start = box.querySelector(".timer-start");
    const reset = box.querySelector(".timer-reset");
    const idleLabel = start.textContent;
    start.addEventListener("click", () => {
      deadline = Date.now() + total * 1000;
      clearInterval(tick);
      tick = setInterval(update, 250);
      update();
      // Seen at once, though the display keeps its figure for the first second.
      start.textContent = start.dataset.runningLabel || idleLabel;
      box.classList.add("running");
      reset.disabled = false;
    });
    reset.addEventListener("click", () => {
      clearInterval(tick); tick = null; deadline = null; show(total);
      start.textContent = idleLabel;
      box.classList.remove("running");
      reset.disabled = true;
    });
    show(total);
  }

  // Deadlines from the server, in pages htmx may redraw.
  let offset = 0;
  const armed = {};  // deadline → still to ring (one already past when first seen never rings)
  const updateDeadlines = () => {
    for (const box of document.querySelectorAll("[data-deadline]")) {
      if (box.dataset.now) { offset = Number(box.dataset.now) - Date.now(); delete box.dataset.now; }
      const left = (Number(box.dataset.deadline) - (Date.now() + offset)) / 1000;
      box.textContent = format(left);
      box.classList.toggle("expired", left <= 0);
      const deadline = box.dataset.deadline;
      if (!(deadline in armed)) armed[deadline] = left > 0;
      if (left <= 0 && armed[deadline]) { armed[deadline] = false; ring(); }
    }
  };
  setInterval(updateDeadlines, 250);
  updateDeadlines();
})();
