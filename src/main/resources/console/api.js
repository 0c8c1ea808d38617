// The one way the console's tools (schema, builder, history, export) talk to the REST API: every request goes through
// apiFetch, so a header (e.g. Authorization) is added in one place.
'use strict';

// The token, when the service needs one, is console.js's (withToken, askForToken: kept for the tab, asked for on 401).
async function apiFetch(path, options) {
  const res = await fetch(path, withToken(options));
  if (res.status === 401) askForToken();
  return res;
}
