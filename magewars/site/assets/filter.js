// Card list filters: show the rows whose data-* attributes match every chosen filter.
// The choice is kept in the address (?set=Core&type=creature) so a filtered list can be linked.
(function () {
  "use strict";
  var form = document.getElementById("card-filters");
  var table = document.getElementById("card-table");
  var status = document.getElementById("filter-status");
  if (!form || !table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var keys = ["set", "type", "school", "trait"];
  var attr = { set: "set", type: "type", school: "school", trait: "traits" };

  function chosen() {
    var out = {};
    keys.forEach(function (k) { out[k] = form.elements[k].value; });
    out.name = form.elements.name.value.trim().toLowerCase();
    return out;
  }

  function apply(updateUrl) {
    var c = chosen();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = keys.every(function (k) {
        if (!c[k]) { return true; }
        var values = (row.getAttribute("data-" + attr[k]) || "").split("|");
        return values.indexOf(c[k]) !== -1;
      });
      if (ok && c.name) { ok = row.getAttribute("data-name").indexOf(c.name) !== -1; }
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    status.textContent = shown + (shown === 1 ? " card." : " cards.") + (shown < rows.length ? " Filtered from " + rows.length + "." : "");
    if (updateUrl && window.history && window.history.replaceState) {
      var params = new URLSearchParams();
      keys.concat(["name"]).forEach(function (k) { if (form.elements[k].value) { params.set(k, form.elements[k].value); } });
      var q = params.toString();
      window.history.replaceState(null, "", window.location.pathname + (q ? "?" + q : ""));
    }
  }

  var params = new URLSearchParams(window.location.search);
  keys.concat(["name"]).forEach(function (k) {
    var v = params.get(k);
    if (v !== null) { form.elements[k].value = v; }
  });
  form.addEventListener("input", function () { apply(true); });
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("reset", function () { window.setTimeout(function () { apply(true); }, 0); });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); apply(true); });
  apply(false);
}());
