package explain

import (
	"strings"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

var catalogBots = []Bot{{Token: "GPTBot"}, {Token: "Googlebot"}, {Token: "Googlebot-Image"}, {Token: "MJ12bot"},
	{Token: "YandexBot"}, {Token: "Yandex"}, {Token: "Kangaroo Bot"}, {Token: "ChatGPT-User"}}

func TestReadAgent(t *testing.T) {
	tests := []struct {
		name, agent, token, note string // note: a substring, "" for none
	}{
		{"star", "*", "*", ""},
		{"bare_token", "GPTBot", "GPTBot", ""},
		{"bare_digit_token", "MJ12bot", "MJ12bot", ""},
		{"bare_unknown_token", "Ai2Bot-Dolma", "Ai2Bot-Dolma", ""},
		{"token_and_version", "GPTBot/1.1", "GPTBot", `read as the product token "GPTBot"`},
		{"digit_token_and_version", "MJ12bot/v1.4.8", "MJ12bot", `read as the product token "MJ12bot"`},
		{"no_token", "/x", "", "names no product token"},
		// The header: the catalog says which word is the crawler.
		{"compatible_header", "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot", "the catalog bot it names"},
		{"gptbot_documented_header", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot", "the catalog bot it names"},
		{"header_outside_comment", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User", "catalog bot"},
		{"header_case", "mozilla/5.0 (compatible; mj12bot/v1.4.8; http://mj12bot.com/)", "MJ12bot", "catalog bot"},
		{"hyphenated_bot_is_not_its_prefix", "Googlebot-Image/1.0 (+http://www.google.com/bot.html)", "Googlebot-Image", "catalog bot"},
		{"first_bot_wins", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot", "catalog bot"},
		{"leading_token_is_a_bot", "Googlebot/2.1 (+http://www.google.com/bot.html)", "Googlebot", "catalog bot"},
		{"token_with_space", "Kangaroo Bot (+https://kangaroollm.com.au)", "Kangaroo Bot", "catalog bot"},
		{"unknown_header", "Mozilla/5.0 (compatible; Львів-bot/1.1)", "Mozilla", `names no catalog bot; it is read as its first product token "Mozilla"`},
		{"unknown_header_no_lead", "(compatible; Foo)", "", "names no catalog bot and starts with no product token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tok, note := ReadAgent(tc.agent, catalogBots)
			if tok != tc.token || tc.note == "" && note != "" || !strings.Contains(note, tc.note) {
				t.Errorf("ReadAgent(%q) = %q, %q; want %q, a note with %q", tc.agent, tok, note, tc.token, tc.note)
			}
		})
	}
	if tok, _ := ReadAgent("Mozilla/5.0 (compatible; GPTBot/1.1)", nil); tok != "Mozilla" {
		t.Errorf("without a catalog a header is read by its first token, got %q", tok)
	}
}

// TestDecideReadsHeader: the decision is the one for the token ReadAgent
// read, and says so.
func TestDecideReadsHeader(t *testing.T) {
	var r parse.Robots
	parse.NewParser(parse.Options{}).Compile([]byte("User-agent: Mozilla\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n"), &r)
	ua := "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	d := Decide(&r, ua, catalogBots, "/x", 200)
	if d.Allowed || d.Token != "gptbot" || d.Agent != ua || !strings.Contains(d.AgentNote, "GPTBot") {
		t.Errorf("decision %+v", d)
	}
	if d := Decide(&r, ua, nil, "/x", 200); !d.Allowed || d.Token != "mozilla" {
		t.Errorf("without a catalog: %+v", d)
	}
}
