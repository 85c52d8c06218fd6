// The counter's small helpers: copy buttons and the tile panel closing on Escape (static/js/counter_page.js counts).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  const text = source.value ?? source.textContent;
  const done = (message) => {
    const label = button.textContent;
    button.textContent = message || button.dataset.copied || "Copié";
    setTimeout(() => { button.textContent = label; }, 1500);
  };
  // Copying through a selected textarea works in every browser on a click; the clipboard API, which a browser
  // may leave waiting for a permission, is only the second try.
  const area = document.createElement("textarea");
  area.value = text;
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (copied) {
    done();
  } else if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => done(button.dataset.failed));
  } else {
    done(button.dataset.failed);
  }
});

document.addEventListener("click", (event) => {
  const close = event.target.closest(".close-panel");
  if (!close) return;
  const details = close.closest("details");
  details.open = false;
  details.querySelector("summary").focus();
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const open = document.querySelector("details.tile[open]");
  if (!open) return;
  open.open = false;
  open.querySelector("summary").focus();
});
