// The one home of embed.html's URL parameters, for embed.js (which reads them) and author.js (which
// writes them into the iframe snippet): their names and the longest value embed.html reads.
'use strict';
self.AttentionLabEmbedParams = Object.freeze({
  // Every valid inputs value fits, written compactly: 16 × 16 numbers of at most 24 characters each
  // ("-0.000012345678901234567") with their commas and brackets is 6,433.
  limit: 8192,
  // the element's attributes, then embed.html's own: the accent colour, the font, and the parent's
  // origin (the only window embed.html posts the element's events to)
  attributes: Object.freeze(['section', 'words', 'inputs', 'seed', 'd-out', 'temperature', 'theme', 'engine', 'exercises', 'lang']),
  page: Object.freeze(['accent', 'font', 'parent-origin']),
});
