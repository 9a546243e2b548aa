// other-origin.html's elements: one with no engine-base (the script's own folder, loaded first), then
// engine-base as protocol-relative //localhost:port/ with engine="scalar", and as http://localhost:port/.
// With ?allow the page's own script allows http://localhost:port/ first, as a host that means it would.
'use strict';
const other = `http://localhost:${location.port}/`;
if (location.search === '?allow') AttentionLab.configure({ allowBases: [other] });
document.addEventListener('DOMContentLoaded', () => {
  const add = (id, attrs) => {
    const el = document.createElement('attention-lab');
    el.id = id;
    el.setAttribute('section', 'multi-head');
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    document.body.append(el);
  };
  add('own', {});
  add('relative', { 'engine-base': `//localhost:${location.port}/`, engine: 'scalar' });
  add('absolute', { 'engine-base': other });
});
