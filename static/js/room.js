// The room's ranking, a page of rows at a time for a large room: every 8 seconds the next page shows, so a
// room of 100 players or more reads its places from the back without anyone touching the screen.
(() => {
  let page = 0;
  const show = () => {
    const table = document.querySelector(".room-ranking .ranking");
    if (!table) return;
    const size = Number(table.dataset.pageSize) || 20;
    const rows = [...table.tBodies[0].rows];
    const pages = Math.max(1, Math.ceil(rows.length / size));
    page %= pages;
    rows.forEach((row, index) => { row.hidden = Math.floor(index / size) !== page; });
  };
  setInterval(() => { page += 1; show(); }, 8000);
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("DOMContentLoaded", show);
})();
