// The language switch (tafl_sphinx.language) leads to the same page in another language; this
// carries the address's query and fragment with it, so that a share link not yet opened, or the
// section being read, comes along. The game on a board needs nothing: a page and its translation
// keep their games under one key (the page's hreflang="x-default" address).
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-tafl-language]");
  if (!link) return;
  const target = new URL(link.getAttribute("href"), location.href);
  target.search = location.search;
  target.hash = location.hash;
  link.href = target.href;
});
