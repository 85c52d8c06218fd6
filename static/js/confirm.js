// A button with `data-confirm` asks before its form is sent: deleting a sheet line, emptying the grid, ending a
// session. Caught before htmx sees the submit, so that "Annuler" sends nothing at all. `data-confirm-from` names an
// element whose `data-confirm-text`, as it is at the click, ends the question: the bulletins still missing when
// a session is ended, which the console's count keeps up to date.
document.addEventListener(
  "submit",
  (event) => {
    const button = event.submitter;
    const from = button?.dataset.confirmFrom && document.querySelector(button.dataset.confirmFrom);
    const question = [button?.dataset.confirm, from?.dataset.confirmText].filter(Boolean).join(" ");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  },
  true,
);

// "Imprimer": the browser's print dialog; the print stylesheet leaves out the menus and the buttons.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
