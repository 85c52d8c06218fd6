// The counter's scoring, as the engine scores (seeds 000 and 002): typed mode (scoring/engine/typed.py and the
// counter's form, scoring/forms.py) and grid mode (scoring/engine/moves.py: a move laid on a board, its main word
// and cross words), each function written as the engine writes it and named after it. A classic script with no
// DOM and no figure of its own: the board's squares, the notation, the rule set's rack and bonus and the editions
// come from the page (scoring/engine/figures.py's counter_figures). A refusal is a RuleError naming one of the
// page's sentences with its values; `message` writes it with the page's texts, in French, as the engine does.
// Letters are read by static/js/letters.js (editions.py's Edition.split), which the page loads before it. The
// engine is the oracle: tests/scoring/test_score_rules_js.py runs every function here under node against it.
globalThis.ScoreRules = (() => {
  "use strict";

  const { RuleError, strip, splitWords } = Letters;

  // ---- errors.py: a refusal's sentence. ----

  /** Python's `template % values` for `%(name)s` and `%(name)d`. */
  function format(template, values) {
    const value = (name, kind) => String(kind === "d" ? Math.trunc(values[name]) : values[name]);
    return template.replace(/%(?:\((\w+)\)([sd])|%)/g, (_all, name, kind) => (name ? value(name, kind) : "%"));
  }

  /** ngettext for the page's texts: a sentence with a plural comes in the forms Intl.PluralRules names ({one,
   * other} in French, whose "one" takes 0 and 1, as the catalog's Plural-Forms), chosen by the rule of `locale`,
   * the page's language; a sentence without a plural is itself. */
  function plural(sentence, count, locale) {
    if (typeof sentence === "string") return sentence;
    return sentence[new Intl.PluralRules(locale).select(count)] ?? sentence.other;
  }

  /** A sentence as it reads after a colon: its first letter in lowercase, unless its first word is in capitals. */
  function clause(text) {
    const word = text.split(" ", 1)[0];
    if ([...word].length > 1 && word.toUpperCase() === word) return text;
    const [first = ""] = text;
    return first.toLowerCase() + text.slice(first.length);
  }

  /** The refusal in the page's words, what was typed `shown`; a replay's move gives its own reason after a colon. */
  function message(error, texts) {
    const values = { ...error.values };
    if (values.reason instanceof RuleError) values.reason = clause(message(values.reason, texts));
    return shown(Object.keys(values).length ? format(texts[error.sentence], values) : texts[error.sentence], texts);
  }

  /** The grid page's line for a kept move the board no longer takes (another edition, a line deleted under it). */
  function refusedMove(refusal, texts) {
    return message(new RuleError("offBoard", refusal.values), texts);
  }

  // ---- Python's int() of digits, which the engine reads a coordinate with. ----

  const isDigit = (char) => /^\p{Nd}$/u.test(char);
  // clubsite.text.shown: a character that shows nothing, turns the text or piles up (`hidden`) as its code, [U+200B].
  const shown = (text, { hidden }) =>
    text.replace(RegExp(hidden, "gu"), (c) => `[U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}]`);

  /** int() of decimal digits of any script: Unicode lays each script's digits out in runs from 0 to 9. */
  function digitsValue(text) {
    let value = 0;
    for (const char of text) {
      let point = char.codePointAt(0);
      let digit = 0;
      while (isDigit(String.fromCodePoint(point - 1))) {
        point -= 1;
        digit += 1;
      }
      value = value * 10 + (digit % 10);
    }
    return value;
  }

  /** Scoring for one edition under one rule set, with the page's figures (counter_figures). */
  function forEdition(figures, code, rules = figures.rules) {
    const edition = figures.editions.find((candidate) => candidate.code === code);
    if (!edition) throw new Error(`no edition "${code}" in the page's figures`);
    const { notation } = figures;
    const { size: SIZE, rows: ROWS, center: CENTER } = figures.board;
    const premiums = figures.board.squares.map((kind) => figures.board.premiums[kind]);
    const LETTER_MULTIPLIERS = premiums.map((premium) => premium.letter);
    const WORD_MULTIPLIERS = premiums.map((premium) => premium.word);

    // ---- editions.py: the edition's tiles and Edition.split (static/js/letters.js). ----

    const hasTile = (letter) => Letters.hasTile(edition, letter);
    const value = (letter, blank = false) => Letters.value(edition, letter, blank);
    /** A written word as tiles, [{letter, blank}, …]. */
    const split = (text) => Letters.split(text, edition, notation).map(([letter, blank]) => ({ letter, blank }));

    // ---- board.py: squares and FISF coordinates. ----

    const squareName = (index) => `${ROWS[Math.floor(index / SIZE)]}${(index % SIZE) + 1}`;
    const squareIndex = (name) => ROWS.indexOf(name[0]) * SIZE + Number(name.slice(1)) - 1;
    const formatCoordinate = (row, col, horizontal) =>
      horizontal ? `${ROWS[row]}${col + 1}` : `${col + 1}${ROWS[row]}`;
    const COORDINATE = new RegExp(`^(?:([${ROWS}])(\\p{Nd}{1,2})|(\\p{Nd}{1,2})([${ROWS}]))$`, "u");

    /** 'H4' (letter first: horizontal) or '4H' (number first: vertical) → [row, column, horizontal]. */
    function parseCoordinate(text) {
      const match = COORDINATE.exec(strip(text).toUpperCase());
      if (!match) throw new RuleError("badCoordinate", { text });
      const [rowLetter, colText] = match[1] ? [match[1], match[2]] : [match[4], match[3]];
      const col = digitsValue(colText);
      if (col < 1 || col > SIZE) throw new RuleError("columnOff", { text });
      return [ROWS.indexOf(rowLetter), col - 1, Boolean(match[1])];
    }

    // ---- moves.py: a move on a board, its words and its score. ----

    const written = (tile) => (tile.blank ? tile.letter.toLowerCase() : tile.letter);
    const writeWord = (tiles) => tiles.map(written).join("");
    const hasPrevious = (index, step) => (step === 1 ? index % SIZE !== 0 : index >= SIZE);
    const hasNext = (index, step) => (step === 1 ? index % SIZE !== SIZE - 1 : index < SIZE * (SIZE - 1));
    const nextSquare = (index, step) => (index < 0 || !hasNext(index, step) ? -1 : index + step);
    /** A tile in place just before or after `index` along `step`. */
    const touches = (board, index, step) =>
      (hasPrevious(index, step) && board.cells[index - step] !== null) ||
      (hasNext(index, step) && board.cells[index + step] !== null);

    /** The calculation as the seeds write it: '(1 + 3 × 2 + 1) × 2 = 12', '0 × 3 + 1 + 10 + 1 = 12'. */
    function formatCalculation(terms, wordMultiplier, score) {
      const total = terms.map(([face, mult]) => (mult > 1 ? `${face} × ${mult}` : String(face))).join(" + ");
      return wordMultiplier > 1 ? `(${total}) × ${wordMultiplier} = ${score}` : `${total} = ${score}`;
    }

    function wordScore(start, horizontal, tiles, terms, wordMultiplier, score) {
      return {
        start,
        horizontal,
        tiles,
        terms,
        wordMultiplier,
        score,
        word: writeWord(tiles),
        calculation: formatCalculation(terms, wordMultiplier, score),
        coordinate: formatCoordinate(Math.floor(start / SIZE), start % SIZE, horizontal),
      };
    }

    const newBoard = () => ({ cells: Array(SIZE * SIZE).fill(null), tileCount: 0 });
    const moveNotation = (move) => `${formatCoordinate(move.row, move.col, move.horizontal)} ${writeWord(move.tiles)}`;

    /** Move.parse: 'H4 VAGUE' or '4G AVIONS', the whole word written; all in lowercase beyond the bag's blanks, it
     * was typed without capitals. */
    function parseMove(text) {
      const parts = splitWords(text);
      if (parts.length < 2) throw new RuleError("moveUnreadable", { text: strip(text) });
      if (parts.length > 2) throw new RuleError("moveSpace", { text: strip(text) });
      const [row, col, horizontal] = parseCoordinate(parts[0]);
      let word = parts[1];
      if (word === word.toLowerCase() && [...word].filter((char) => /\p{L}/u.test(char)).length > edition.blanks) {
        word = word.toUpperCase();
      }
      return { row, col, horizontal, tiles: split(word) };
    }

    /** Board.evaluate: a move written in notation, validated and scored, the board left as it was. */
    function evaluate(board, move) {
      const length = move.tiles.length;
      const notationText = moveNotation(move);
      if (length < 2) throw new RuleError("tooShort", { move: notationText });
      const along = move.horizontal ? move.col : move.row;
      if (along + length > SIZE) {
        const start = formatCoordinate(move.row, move.col, move.horizontal);
        throw new RuleError("offGrid", { move: notationText, length, start });
      }
      const step = move.horizontal ? 1 : SIZE;
      const start = move.row * SIZE + move.col;
      const { cells } = board;
      const placed = new Map();
      let index = start;
      for (const tile of move.tiles) {
        const current = cells[index];
        if (current === null) placed.set(index, tile);
        else if (current.letter !== tile.letter) {
          throw new RuleError("boardDiffers", {
            square: squareName(index), on_board: current.letter, letter: tile.letter,
          });
        }
        index += step;
      }
      const end = start + (length - 1) * step;
      for (const [neighbour, inside] of [[start - step, along > 0], [end + step, along + length < SIZE]]) {
        if (inside && cells[neighbour] !== null) {
          throw new RuleError("wordContinues", { square: squareName(neighbour) });
        }
      }
      checkPlacement(board, placed, start, step, length);
      return score(board, move, placed, start, step, length);
    }

    /** Board.evaluate_tiles: tiles laid on squares (grid mode), `placements` a Map of square → tile in the order
     * they were laid; `horizontal` says which way a single tile's main word runs when it forms words both ways. */
    function evaluateTiles(board, placements, horizontal = null) {
      if (!placements.size) throw new RuleError("noTile");
      const { cells } = board;
      for (const index of placements.keys()) {
        if (cells[index] !== null) throw new RuleError("occupied", { square: squareName(index) });
      }
      const rows = new Set([...placements.keys()].map((index) => Math.floor(index / SIZE)));
      const cols = new Set([...placements.keys()].map((index) => index % SIZE));
      if (rows.size > 1 && cols.size > 1) throw new RuleError("notOneLine");
      if (placements.size === 1) horizontal = singleTileDirection(board, [...placements.keys()][0], horizontal);
      else horizontal = rows.size === 1;
      const step = horizontal ? 1 : SIZE;
      let first = Math.min(...placements.keys());
      let last = Math.max(...placements.keys());
      for (let index = first; index < last; index += step) {
        if (!placements.has(index) && cells[index] === null) throw new RuleError("gap", { square: squareName(index) });
      }
      while (hasPrevious(first, step) && cells[first - step] !== null) first -= step;
      while (hasNext(last, step) && cells[last + step] !== null) last += step;
      const length = (last - first) / step + 1;
      checkPlacement(board, placements, first, step, length);
      const tiles = [];
      for (let index = first; index <= last; index += step) tiles.push(placements.get(index) ?? cells[index]);
      const move = { row: Math.floor(first / SIZE), col: first % SIZE, horizontal, tiles };
      return score(board, move, placements, first, step, length);
    }

    function singleTileDirection(board, index, preferred) {
      const across = touches(board, index, 1);
      const down = touches(board, index, SIZE);
      if (across && down) return preferred === null ? true : preferred;
      return across || !down;
    }

    function checkPlacement(board, placed, start, step, length) {
      if (!placed.size) throw new RuleError("nothingNew");
      if (placed.size > rules.rack_size) {
        throw new RuleError("overRack", { count: placed.size, rack: rules.rack_size });
      }
      if (board.tileCount === 0) {
        const coversCenter = start <= CENTER && CENTER <= start + (length - 1) * step && (CENTER - start) % step === 0;
        if (!coversCenter || length < 2) throw new RuleError("firstMove");
        return;
      }
      if (length > placed.size) return;
      const cross = SIZE + 1 - step;
      if (![...placed.keys()].some((index) => touches(board, index, cross))) throw new RuleError("notTouching");
    }

    function score(board, move, placed, start, step, length) {
      const { cells } = board;
      const words = [lineScore(board, start, step, length, placed)];
      const cross = SIZE + 1 - step;
      for (const [index, tile] of placed) {
        let first = index;
        while (hasPrevious(first, cross) && cells[first - cross] !== null) first -= cross;
        let last = index;
        while (hasNext(last, cross) && cells[last + cross] !== null) last += cross;
        if (first === last) continue;
        words.push(lineScore(board, first, cross, (last - first) / cross + 1, new Map([[index, tile]])));
      }
      const bonus = placed.size === rules.rack_size ? rules.bingo_bonus : 0;
      const total = words.reduce((sum, word) => sum + word.score, 0) + bonus;
      const tilesPlaced = placed.size;
      return { move, notation: moveNotation(move), placed: [...placed], words, bonus, score: total, tilesPlaced };
    }

    /** One word along a line: premiums only under the tiles placed this move, a blank worth 0. */
    function lineScore(board, start, step, length, placed) {
      const tiles = [];
      const terms = [];
      let total = 0;
      let wordMultiplier = 1;
      let index = start;
      for (let k = 0; k < length; k += 1) {
        const tile = placed.get(index) ?? board.cells[index];
        const letterMultiplier = placed.has(index) ? LETTER_MULTIPLIERS[index] : 1;
        if (placed.has(index)) wordMultiplier *= WORD_MULTIPLIERS[index];
        const face = value(tile.letter, tile.blank);
        terms.push([face, letterMultiplier]);
        total += face * letterMultiplier;
        tiles.push(tile);
        index += step;
      }
      return wordScore(start, step === 1, tiles, terms, wordMultiplier, total * wordMultiplier);
    }

    /** Board.play: the move validated, scored and laid. */
    function play(board, move) {
      const played = evaluate(board, move);
      for (const [index, tile] of played.placed) board.cells[index] = tile;
      board.tileCount += played.placed.length;
      return played;
    }

    /** replay: the board from moves in notation, in order; a move the board refuses is set aside with its number
     * (a RuleError "replay", its reason the board's), the next ones laid without it. */
    function replay(moves) {
      const board = newBoard();
      const result = { board, plays: [], laid: [], refused: [] };
      moves.forEach((text, i) => {
        try {
          result.plays.push(play(board, parseMove(text)));
          result.laid.push(text);
        } catch (error) {
          if (!(error instanceof RuleError)) throw error;
          result.refused.push(new RuleError("replay", { number: i + 1, move: text, reason: error }));
        }
      });
      return result;
    }

    /** lay_letters: grid mode's typing, each tile on the next free square of the line from `start`; a covered
     * square is passed over, and a typed letter equal to the covered square's is read as that letter. */
    function layLetters(board, start, horizontal, tiles) {
      const step = horizontal ? 1 : SIZE;
      const placements = new Map();
      const { cells } = board;
      let index = start;
      for (const tile of tiles) {
        let readThrough = false;
        while (index >= 0 && cells[index] !== null) {
          const onBoard = cells[index];
          index = nextSquare(index, step);
          if (onBoard.letter === tile.letter) { readThrough = true; break; }
        }
        if (readThrough) continue;
        if (index < 0) throw new RuleError("lettersOff");
        placements.set(index, tile);
        index = nextSquare(index, step);
      }
      return placements;
    }

    // ---- typed.py: words typed tile by tile, each told its square. ----

    /** score_typed: `words` lists of {letter, square, on_board, blank}; empty words are left out. */
    function scoreTyped(words) {
      words = words.filter((word) => word.length);
      if (words.length > 1 + notation.max_secondary_words) throw new RuleError("tooManyWords");
      const scored = [];
      let tilesPlaced = 0;
      for (const word of words) {
        if (word.length > notation.max_word_tiles) throw new RuleError("wordTooLong");
        scored.push(typedWordScore(word));
        tilesPlaced = Math.max(tilesPlaced, word.filter((tile) => !tile.on_board).length);
      }
      const bonus = tilesPlaced === rules.rack_size ? rules.bingo_bonus : 0;
      const total = scored.reduce((sum, word) => sum + word.score, 0) + bonus;
      return { words: scored, tilesPlaced, bonus, score: total, tooManyTiles: tilesPlaced > rules.rack_size };
    }

    function typedWordScore(word) {
      const terms = [];
      const tiles = [];
      let total = 0;
      let wordMultiplier = 1;
      for (const typed of word) {
        const blank = typed.blank || !hasTile(typed.letter);
        const face = value(typed.letter, blank);
        const premium = figures.board.premiums[typed.square];
        const letterMultiplier = typed.on_board ? 1 : premium.letter;
        if (!typed.on_board) wordMultiplier *= premium.word;
        terms.push([face, letterMultiplier]);
        total += face * letterMultiplier;
        tiles.push({ letter: typed.letter, blank });
      }
      return wordScore(0, true, tiles, terms, wordMultiplier, total * wordMultiplier);
    }

    // ---- The counter's form (scoring/forms.py) and its result (scoring/views.py). ----

    const PLAIN = ["simple", false, false];

    /** A word box: its tiles, each with its settings [square, on_board, blank] by position, or its refusal. Phones
     * type lowercase: a blank is set on the tile, not by the letter's case. */
    function readWord(text, settings = []) {
      const word = { text, tiles: [], error: null };
      if (!strip(text)) return word;
      let letters;
      try {
        letters = split(text.toUpperCase());
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        word.error = error;
        return word;
      }
      letters.forEach(({ letter, blank: writtenBlank }, j) => {
        const [square, onBoard, blank] = settings[j] ?? PLAIN;
        const forced = !hasTile(letter);
        word.tiles.push({
          letter, square, on_board: onBoard, blank: blank || writtenBlank, forced_blank: forced, value: value(letter),
          shown: blank || writtenBlank || forced ? letter.toLowerCase() : letter,
        });
      });
      return word;
    }

    /** _follow_letters: the settings were given for the word `was`; each follows its letter to its new place in
     * `text` (difflib's matching blocks), a new letter starts plain. */
    function followSettings(settings, was, text) {
      if (!was || was === text) return settings;
      let before;
      let after;
      try {
        before = split(was.toUpperCase()).map((tile) => tile.letter);
        after = split(text.toUpperCase()).map((tile) => tile.letter);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        return settings;
      }
      const followed = Array(notation.max_word_tiles).fill(PLAIN);
      for (const [a, b, blockSize] of matchingBlocks(before, after)) {
        for (let k = 0; k < blockSize; k += 1) {
          if (b + k < notation.max_word_tiles && a + k < settings.length) followed[b + k] = settings[a + k];
        }
      }
      return followed;
    }

    /** views._result: the typed words scored, each word's score by its box; null while a box is refused or none
     * holds a letter; {error} when the words cannot be counted together. */
    function countTyped(words) {
      if (!words.some((word) => word.tiles.length) || words.some((word) => word.error)) return null;
      let result;
      try {
        const typed = (tile) => ({ ...tile, blank: tile.blank || tile.forced_blank });
        result = scoreTyped(words.map((word) => word.tiles.map(typed)));
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        return { error };
      }
      const scored = result.words[Symbol.iterator]();
      return { ...result, byWord: words.map((word) => (word.tiles.length ? scored.next().value : null)) };
    }

    /** CounterState.new_tiles: the tiles the move brings from the rack, those of the word with the most new ones. */
    function newTiles(words) {
      let most = [];
      for (const word of words) {
        const fresh = word.tiles.filter((tile) => !tile.on_board);
        if (fresh.length > most.length) most = fresh;
      }
      return most.map((tile) => (tile.blank || tile.forced_blank ? notation.blank : tile.letter));
    }

    /** views._detail_text: "Copier le détail", in the page's texts. */
    function detailText(result, texts) {
      if (!result || result.error) return "";
      const say = (name, count, values) => format(plural(texts[name], count, texts.locale), values);
      const lines = result.byWord.filter(Boolean).map((word) => `${word.word} : ${word.calculation}`);
      lines.push(`${texts.tilesPlaced} : ${result.tilesPlaced}`);
      if (result.bonus) lines.push(say("bonus", result.tilesPlaced, { count: result.tilesPlaced, bonus: result.bonus }));
      lines.push(result.tooManyTiles ? texts.tooManyTiles : say("total", result.score, { score: result.score }));
      return lines.join("\n");
    }

    /** GridForm.clean_start: the start square as typed, its index, or a refusal saying how a square is written. */
    function readStart(text) {
      text = strip(text).toUpperCase();
      if (!text) return null;
      const square = new RegExp(`^([${ROWS}])([1-9][0-9]?)$`).exec(text);
      if (square && Number(square[2]) <= SIZE) return ROWS.indexOf(square[1]) * SIZE + Number(square[2]) - 1;
      const chars = [...text];
      if (/^\p{Nd}{1,2}[A-Z]$/u.test(text)) {
        throw new RuleError("startSwapped", { start: text, swapped: chars.at(-1) + chars.slice(0, -1).join("") });
      }
      throw new RuleError("startUnknown", { start: text });
    }

    const blankMark = (index, tile) => `${squareName(index)}${tile.letter}`;

    /** GridForm.pending: the move typed on the grid from its fields (start, horizontal, letters, blanks: the joker
     * marks `H8M,H9O`): where its tiles go, its play, or its refusal; `blankMarks` the marks it still uses. */
    function pending(board, { start: startText = "", horizontal = true, letters = "", blanks = "" }) {
      const move = { start: null, placements: new Map(), play: null, error: null, blankMarks: "" };
      try {
        move.start = readStart(startText);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        move.error = error;
        return move;
      }
      if (move.start === null || !strip(letters)) return move;
      const marks = new Set(blanks.split(",").map(strip).filter(Boolean).map((mark) => mark.toUpperCase()));
      try {
        const laid = layLetters(board, move.start, horizontal, split(letters.toUpperCase()));
        for (const [index, tile] of laid) {
          move.placements.set(index, { ...tile, blank: tile.blank || marks.has(blankMark(index, tile)) });
        }
        move.play = evaluateTiles(board, move.placements, horizontal);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        move.error = error;
      }
      const jokers = [...move.placements].filter(([, tile]) => tile.blank);
      move.blankMarks = jokers.map(([index, tile]) => blankMark(index, tile)).join(",");
      return move;
    }

    // ---- tracking.py: "Jetons encore à venir". ----

    /** The full set minus `tiles` (a blank counts as `?`); `overplayed` where the board holds more than the set. */
    function track(tiles) {
      const played = {};
      for (const tile of tiles) {
        const key = tile.blank ? notation.blank : tile.letter;
        played[key] = (played[key] ?? 0) + 1;
      }
      const remaining = {};
      for (const [letter, count] of Object.entries(edition.counts)) {
        remaining[letter] = Math.max(0, count - (played[letter] ?? 0));
      }
      const overplayed = {};
      for (const [letter, number] of Object.entries(played)) {
        const inSet = edition.counts[letter] ?? 0;
        if (number > inSet) overplayed[letter] = [number, inSet];
      }
      const unseen = Object.values(remaining).reduce((sum, count) => sum + count, 0);
      return { remaining, overplayed, unseen, inBag: (players) => Math.max(0, unseen - rules.rack_size * players) };
    }

    return {
      edition, rules, split, squareName, squareIndex, parseCoordinate, formatCalculation, newBoard, parseMove, evaluate,
      evaluateTiles, play, replay, layLetters, scoreTyped, readWord, followSettings, countTyped, newTiles, detailText,
      readStart, pending, track,
    };
  }

  // ---- difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks(), as _follow_letters uses it. ----

  function longestMatch(a, b, b2j, alo, ahi, blo, bhi) {
    let [besti, bestj, bestSize] = [alo, blo, 0];
    let j2len = new Map();
    for (let i = alo; i < ahi; i += 1) {
      const next = new Map();
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestSize) [besti, bestj, bestSize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    return [besti, bestj, bestSize];
  }

  function matchingBlocks(a, b) {
    const b2j = new Map();
    b.forEach((element, j) => b2j.set(element, [...(b2j.get(element) ?? []), j]));
    const queue = [[0, a.length, 0, b.length]];
    const blocks = [];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop();
      const [i, j, k] = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
      if (!k) continue;
      blocks.push([i, j, k]);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
    blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    const joined = [];
    let [i1, j1, k1] = [0, 0, 0];
    for (const [i2, j2, k2] of blocks) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1) joined.push([i1, j1, k1]);
        [i1, j1, k1] = [i2, j2, k2];
      }
    }
    if (k1) joined.push([i1, j1, k1]);
    joined.push([a.length, b.length, 0]);
    return joined;
  }

  return { RuleError, format, plural, clause, message, refusedMove, strip, forEdition };
})();
