// Records the page's problems in a buffer the suite reads back: for a driver that cannot listen to
// the browser's console (WebKitWebDriver has no BiDi). Loaded as the first script of the page; it
// changes nothing the page does and calls console.error through unchanged.
(() => {
  const problems = [];
  Object.defineProperty(window, '__attnLabProblems', { value: problems });
  const describe = (v) => (v instanceof Error ? `${v.name}: ${v.message}` : typeof v === 'string' ? v : (() => {
    try { return JSON.stringify(v); } catch { return String(v); }
  })());
  addEventListener('error', (e) => {
    // a failed <script>, <link> or <img> load fires a non-bubbling error on the element: capture sees it
    if (e.target !== window && e.target && e.target.tagName) {
      problems.push(`resource: ${e.target.tagName.toLowerCase()} ${e.target.src || e.target.href || ''} did not load`);
    } else {
      problems.push(`pageerror: ${e.error ? describe(e.error) : e.message}`);
    }
  }, true);
  addEventListener('unhandledrejection', (e) => problems.push(`pageerror: unhandled rejection: ${describe(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) => {
    problems.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
  });
  const consoleError = console.error;
  console.error = function error(...args) {
    problems.push(`console: ${args.map(describe).join(' ')}`);
    return consoleError.apply(this, args);
  };
})();
