package parse

import (
	"os"
	"testing"
)

// TestZeroAllocs proves the hot paths' zero-allocation claims (skipped under
// -race, which allocates on its own).
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	for _, file := range []string{"spiegel.de.robots.txt", "reddit.robots.txt", "heise.de.robots.txt"} {
		body, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		p := NewParser(Options{})
		var r Robots
		p.Compile(body, &r) // warm up: grow the scratch once
		t.Run(file+"/parse", func(t *testing.T) {
			if n := testing.AllocsPerRun(50, func() { p.Compile(body, &r) }); n != 0 {
				t.Errorf("Compile with a reused Parser and Robots: %v allocs, want 0", n)
			}
			var nop NopHandler
			if n := testing.AllocsPerRun(50, func() { p.Parse(body, nop) }); n != 0 {
				t.Errorf("Parse to a NopHandler: %v allocs, want 0", n)
			}
		})
		t.Run(file+"/decide", func(t *testing.T) {
			urls := []string{"/", "/r/golang/comments/x.rss", "https://www.example.com/politik/ツ?q=%62", "/a/CR-Dokumentation.pdf", "/robots.txt"}
			for _, agent := range []string{"GPTBot", "googlebot", "Mozilla/5.0", "*", "unknown-bot"} {
				for _, u := range urls {
					if n := testing.AllocsPerRun(100, func() { r.Decide(agent, u) }); n != 0 {
						t.Errorf("Decide(%q, %q): %v allocs, want 0", agent, u, n)
					}
				}
			}
		})
	}
}
