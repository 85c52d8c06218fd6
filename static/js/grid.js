// Grid mode: touch a square to start there (again to turn), type letters, touch a new tile to make it a blank.
// This only fills the form's fields and asks static/js/counter_page.js for a new count.
(() => {
  const ROWS = "ABCDEFGHIJKLMNO";
  const form = () => document.getElementById("grid-form");
  const field = (id) => document.getElementById(id);
  const recount = () => form().dispatchEvent(new Event("change", { bubbles: true }));

  // A new start or direction begins another word: its joker marks belonged to the tiles of the last one.
  const forgetBlanks = () => (field("blanks").value = "");

  function setDirection(horizontal) {
    form().querySelector(`input[name=direction][value=${horizontal ? "h" : "v"}]`).checked = true;
    forgetBlanks();
  }

  function horizontal() {
    return form().querySelector("input[name=direction][value=h]").checked;
  }

  // A joker mark names a new tile on its square (H8M): the count drops the marks no tile matches any more.
  function toggleBlank(mark) {
    const blanks = new Set(field("blanks").value.split(",").filter(Boolean));
    blanks.has(mark) ? blanks.delete(mark) : blanks.add(mark);
    field("blanks").value = [...blanks].join(",");
  }

  document.addEventListener("click", (event) => {
    const cell = event.target.closest(".board .cell");
    if (!cell) return;
    if (cell.dataset.blank !== undefined) {
      toggleBlank(cell.dataset.blank);
    } else if (field("start").value === cell.dataset.square) {
      setDirection(!horizontal());
    } else {
      field("start").value = cell.dataset.square;
      forgetBlanks();
    }
    recount();
    if (window.matchMedia("(pointer: coarse)").matches) field("letters").focus();
    else field("board")?.focus();
  });

  function moveStart(dRow, dCol) {
    const current = field("start").value || "H8";
    let row = ROWS.indexOf(current[0]) + dRow;
    let col = parseInt(current.slice(1), 10) - 1 + dCol;
    row = Math.max(0, Math.min(14, row));
    col = Math.max(0, Math.min(14, col));
    field("start").value = ROWS[row] + (col + 1);
    forgetBlanks();
  }

  document.addEventListener("keydown", (event) => {
    if (event.target.id !== "board" || event.ctrlKey || event.metaKey || event.altKey) return;
    const letters = field("letters");
    const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[event.key]) {
      moveStart(...arrows[event.key]);
    } else if (event.key === "Backspace") {
      letters.value = letters.value.slice(0, -1);
    } else if (event.key === " ") {
      setDirection(!horizontal());
    } else if (/^\p{L}$/u.test(event.key)) {
      if (!field("start").value) field("start").value = "H8";
      letters.value += event.key.toUpperCase();
    } else {
      return;
    }
    event.preventDefault();
    recount();
  });

  // Typed in the start box or chosen with the buttons: caught before the count.
  document.addEventListener(
    "change",
    (event) => {
      if (event.target.id === "start" || event.target.name === "direction") forgetBlanks();
    },
    true,
  );
})();
