// Paper is white: a page read in dark mode prints in the light colours, then goes back to dark.
(function () {
  const root = document.documentElement;
  let before = null;
  function toPaper() {
    if (before !== null) return;
    before = root.dataset.theme || "";
    root.dataset.theme = "light";
  }
  function back() {
    if (before === null) return;
    if (before) root.dataset.theme = before;
    else delete root.dataset.theme;
    before = null;
  }
  window.addEventListener("beforeprint", toPaper);
  window.addEventListener("afterprint", back);
  const print = window.matchMedia && window.matchMedia("print");
  if (print) print.addEventListener("change", (event) => (event.matches ? toPaper() : back()));
})();
