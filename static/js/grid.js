// Grid mode's gestures: touch a free square to start there (again to turn), type letters, touch a new tile to make
// it a blank; the arrows, a letter, Backspace and Space on the board do the same from the keyboard. This only fills
// the form's fields, says on screen what a touch did, and asks static/js/counter_page.js for a new count.
(() => {
  const ROWS = "ABCDEFGHIJKLMNO";
  const textsScript = document.getElementById("counter-texts");
  if (!textsScript) return;
  const texts = JSON.parse(textsScript.textContent);
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
  // Returns whether the tile is now a joker.
  function toggleBlank(mark) {
    const blanks = new Set(field("blanks").value.split(",").filter(Boolean));
    const joker = !blanks.delete(mark);
    if (joker) blanks.add(mark);
    field("blanks").value = [...blanks].join(",");
    return joker;
  }

  /** Say what a touch did, in the result's live region: a touch on a new tile and one on a free square differ. */
  function say(text, ...more) {
    const status = field("touch-status");
    if (!status) return;
    status.replaceChildren(text, ...more);
    status.hidden = false;
  }
  const saySilence = () => {
    const status = field("touch-status");
    if (status) status.hidden = true;
  };

  function sayStart() {
    const direction = horizontal() ? texts.horizontal : texts.vertical;
    say(ScoreRules.format(texts.started, { square: field("start").value, direction }));
  }

  function setStart(square) {
    field("start").value = square;
    forgetBlanks();
  }

  /** The touch on a new tile made it a joker, or a letter again; a button starts a word there instead. */
  function sayJoker(square, mark, joker) {
    const letter = mark.slice(square.length);
    const startHere = document.createElement("button");
    startHere.type = "button";
    startHere.className = "start-here";
    startHere.dataset.square = square;
    startHere.textContent = ScoreRules.format(texts.startHere, { square });
    say(ScoreRules.format(joker ? texts.jokerOn : texts.jokerOff, { letter, square }), " ", startHere);
  }

  function focusAfterTouch() {
    if (window.matchMedia("(pointer: coarse)").matches) field("letters").focus();
    else field("board")?.focus();
  }

  document.addEventListener("click", (event) => {
    const startHere = event.target.closest("#touch-status .start-here");
    if (startHere) {
      setStart(startHere.dataset.square);
      field("letters").value = "";
      recount();
      sayStart();
      field("letters").focus();
      return;
    }
    const cell = event.target.closest(".board .cell");
    if (!cell) return;
    const square = cell.dataset.square;
    if (cell.dataset.blank !== undefined) {
      const mark = cell.dataset.blank;
      const joker = toggleBlank(mark);
      recount();
      sayJoker(square, mark, joker);
    } else {
      if (field("start").value === square) setDirection(!horizontal());
      else setStart(square);
      recount();
      sayStart();
    }
    focusAfterTouch();
  });

  function moveStart(dRow, dCol) {
    const current = field("start").value || "H8";
    let row = ROWS.indexOf(current[0]) + dRow;
    let col = parseInt(current.slice(1), 10) - 1 + dCol;
    row = Math.max(0, Math.min(14, row));
    col = Math.max(0, Math.min(14, col));
    setStart(ROWS[row] + (col + 1));
  }

  document.addEventListener("keydown", (event) => {
    if (event.target.id !== "board" || event.ctrlKey || event.metaKey || event.altKey) return;
    const letters = field("letters");
    const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    let moved = true;
    if (arrows[event.key]) {
      moveStart(...arrows[event.key]);
    } else if (event.key === " ") {
      setDirection(!horizontal());
    } else if (event.key === "Backspace") {
      letters.value = letters.value.slice(0, -1);
      moved = false;
    } else if (/^\p{L}$/u.test(event.key)) {
      if (!field("start").value) field("start").value = "H8";
      letters.value += event.key.toUpperCase();
      moved = false;
    } else {
      return;
    }
    event.preventDefault();
    recount();
    if (moved) sayStart();
    else saySilence();
  });

  // Typed in the start box or chosen with the buttons: caught before the count.
  document.addEventListener(
    "change",
    (event) => {
      if (event.target.id === "start" || event.target.name === "direction") forgetBlanks();
    },
    true,
  );
  document.addEventListener("input", (event) => {
    if (event.target.id === "letters" || event.target.id === "start") saySilence();
  });
})();
