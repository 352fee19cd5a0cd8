// Package lint finds what is wrong or unusual in one robots.txt: a body
// that is an HTML page or binary data, lines that are not records, keys read
// through a leniency (a typo, a missing colon), rules outside any group
// (RFC 9309 §2.2.1), patterns that can never match, user-agent values that
// are not product tokens or whose token has characters the RFC does not
// allow (digits, non-ASCII letters: parse's Deviation_token_digits), keys
// robotstat does not know. Each finding is a
// Diagnostic with a stable code (the diagnostics table's code column) and a
// message.
//
// The Linter is a parse.Handler, like the matcher (parse.Robots) and the
// statistics: it shares their parse pass through parse.Tee and collects its
// findings as data instead of failing (content never fails). The package
// imports only parse, so the statistics (stats, for the diagnostics table)
// and the explanation robotstat tester compiles to WebAssembly report the
// same findings from one implementation.
package lint
