// The drawing views, in one import: matrixView, stepper, linePlot, pointPlot, their CSS as text
// (VIEWS_CSS, to adopt in a shadow root after the element's own; bundled with esbuild's text loader),
// and useScheduler, which gives them the page's scheduler.
export { matrixView } from './matrix-view.js';
export { stepper } from './stepper.js';
export { linePlot, pointPlot, niceTicks, logTicks } from './plot.js';
export { shortestFloat32, fixed } from './format.js';
export { scaleFor, sequentialRgb, divergingRgb, textOn } from './color.js';
export { default as VIEWS_CSS } from './views.css';
export { stepFocus } from './step-focus.js';
export { useScheduler } from './schedule.js';
