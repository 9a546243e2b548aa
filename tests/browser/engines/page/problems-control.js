// The control for the suite's "no problems" checks: this page makes one problem of each kind the
// suite records, so that an engine's silence on the real page means something.
console.error('control: console.error was called');
Promise.reject(new Error('control: nobody handled this rejection'));
setTimeout(() => { throw new Error('control: an uncaught exception'); });
const inline = document.createElement('script');
inline.textContent = 'window.inlineRan = true';   // refused by the CSP: a violation
document.head.append(inline);
