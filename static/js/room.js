// The room's ranking, a page of rows at a time: as many rows as the screen shows below the ranking's heading
// (every row of a small room at once), the next page every 8 seconds, so that a room of 100 players or more
// reads its places from the back without anyone touching the screen.
(() => {
  let page = 0;
  const pageSize = (table) => {
    const box = table.closest(".ranking-box");
    const rows = [...table.tBodies[0].rows];
    if (!box || !rows.length || getComputedStyle(box).overflow !== "hidden") return rows.length || 1;
    rows.forEach((row) => { row.hidden = false; });
    const room = box.clientHeight - table.tHead.offsetHeight;
    const height = rows[0].offsetHeight || 1;
    return Math.max(1, Math.floor(room / height));
  };
  const show = () => {
    const table = document.querySelector(".room-ranking .ranking");
    if (!table) return;
    const size = pageSize(table);
    const rows = [...table.tBodies[0].rows];
    const pages = Math.max(1, Math.ceil(rows.length / size));
    page %= pages;
    rows.forEach((row, index) => { row.hidden = Math.floor(index / size) !== page; });
    const count = document.querySelector(".room-page-count");
    if (count) count.textContent = pages > 1 ? `${page + 1}/${pages} ·` : "";
  };
  setInterval(() => { page += 1; show(); }, 8000);
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("DOMContentLoaded", show);
  window.addEventListener("resize", show);
})();
