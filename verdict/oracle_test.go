package verdict

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

// TestVerdictOracle compares robotstat's full and none claims with brute
// force: random small files over a tiny alphabet, every path up to five
// characters over the same alphabet decided by the real matcher. A full
// verdict with an allowed path, or a none verdict with a disallowed path,
// is a bug in the witness method.
func TestVerdictOracle(t *testing.T) {
	t.Run("direct", func(t *testing.T) { verdictOracle(t, false) })
	t.Run("indexed", func(t *testing.T) {
		verdictOracle(t, true)
	})
}

func verdictOracle(t *testing.T, alwaysIndex bool) {
	rng := rand.New(rand.NewPCG(4, 9))
	alpha := []byte("/ab~")
	var paths []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		paths = append(paths, prefix)
		if n == 0 {
			return
		}
		for _, c := range alpha {
			gen(prefix+string(c), n-1)
		}
	}
	gen("/", 5)
	patChars := []byte("/ab*$")
	n := 3000
	if os.Getenv("ORACLE_N") != "" {
		n = 200000
	}
	if testing.Short() {
		n = 300
	}
	var r parse.Robots
	p := parse.NewParser(parse.Options{})
	v := Verdicter{AlwaysIndex: alwaysIndex}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		sb.WriteString("User-agent: x\n")
		for k := rng.IntN(4) + 1; k > 0; k-- {
			if rng.IntN(2) == 0 {
				sb.WriteString("Allow: ")
			} else {
				sb.WriteString("Disallow: ")
			}
			l := rng.IntN(4)
			if rng.IntN(4) > 0 {
				sb.WriteByte('/')
			}
			for j := 0; j < l; j++ {
				sb.WriteByte(patChars[rng.IntN(len(patChars))])
			}
			sb.WriteByte('\n')
		}
		body := sb.String()
		p.Compile([]byte(body), &r)
		v.Reset(&r, nil)
		id, m := r.Lookup("x")
		got := v.For(id, m).Verdict
		for _, path := range paths {
			d := r.DecideSet(id, m, "http://h"+path)
			if d.Reason == parse.ReasonImplicit {
				continue
			}
			if got == Full && d.Allowed || got == None && !d.Allowed {
				t.Fatalf("%q: verdict %s but %q is allowed=%v", body, got, path, d.Allowed)
			}
		}
	}
}
