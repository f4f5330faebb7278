// Script every web face's pages share, put in the face's own script file: the copy button beside a key
// or a link shown once (hidden until the script runs, so that a page without it offers only the text).

export const COPY_BUTTON_SCRIPT = `
(function () {
  document.querySelectorAll('[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var field = document.getElementById(button.getAttribute('data-copy'));
      var status = document.getElementById(button.getAttribute('data-status'));
      field.select();
      var done = function () { if (status) status.textContent = button.getAttribute('data-done'); };
      if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    });
  });
})();
`;
