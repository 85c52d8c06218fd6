// Times scrabble-solver (npm, TypeScript compiled to JavaScript) on the positions bench_movegen times our top finder
// on: `node scrabble_solver.js NODE_MODULES_DIR INPUT.json` prints JSON figures on stdout.
//
// INPUT.json: {"words": path of the word list (one lowercase word a line), "positions": [{"board": 15 rows of 15
// cells, each null or [letter, isBlank], "racks": {"0": "abc", "1": "ab ", ...}}]}, a blank in a rack written " ".
// Output: {"load_ms": building its GADDAG of the words, "times": {"0": [ms, ...], ...}, "wall_times": {...},
// "moves": {...}, "best": {...}} with, for each rack in the order given, the CPU time of one `solve` (the process's,
// its collector's threads included), its elapsed time, its count of moves and the best score among them.
"use strict";

const fs = require("fs");
const path = require("path");

const modules = path.resolve(process.argv[2]);
const load = (name) => require(path.join(modules, name));
const { buildGaddag } = load("@kamilmielnik/gaddag");
const { solve } = load("@scrabble-solver/solver");
const { Board, Tile } = load("@scrabble-solver/types");
const { languages } = load("@scrabble-solver/configs");

const input = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const config = languages.frenchScrabble;

let started = process.hrtime.bigint();
const words = fs.readFileSync(input.words, "utf8").split("\n").filter(Boolean);
const gaddag = buildGaddag(words);
const loadMs = Number(process.hrtime.bigint() - started) / 1e6;

const tilesOf = (rack) => [...rack].map((character) => new Tile({ character, isBlank: character === " " }));
const boardOf = (rows) =>
  Board.fromJson(
    rows.map((row, y) =>
      row.map((cell, x) => ({
        isEmpty: cell === null,
        tile: cell === null ? null : { character: cell[0], isBlank: cell[1] },
        x,
        y,
      })),
    ),
  );

// V8 compiles the solver while it runs: one solve of each rack of the first position first, untimed, as our
// bench leaves out the first search that loads the compiled code.
for (const rack of Object.values(input.positions[0].racks)) {
  solve(gaddag, config, boardOf(input.positions[0].board), tilesOf(rack));
}

const times = {};
const wallTimes = {};
const moves = {};
const best = {};
for (const position of input.positions) {
  const board = boardOf(position.board);
  for (const [blanks, rack] of Object.entries(position.racks)) {
    const tiles = tilesOf(rack);
    const cpu = process.cpuUsage();
    started = process.hrtime.bigint();
    const results = solve(gaddag, config, board, tiles);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    const used = process.cpuUsage(cpu);
    (times[blanks] ||= []).push((used.user + used.system) / 1000);
    (wallTimes[blanks] ||= []).push(elapsed);
    (moves[blanks] ||= []).push(results.length);
    (best[blanks] ||= []).push(results.reduce((highest, result) => Math.max(highest, result.points), 0));
  }
}
process.stdout.write(JSON.stringify({ load_ms: loadMs, times, wall_times: wallTimes, moves, best }));
