package verdict

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

// TestRuleIndexMatchesDecideSet compares the index with parse's DecideSet on
// random files and paths.
func TestRuleIndexMatchesDecideSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	chars := []byte("/ab~.*$")
	pathChars := []byte("/ab~.")
	var r parse.Robots
	p := parse.NewParser(parse.Options{})
	var x ruleIndex
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		sb.WriteString("User-agent: x\n")
		for k := rng.IntN(12) + 1; k > 0; k-- {
			sb.WriteString([]string{"Allow: ", "Disallow: "}[rng.IntN(2)])
			if rng.IntN(5) > 0 {
				sb.WriteByte('/')
			}
			for j := rng.IntN(5); j > 0; j-- {
				sb.WriteByte(chars[rng.IntN(len(chars))])
			}
			sb.WriteByte('\n')
		}
		p.Compile([]byte(sb.String()), &r)
		id, m := r.Lookup("x")
		x.build(&r, id)
		for j := 0; j < 50; j++ {
			path := []byte{'/'}
			for k := rng.IntN(7); k > 0; k-- {
				path = append(path, pathChars[rng.IntN(len(pathChars))])
			}
			if string(path) == "/robots.txt" {
				continue
			}
			want := r.DecideSet(id, m, "http://h"+string(path)).Allowed
			if got := x.allowed(path); got != want {
				t.Fatalf("%q path %q: index %v, DecideSet %v", sb.String(), path, got, want)
			}
		}
	}
}

// TestVerdictWorstCaseLinear holds the index to its bound on a file built so
// that every allow rule must be probed and every probe is won back by a
// longer disallow: deciding each witness directly would run every rule
// through the matcher (24,001 rules × ~48,000 witnesses ≈ 10⁹), the index
// runs only the rules whose literal prefix is a prefix of the witness. The
// bound is on work counted, not on time, so a loaded machine cannot fail it.
func TestVerdictWorstCaseLinear(t *testing.T) {
	const pairs = 12000
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /\n")
	for i := 0; i < pairs; i++ {
		fmt.Fprintf(&sb, "Allow: /p%d\nDisallow: /p%d*\n", i, i)
	}
	var r parse.Robots
	parse.NewParser(parse.Options{}).Compile([]byte(sb.String()), &r)
	var v Verdicter
	v.Reset(&r, nil)
	id, m := r.Lookup("GPTBot")
	if got := v.For(id, m); got.Verdict != Full {
		t.Fatalf("verdict %q, want full", got.Verdict)
	}
	if !v.useIdx {
		t.Fatal("a set of 24,001 rules was decided without the index")
	}
	// Each witness is at most ~16 bytes, and each prefix of it names at most
	// two rules (Allow /pN, Disallow /pN*), plus the universal disallow's
	// empty prefix: a few dozen candidates a witness at most.
	t.Logf("%d witnesses, %d index matches", v.tries, v.idx.matches)
	if perTry := v.idx.matches / v.tries; perTry > 64 {
		t.Errorf("%d rules matched over %d witnesses (%d a witness), want at most 64 a witness",
			v.idx.matches, v.tries, perTry)
	}
	if v.tries > 4*2*pairs+64 {
		t.Errorf("%d witnesses for %d rules, want at most 4 a rule", v.tries, 2*pairs+1)
	}
}
