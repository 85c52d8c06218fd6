// The move timer of a duplicate session, on the server's clock: every screen counts down to the same deadline.
// `data-deadline` and `data-now` are milliseconds since the epoch, as the server saw them when it rendered.
(() => {
  let offset = 0;
  const armed = {};  // deadline → still to ring (a deadline already past when first seen never rings)

  const ring = () => {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.8);
    } catch (error) { /* no sound on this device */ }
    if (navigator.vibrate) navigator.vibrate([400, 200, 400]);
  };

  const update = () => {
    for (const box of document.querySelectorAll("[data-deadline]")) {
      if (box.dataset.now) { offset = Number(box.dataset.now) - Date.now(); delete box.dataset.now; }
      const left = Math.max(0, Math.ceil((Number(box.dataset.deadline) - (Date.now() + offset)) / 1000));
      box.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      box.classList.toggle("expired", left === 0);
      const deadline = box.dataset.deadline;
      if (!(deadline in armed)) armed[deadline] = left > 0;
      if (left === 0 && armed[deadline]) { armed[deadline] = false; ring(); }
    }
  };
  setInterval(update, 250);
  document.addEventListener("DOMContentLoaded", update);
})();
