// The timers of the server's pages, on static/js/timer.js: a classic game's `.timer` counts down from its setting
// (`data-seconds`) when started by hand (seed 003); a duplicate session's `[data-deadline]` counts down to the
// deadline set on the server, so every screen shows the same time.
(() => {
  "use strict";

  for (const box of document.querySelectorAll(".timer")) {
    const total = parseInt(box.dataset.seconds, 10);
    const timer = Timer.byHand({
      box,
      display: box.querySelector(".timer-display"),
      start: box.querySelector(".timer-start"),
      reset: box.querySelector(".timer-reset"),
      seconds: () => total,
    });
    timer.show();
  }

  Timer.followDeadlines();
})();
