// Reading what is typed as an edition's letters, as the engine reads it (scoring/engine/editions.py's Edition.split,
// and Python's text functions it reads with), for the two scripts that apply the engine's rules in the browser: the
// counter's (static/js/score_rules.js) and the sheet's (static/js/sheet_rules.js). A classic script with no DOM and
// no figure of its own: the edition (its letters and their values) and the notation (ligatures, a digraph's parts,
// the longest word) are the page's. A refusal is a RuleError naming one of the page's sentences, which the page
// writes in French. Each page loads it before the script that uses it; a page that holds both loads it twice, and the
// second time keeps the first (one RuleError for both). tests/scoring/test_score_rules_js.py and
// tests/sheets/test_sheet_rules_js.py run it under node against the engine, loaded as the pages load it.
globalThis.Letters ??= (() => {
  "use strict";

  /** A refusal: `sentence` names one of the page's texts, `values` fill its placeholders. */
  class RuleError extends Error {
    constructor(sentence, values = {}) {
      super(sentence);
      this.name = "RuleError";
      this.sentence = sentence;
      this.values = values;
    }
  }

  // ---- Python's text functions, which the engine reads what is typed with. ----

  // str.isspace: JavaScript's \s, but for U+FEFF, and U+001C–U+001F and U+0085 besides.
  const SPACE = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  const ONE_SPACE = new RegExp(`^${SPACE}$`, "u");
  const OUTER_SPACES = new RegExp(`^${SPACE}+|${SPACE}+$`, "gu");
  const SPACES = new RegExp(`${SPACE}+`, "u");
  const isSpace = (char) => ONE_SPACE.test(char);
  /** str.strip(). */
  const strip = (text) => text.replace(OUTER_SPACES, "");
  /** str.split(): the words between runs of spaces. */
  const splitWords = (text) => strip(text).split(SPACES).filter(Boolean);
  // `isalpha() and islower()` for one character: a letter with Unicode's Lowercase property.
  const isLowerLetter = (char) => /^(?=\p{L})\p{Lowercase}$/u.test(char);

  // ---- editions.py: an edition's tiles and Edition.split. ----

  const hasTile = (edition, letter) => Object.hasOwn(edition.values, letter);
  /** Edition.value: a letter's points, 0 for a blank or a letter the edition has no tile for. */
  const value = (edition, letter, blank = false) => (blank || !hasTile(edition, letter) ? 0 : edition.values[letter]);
  const width = (letter) => [...letter].length;

  function normaliseChar(char, edition, notation) {
    const upper = char.toUpperCase();
    if (hasTile(edition, upper) || notation.digraph_parts.includes(upper)) return upper;
    if (Object.hasOwn(notation.ligatures, upper)) return notation.ligatures[upper];
    const base = upper.normalize("NFD").replace(/\p{M}/gu, "");
    if (base.length === 1 && base >= "A" && base <= "Z") return base;
    if (isSpace(char)) throw new RuleError("space");
    throw new RuleError("badChar", { char });
  }

  /** (uppercase character, written as a blank) for each character, with parentheses resolved. */
  function normalisedChars(text, edition, notation) {
    const chars = [];
    let inParens = false;
    for (const char of text) {
      if (char === "(" && !inParens) { inParens = true; continue; }
      if (char === ")" && inParens) { inParens = false; continue; }
      const blank = inParens || isLowerLetter(char);
      for (const part of normaliseChar(char, edition, notation)) chars.push([part, blank]);
    }
    if (inParens) throw new RuleError("openParenthesis");
    return chars;
  }

  /** A written word as tiles, [[letter, blank], …]: a lowercase letter or one in parentheses is a blank, a letter
   * the edition lacks can only be one, accents dropped, ligatures expanded, the longest tile read first ("CH" in
   * Spanish); more than the notation's longest word is refused. */
  function split(text, edition, notation) {
    const chars = normalisedChars(strip(text), edition, notation);
    if (!chars.length) throw new RuleError("emptyWord");
    const longest = Object.keys(edition.values)
      .filter((letter) => width(letter) > 1)
      .sort((a, b) => width(b) - width(a));
    const tiles = [];
    let i = 0;
    while (i < chars.length) {
      const tile = longest.find((letter) => {
        const part = chars.slice(i, i + width(letter));
        return part.map(([char]) => char).join("") === letter && new Set(part.map(([, blank]) => blank)).size === 1;
      });
      if (tile) {
        tiles.push([tile, chars[i][1]]);
        i += width(tile);
        continue;
      }
      const [char, blank] = chars[i];
      if (notation.digraph_parts.includes(char)) throw new RuleError("badChar", { char });
      tiles.push([char, blank || !hasTile(edition, char)]);
      i += 1;
    }
    if (tiles.length > notation.max_word_tiles) {
      throw new RuleError("tooLong", { count: tiles.length, max: notation.max_word_tiles });
    }
    return tiles;
  }

  return { RuleError, strip, splitWords, hasTile, value, split };
})();
