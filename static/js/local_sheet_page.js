// The sheet kept in the browser (static/js/local_sheet.js puts its parts together): what every part shares, read
// once from the page. Its config (sheets/local.py's browser_config: the admin's rule sets and editions, the engine's
// notation, the limits), its French texts (#local-texts' data-* attributes), its elements, the sentences written
// from them, and the short message at the foot of the screen.
globalThis.LocalSheet ??= {};

LocalSheet.page = (root) => {
  "use strict";

  const config = JSON.parse(document.getElementById("local-sheet-config").textContent);
  const text = document.getElementById("local-texts").dataset;
  const lang = document.documentElement.lang || "fr";

  const $ = (id) => document.getElementById(id);

  /** A sentence of the template with its %(name)s and %(name)d placeholders filled and %% a %, as Python's % does. */
  function format(template, values = {}) {
    return template.replace(/%\((\w+)\)[sd]|%%/g, (match, key) => (match === "%%" ? "%" : String(values[key])));
  }

  /** The page's sentence `name` for `count` points: French takes the singular for 0 and 1 (its `name`One). */
  const forCount = (name, count) => text[Math.abs(count) < 2 && text[`${name}One`] ? `${name}One` : name];

  /** A refusal (static/js/letters.js's RuleError) as the page writes it. */
  const sentence = (error) => format(text[error.sentence], error.values);

  /** A copy of the page's <template id="…">. */
  function clone(id) {
    return $(id).content.firstElementChild.cloneNode(true);
  }

  function formatDate(iso, withTime = false) {
    const options = withTime ? { dateStyle: "long", timeStyle: "short" } : { dateStyle: "long" };
    return new Date(iso).toLocaleString(lang, options);
  }

  /** A field's message under it, or none: `id` is the field's, its message's is `id`-error. */
  function fieldError(id, message) {
    const node = $(`${id}-error`);
    node.textContent = message || "";
    node.hidden = !message;
    $(id).setAttribute("aria-invalid", message ? "true" : "false");
  }

  let toastTimer = null;
  let undoToast = null;

  /** A short message at the foot of the screen; with `undo`, an "Annuler" beside it that calls it. */
  function toast(message, { error = false, undo = null } = {}) {
    const node = $("toast");
    node.textContent = message;
    node.classList.toggle("error", error);
    node.hidden = false;
    undoToast = undo;
    $("toast-undo").hidden = !undo;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      node.hidden = true;
      $("toast-undo").hidden = true;
      undoToast = null;
    }, undo ? 10000 : 4000);
  }

  $("toast-undo").addEventListener("click", () => {
    const undo = undoToast;
    undoToast = null;
    $("toast-undo").hidden = true;
    if (undo) undo();
  });

  return {
    root,
    config,
    text,
    lang,
    limits: config.limits,
    notation: config.notation,
    rulesByCode: Object.fromEntries(config.rules.map((rules) => [rules.code, rules])),
    editionsByCode: Object.fromEntries(config.editions.map((edition) => [edition.code, edition])),
    $,
    format,
    forCount,
    sentence,
    clone,
    formatDate,
    fieldError,
    toast,
  };
};
