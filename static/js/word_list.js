// A word list in the visitor's browser, as scoring/engine/lexicon.py keeps one: "Vérifier les mots dans une liste
// de mots libre" downloads an edition's list once (static/js/counter_page.js) and checks each word here, so that
// what is typed never leaves the page (seed 000: « Seul ce fichier transite »). A classic script with no DOM and no
// figure of its own: the ligatures come from the page (counter_figures' `word_list`), the text from the server
// (Lexicon.words(): the normalised words, sorted, one a line). It reads with Python's strip() from Letters
// (letters.js, loaded before it). The engine is the oracle: tests/scoring/test_word_list_js.py runs it under node.
globalThis.WordList = (() => {
  "use strict";

  const { strip } = Letters;

  // unicodedata.combining(char) != 0, which JavaScript cannot ask: NFD puts a mark of a nonzero combining class
  // before U+0345 (class 240, the highest), and leaves a character of class 0 after it.
  const HIGHEST = "\u0345";
  const isCombining = (char) => char === HIGHEST || (HIGHEST + char).normalize("NFD") !== HIGHEST + char;

  /** normalise_word: `text` as a word list spells it: trimmed, uppercase, ligatures expanded, accents dropped. */
  function normaliseWord(text, figures) {
    const upper = strip(text).toUpperCase();
    if (/^[\0-\x7f]*$/.test(upper)) return upper;
    const expanded = [...upper].map((char) => figures.ligatures[char] ?? char).join("");
    return [...expanded.normalize("NFD")].filter((char) => !isCombining(char)).join("");
  }

  // Python sorted the list by code point, where JavaScript compares UTF-16 units: the two orders differ only
  // between a surrogate (past U+FFFF) and U+E000–U+FFFF, which this moves below the surrogates.
  const rank = (unit) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

  /** The list of a text of words one a line, sorted: the text kept whole with where each line starts and ends,
   * a word found by bisection, as the engine's Lexicon does, rather than a Set of 400,000 strings. */
  function fromText(text, figures) {
    let count = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", end + 1)) count += 1;
    const starts = new Uint32Array(count + 1);
    const ends = new Uint32Array(count + 1);
    let size = 0;
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      if (end > start) {
        starts[size] = start;
        ends[size] = end;
        size += 1;
      }
      start = end + 1;
    }

    /** The word of line `line` against `key`: negative, zero or positive as Python's comparison orders them. */
    function compare(line, key) {
      const from = starts[line];
      const length = ends[line] - from;
      const common = Math.min(length, key.length);
      for (let i = 0; i < common; i += 1) {
        const difference = rank(text.charCodeAt(from + i)) - rank(key.charCodeAt(i));
        if (difference) return difference;
      }
      return length - key.length;
    }

    /** Lexicon.__contains__: whether the word is listed, whatever its case and accents ("zèbre" is ZEBRE). */
    function has(word) {
      if (typeof word !== "string") return false;
      const key = normaliseWord(word, figures);
      if (!key || key.includes("\n")) return false;
      let low = 0;
      let high = size;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const order = compare(middle, key);
        if (order === 0) return true;
        if (order < 0) low = middle + 1;
        else high = middle;
      }
      return false;
    }

    /** in_lexicon: whether a scored word (its tiles' letters, a blank as the letter it stands for) is listed. */
    const hasWord = (scored) => has(scored.tiles.map((tile) => tile.letter).join(""));

    return { size, has, hasWord };
  }

  return { normaliseWord, fromText };
})();
