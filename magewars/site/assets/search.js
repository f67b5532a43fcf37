// Offline full-text search with Pagefind's own UI; ?q=... (from the header box) runs a search at once.
(function () {
  "use strict";
  if (window.location.protocol === "file:") {
    var hint = document.getElementById("file-hint");
    if (hint) { hint.hidden = false; }
  }
  if (typeof PagefindUI === "undefined") {
    var el = document.getElementById("search");
    if (el) { el.textContent = "The search index is missing: rebuild the site without --no-search."; }
    return;
  }
  var ui = new PagefindUI({ element: "#search", showSubResults: true, showImages: false,
                            translations: { placeholder: "Search cards, terms, rules and rulings" } });
  var q = new URLSearchParams(window.location.search).get("q");
  if (q) { ui.triggerSearch(q); }
}());
