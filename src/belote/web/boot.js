// Before the page's modules start (they wait for the games the server describes, GET /api/games),
// the page is loading: what tests and tools read of it says so, rather than not being there at all.
// app.js replaces this with the live state as soon as it runs.
window.__belote = { status: "loading", kind: null, view: null, seat: null, state: null, connected: false };
