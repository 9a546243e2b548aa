// The files the host's bundler brought in with the ES module build (attention-lab.mjs): web/build.mjs
// replaces this module there with their imports. null here: the classic script loads them by URL.
export const BUNDLED_FILES = null;
