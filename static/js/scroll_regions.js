// A table wider than the screen scrolls sideways inside its `.table-scroll` box. While it does, the box joins the
// keyboard's tab order, so that the arrow keys can scroll it (without the mouse, its hidden columns could not be
// reached: axe's rule "scrollable-region-focusable"); once the table fits again, the box leaves the tab order.
(() => {
  function mark() {
    for (const box of document.querySelectorAll(".table-scroll")) {
      const scrolls = box.scrollWidth > box.clientWidth;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.tabIndex = 0;
        box.dataset.scrollFocus = "";
      } else if (!scrolls && "scrollFocus" in box.dataset) {
        box.removeAttribute("tabindex");
        delete box.dataset.scrollFocus;
      }
    }
  }

  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  window.addEventListener("resize", mark);
})();
