package verdict

import (
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
