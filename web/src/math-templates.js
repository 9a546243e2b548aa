// The formulas rendered at build time (web/math-prerender.mjs), by shape: web/build.mjs replaces this
// module with the build's templates; a bundle made without them (a test fixture) has none, and renders
// every formula with KaTeX.
export const MATH_TEMPLATES = {};
