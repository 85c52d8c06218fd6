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
