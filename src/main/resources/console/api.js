// The one way the console's tools (schema, builder, history, export) talk to the REST API: every request goes through
// apiFetch, so a header (e.g. Authorization) is added in one place.
'use strict';

function apiFetch(path, options) {
  return fetch(path, Object.assign({}, options || {}));
}
