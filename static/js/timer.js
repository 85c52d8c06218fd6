// Move timer (seed 003): counts down from the game's setting, rings and vibrates at zero.
(() => {
  const box = document.querySelector(".timer");
  if (!box) return;
  const display = box.querySelector(".timer-display");
  const total = parseInt(box.dataset.seconds, 10);
  let deadline = null;
  let tick = null;

  const show = (seconds) => {
    const s = Math.max(0, Math.ceil(seconds));
    display.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    box.classList.toggle("expired", s === 0 && deadline !== null);
  };

  const ring = () => {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.6);
    } catch (error) { /* no sound on this device */ }
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
  };

  const update = () => {
    const left = (deadline - Date.now()) / 1000;
    show(left);
    if (left <= 0) { clearInterval(tick); tick = null; ring(); }
  };

  box.querySelector(".timer-start").addEventListener("click", () => {
    deadline = Date.now() + total * 1000;
    clearInterval(tick);
    tick = setInterval(update, 250);
    update();
  });
  box.querySelector(".timer-reset").addEventListener("click", () => {
    clearInterval(tick); tick = null; deadline = null; show(total);
  });
  show(total);
})();
