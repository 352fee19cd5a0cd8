// Package explain says why a robots.txt allows or disallows what it does:
// for each (agent, URL) the decision, the groups that apply and why (a group
// naming the agent's product token, else the "*" groups, RFC 9309 §2.2.1;
// an agent that is a whole User-Agent header is read as the catalog bot it
// names, ReadAgent),
// the deciding rule and its line, every rule that matched and why it lost
// (longest match, allow wins a tie, §2.2.2), and the normalised pattern and
// path the matcher compared; for the whole file its diagnostics (package
// lint), its non-standard records, and for each bot asked about its verdict
// full / partial / none (package verdict), named or via "*".
//
// It is the one implementation behind both `robotstat check --explain`
// (whose one-line text is Decision.Text) and the page `robotstat tester`
// writes, which runs this package compiled to WebAssembly; so the package
// imports only parse, lint and verdict, and the decision itself is always
// parse.Robots.DecideSet's, never recomputed here.
//
// An explanation is for people: it is built with ordinary allocations, not
// on a hot path. Every field is plain data (strings, ints, slices) that owns
// its memory, so a Report outlives the Explainer that made it and encodes
// to JSON as it is (the tester's page reads that JSON).
package explain
