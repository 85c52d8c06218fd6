// A button with `data-confirm` asks before its form is sent: deleting a sheet line, emptying the grid, ending a
// session. Caught before htmx sees the submit, so that "Annuler" sends nothing at all.
document.addEventListener(
  "submit",
  (event) => {
    const question = event.submitter?.dataset.confirm;
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
