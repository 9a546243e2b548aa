// The SHA-384 of every script the element loads, by path in its folder ("engine/loader.js": "sha384-…").
// web/build.mjs replaces this module with the build's map; a bundle made without it (a test fixture)
// has none, and loads its scripts unchecked.
export const INTEGRITY = {};
