// The template editor's live preview: as the HTML or the product, size or side changes, the preview
// form is posted again into its frame (what the Preview button does without JavaScript), at most once
// every 700 ms; the size and side lists follow the product. Served by the engine; no inline script.
(function () {
  'use strict';
  var form = document.getElementById('template-editor');
  var button = document.getElementById('preview-button');
  if (!form || !button) return;
  var sizes = JSON.parse(form.getAttribute('data-sizes') || '{}');
  var sides = JSON.parse(form.getAttribute('data-sides') || '{}');
  var timer = null;
  function refill(select, values) {
    var keep = select.value;
    while (select.firstChild) select.removeChild(select.firstChild);
    values.forEach(function (value) {
      var option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      if (value === keep) option.selected = true;
      select.appendChild(option);
    });
  }
  function preview() {
    timer = null;
    if (form.requestSubmit) form.requestSubmit(button);
    else button.click();
  }
  function later() {
    if (timer) window.clearTimeout(timer);
    timer = window.setTimeout(preview, 700);
  }
  form.addEventListener('input', later);
  form.elements.product.addEventListener('change', function () {
    var product = form.elements.product.value;
    refill(form.elements.size, sizes[product] || []);
    refill(form.elements.side, sides[product] || []);
    form.elements.side.selectedIndex = form.elements.side.options.length - 1;
    later();
  });
})();
