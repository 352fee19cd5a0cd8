package parse

import (
	"os"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
)

// TestZeroAllocs proves the hot paths' zero-allocation claims (skipped under
// -race, which allocates on its own).
func TestZeroAllocs(t *testing.T) {
	if testkit.Race {
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
			for _, agent := range []string{"GPTBot", "googlebot", "Mozilla/5.0", "*", "unknown-bot", "MJ12bot", "ЛЬВІВ-BOT"} {
				for _, u := range urls {
					if n := testing.AllocsPerRun(100, func() { r.Decide(agent, u) }); n != 0 {
						t.Errorf("Decide(%q, %q): %v allocs, want 0", agent, u, n)
					}
				}
			}
		})
	}
	// Tokens outside ASCII are folded rune by rune, without a buffer.
	body := []byte("User-agent: Jävla-Foobot\nUser-agent: Львів-bot\nDisallow: /x\n\nUser-agent: MJ12bot\nDisallow: /\n")
	p := NewParser(Options{})
	var r Robots
	p.Compile(body, &r)
	if n := testing.AllocsPerRun(50, func() { p.Compile(body, &r) }); n != 0 {
		t.Errorf("Compile of non-ASCII tokens: %v allocs, want 0", n)
	}
	for _, agent := range []string{"JÄVLA-FOOBOT", "львів-BOT/1.1", "mj12BOT", "jävla-fanbot"} {
		if n := testing.AllocsPerRun(100, func() { r.Decide(agent, "/x") }); n != 0 {
			t.Errorf("Decide(%q): %v allocs, want 0", agent, n)
		}
	}
}
