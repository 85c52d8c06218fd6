// The move timer, one for every page that shows one (the global `Timer`): a timer started by hand (a classic game's,
// seed 003, and the duplicate game of the sheet kept in the browser, seed 000) and the countdown to a deadline the
// server set (a duplicate session's, the same on every screen). Both show minutes and seconds, and ring and vibrate
// once at zero. Loading it does nothing: static/js/page_timers.js starts the timers of the server's pages,
// static/js/duplicate_sheet.js the one of the sheet kept in the browser.
globalThis.Timer = (() => {
  "use strict";

  const TICK = 250; // milliseconds between two redraws

  /** "2:30" for 150 seconds, whole seconds rounded up, "0:00" once over. */
  function clock(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  }

  /** What the beep plays on, made on a touch as browsers require to let it sound later; null without sound. */
  function sound() {
    try {
      return new AudioContext();
    } catch {
      return null; // no sound on this device
    }
  }

  /** A short beep (WebAudio, on `audio` or, with none made on a touch, one made now) and a vibration where the
   * phone allows it. */
  function ring(audio = null) {
    try {
      audio ??= new AudioContext();
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 880;
      volume.gain.value = 0.3;
      tone.connect(volume).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.5);
    } catch { /* no sound on this device */ }
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
  }

  /** A timer started by hand in `box`: `start` counts `seconds()` down on `display` and rings once at zero, `reset`
   * stops it and shows `seconds()` again. `box` is "running" from the start, "expired" at zero, when its
   * `.timer-done` line (if it has one) shows; `start` takes its `data-running-label` while it runs. `onReset` runs
   * after a press on `reset`. Draws nothing until asked: returns `show()`, which draws `seconds()` while the timer is
   * not running (first, and after a new choice of time), and `stop()`, which resets it without a press. */
  function byHand({ box, display, start, reset, seconds, onReset = () => {} }) {
    const done = box.querySelector(".timer-done");
    const idleLabel = start.textContent;
    let deadline = null;
    let tick = null;
    let audio = null;

    function update() {
      const left = (deadline - Date.now()) / 1000;
      display.textContent = clock(left);
      if (left > 0) return;
      clearInterval(tick);
      tick = null;
      box.classList.add("expired");
      if (done) done.hidden = false;
      ring(audio);
    }

    function show() {
      if (deadline === null) display.textContent = clock(seconds());
    }

    function stop() {
      clearInterval(tick);
      tick = null;
      deadline = null;
      box.classList.remove("running", "expired");
      if (done) done.hidden = true;
      start.textContent = idleLabel;
      reset.disabled = true;
      show();
    }

    start.addEventListener("click", () => {
      audio ??= sound();
      clearInterval(tick);
      deadline = Date.now() + seconds() * 1000;
      tick = setInterval(update, TICK);
      box.classList.remove("expired");
      box.classList.add("running");
      if (done) done.hidden = true;
      // Seen at once, though the display keeps its figure for the first second.
      start.textContent = start.dataset.runningLabel || idleLabel;
      reset.disabled = false;
      update();
    });

    reset.addEventListener("click", () => {
      stop();
      onReset();
    });

    return { show, stop };
  }

  /** Every `[data-deadline]` of the page, now and in what htmx draws later, counted down to its deadline on the
   * server's clock: `data-deadline` and `data-now` are milliseconds since the epoch, as the server saw them. Each
   * deadline rings once when it passes; one already past when first seen never rings. */
  function followDeadlines(root = document) {
    let offset = 0;
    const armed = {}; // deadline → still to ring
    const update = () => {
      for (const box of root.querySelectorAll("[data-deadline]")) {
        if (box.dataset.now) { offset = Number(box.dataset.now) - Date.now(); delete box.dataset.now; }
        const left = (Number(box.dataset.deadline) - (Date.now() + offset)) / 1000;
        box.textContent = clock(left);
        box.classList.toggle("expired", left <= 0);
        const deadline = box.dataset.deadline;
        if (!(deadline in armed)) armed[deadline] = left > 0;
        if (left <= 0 && armed[deadline]) { armed[deadline] = false; ring(); }
      }
    };
    setInterval(update, TICK);
    update();
  }

  return { clock, sound, ring, byHand, followDeadlines };
})();
