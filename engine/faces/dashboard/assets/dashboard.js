// printpost dashboard: small progressive enhancement, served by the engine (no inline script).
// - forms with data-confirm ask before submitting (cancel, revoke);
// - elements with data-refresh reload the page every N seconds while it is visible (a piece being
//   rendered shows its thumbnails when they appear).
(function () {
  'use strict';
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });
  var refresh = document.querySelector('[data-refresh]');
  if (refresh) {
    var seconds = Number(refresh.getAttribute('data-refresh')) || 3;
    window.setTimeout(function () {
      if (document.visibilityState === 'visible') window.location.reload();
    }, seconds * 1000);
  }
})();
