package main

import (
	"strings"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

// TestCutAgents: the old reading is reproduced byte for byte in length, and
// the cut file names under the new rules exactly the tokens the old rules
// read from the original.
func TestCutAgents(t *testing.T) {
	body := "User-agent: MJ12bot # Majestic\r\nUser-agent 360Spider\nUser-agent: *\nUser-agent: Jävla-Foobot\n" +
		"User-agent: GPTBot/1.1\nDisallow: /x\n"
	want := "User-agent: MJ      # Majestic\r\nUser-agent /        \nUser-agent: *\nUser-agent: J" + strings.Repeat(" ", len("Jävla-Foobot")-1) + "\n" +
		"User-agent: GPTBot    \nDisallow: /x\n"
	got, differs := cutAgents([]byte(body))
	if string(got) != want || !differs {
		t.Fatalf("cutAgents =\n%q, %v\nwant\n%q, true", got, differs, want)
	}
	var before, after parse.Robots
	parse.NewParser(parse.Options{}).Compile([]byte(body), &before)
	parse.NewParser(parse.Options{}).Compile(got, &after)
	if len(before.Agents()) != len(after.Agents()) || len(before.Groups()) != len(after.Groups()) {
		t.Fatalf("%d agents in %d groups, cut: %d in %d", len(before.Agents()), len(before.Groups()), len(after.Agents()), len(after.Groups()))
	}
	for i, a := range after.Agents() {
		old := strings.ToLower(string(parse.GoogleProductToken(before.Agents()[i].Value)))
		if string(a.Token) != old || a.Star != before.Agents()[i].Star {
			t.Errorf("agent %d: cut file names %q (star %v), the old reading %q", i, a.Token, a.Star, old)
		}
	}
	if _, differs := cutAgents([]byte("User-agent: GPTBot\nUser-agent: *\nDisallow: /\n")); differs {
		t.Error("a file of letter-only tokens reads apart")
	}
}
