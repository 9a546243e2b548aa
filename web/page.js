// index.html's only script: passes ?engine=scalar|simd and ?section=... from the URL to the element.
// The element validates both and shows a clear message for a bad value.
'use strict';
(() => {
  const params = new URLSearchParams(location.search);
  const lab = document.getElementById('lab');
  if (params.has('engine')) lab.setAttribute('engine', params.get('engine'));
  if (params.has('section')) lab.setAttribute('section', params.get('section'));
})();
