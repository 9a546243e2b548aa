// Scheduling: a new task (so the browser can paint and handle input between two pieces of work) and
// the next animation frame (so an edit's update lands in the frame that follows it).

export function nextTask() {
  return new Promise((resolve) => { const ch = new MessageChannel(); ch.port1.onmessage = () => resolve(); ch.port2.postMessage(0); });
}

// requestAnimationFrame, except in a hidden tab, which runs no frames: there a task does.
export function nextFrame() {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') return nextTask();
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}
