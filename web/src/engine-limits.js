// What the editor lets a learner type (inputs.js's LIMITS): the engine's table, engine.limits().page
// (engine/src/core/limits.h). web/build.mjs replaces this module with that table, read from the built
// engine (web/engine-limits.mjs), so the page keeps no copy; unbundled there is none.
export const LIMITS = null;
// The sections sectionData serves (engine.limits().sections), replaced the same way.
export const ENGINE_SECTIONS = null;
