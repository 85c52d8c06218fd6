// The counter's small helpers: copy buttons, and the tile panel closing on Escape.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  const text = source.value ?? source.textContent;
  const done = () => {
    const label = button.textContent;
    button.textContent = button.dataset.copied || "Copié";
    setTimeout(() => { button.textContent = label; }, 1500);
  };
  // The clipboard API may be refused (no permission, an embedded page): the older way still copies.
  const copyBySelection = () => {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    done();
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, copyBySelection);
  } else {
    copyBySelection();
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
