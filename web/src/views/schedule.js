// The scheduler the drawing views draw, measure and wait for frames with: the page's (web/src/scheduler.js),
// given by useScheduler, so the views import nothing from outside this folder. Until one is given (a view
// used alone), everything runs at once: draws now, a read then its write now, a frame by requestAnimationFrame.

const atOnce = Object.freeze({
  frame(fn) { let live = true; requestAnimationFrame(() => { if (live) fn(); }); return () => { live = false; }; },
  drawWhenSeen(node, draw) { draw(); },
  measureThenWrite(read, write) { write(read()); },
  oncePerFrame(key, read) { return read(); },
});

// Read as sched.drawWhenSeen(...) at call time (a live binding: useScheduler's choice holds for views
// made before it).
export let sched = atOnce;

// useScheduler({frame, drawWhenSeen, measureThenWrite, oncePerFrame}): what every view uses from now on.
export function useScheduler(scheduler) {
  for (const name of Object.keys(atOnce)) if (typeof scheduler?.[name] !== 'function') throw new Error(`useScheduler: the scheduler has no ${name}()`);
  sched = scheduler;
}
