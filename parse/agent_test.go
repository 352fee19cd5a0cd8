package parse

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestProductToken(t *testing.T) {
	cases := []struct {
		value, token, google string
	}{
		{"GPTBot", "GPTBot", "GPTBot"},
		{"GPTBot/1.1", "GPTBot", "GPTBot"},
		{"MJ12bot", "MJ12bot", "MJ"},
		{"MJ12bot/v1.4.8", "MJ12bot", "MJ"},
		{"360Spider", "360Spider", ""},
		{"AI2Bot", "AI2Bot", "AI"},
		{"Ai2Bot-Dolma", "Ai2Bot-Dolma", "Ai"},
		{"img2dataset", "img2dataset", "img"},
		{"Googlebot*", "Googlebot", "Googlebot"},
		{"Googlebot-Image/1.0", "Googlebot-Image", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; GPTBot/1.1)", "Mozilla", "Mozilla"},
		{"Kangaroo Bot", "Kangaroo", "Kangaroo"},
		{"bigsur.ai", "bigsur", "bigsur"},
		{"ia_archiver", "ia_archiver", "ia_archiver"},
		{"Jävla-Foobot", "Jävla-Foobot", "J"},
		{"Ja\u0308vla", "Ja\u0308vla", "Ja"}, // a combining mark
		{"Львів-bot/1.1", "Львів-bot", ""},
		{"bot²", "bot²", "bot"},              // a number (No)
		{"GPTBot\u00a0", "GPTBot", "GPTBot"}, // no-break space (Zs)
		{"GPTBot™", "GPTBot", "GPTBot"},      // a symbol (So)
		{"GPTBot\u200b", "GPTBot", "GPTBot"}, // zero-width space (Cf)
		{"J\xe4vla", "J", "J"},               // Latin-1, not UTF-8
		{"bot\xef\xbf\xbd", "bot", "bot"},    // U+FFFD itself is no letter
		{"*bot", "", ""},
		{"", "", ""},
		{"/x", "", ""},
	}
	for _, c := range cases {
		if got := string(ProductToken([]byte(c.value))); got != c.token {
			t.Errorf("ProductToken(%q) = %q, want %q", c.value, got, c.token)
		}
		if got := string(GoogleProductToken([]byte(c.value))); got != c.google {
			t.Errorf("GoogleProductToken(%q) = %q, want %q", c.value, got, c.google)
		}
		if got, want := ValidProductToken([]byte(c.value)), c.token != "" && c.token == c.value; got != want {
			t.Errorf("ValidProductToken(%q) = %v, want %v", c.value, got, want)
		}
		if got, want := RFCProductToken([]byte(c.value)), c.google != "" && c.google == c.value; got != want {
			t.Errorf("RFCProductToken(%q) = %v, want %v", c.value, got, want)
		}
	}
}

// TestTokenFolding holds the three ways tokens are compared to one another:
// AppendLowerToken is strings.ToLower on tokens, lower-casing twice changes
// nothing, and a token hashes and compares like its lower-cased form.
func TestTokenFolding(t *testing.T) {
	var buf []byte
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || r >= utf8.RuneSelf && !tokenRune(r) || r < utf8.RuneSelf && !tokenByte[r] {
			continue
		}
		tok := []byte("a" + string(r) + "Z")
		buf = AppendLowerToken(buf[:0], tok)
		if string(buf) != strings.ToLower(string(tok)) {
			t.Fatalf("AppendLowerToken(%q) = %q, strings.ToLower %q", tok, buf, strings.ToLower(string(tok)))
		}
		if len(ProductToken(buf)) != len(buf) {
			t.Fatalf("%q lower-cased to %q, which is not a token", tok, buf)
		}
		if again := AppendLowerToken(nil, buf); string(again) != string(buf) {
			t.Fatalf("lower-casing %q twice gives %q, once %q", tok, again, buf)
		}
		if hashToken(tok) != hashToken(buf) || !equalToken(buf, tok) || !equalToken(tok, buf) {
			t.Fatalf("%q and its lower case %q hash or compare apart", tok, buf)
		}
	}
	for _, c := range []struct {
		a, b string
		eq   bool
	}{
		{"GPTBot", "gptbot", true},
		{"JÄVLA-FOOBOT", "jävla-foobot", true},
		{"\u212Abot", "kbot", true}, // KELVIN SIGN lower-cases to k
		{"jävla-fanbot", "jävla-foobot", false},
		{"mj12bot", "mj", false},
		{"mj", "mj12bot", false},
		{"a\xe4", "a\xe4", true},
		{"a\xe4", "a\xc4", false},
		{"a\xe4", "aä", false},
	} {
		if got := equalToken([]byte(c.a), []byte(c.b)); got != c.eq {
			t.Errorf("equalToken(%q, %q) = %v, want %v", c.a, c.b, got, c.eq)
		}
		if c.eq && hashToken([]byte(c.a)) != hashToken([]byte(c.b)) {
			t.Errorf("%q and %q are equal tokens with different hashes", c.a, c.b)
		}
	}
}

// TestEntryToken: the Parser hands every handler the token it read, by the
// grouping's reading.
func TestEntryToken(t *testing.T) {
	body := []byte("User-agent: MJ12bot/v1.4\nUser-agent: *\nUser-agent: Jävla-Foobot\nDisallow: /\nSitemap: x\n")
	for _, c := range []struct {
		g    Grouping
		want []string
	}{
		{GroupingRFC, []string{"MJ12bot", "", "Jävla-Foobot"}},
		{GroupingGoogle, []string{"MJ", "", "J"}},
	} {
		var got []string
		NewParser(Options{Grouping: c.g}).Parse(body, &tokenRecorder{got: &got})
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("grouping %d: tokens %q, want %q", c.g, got, c.want)
		}
	}
}

type tokenRecorder struct {
	NopHandler
	got *[]string
}

func (h *tokenRecorder) UserAgent(e *Entry) { *h.got = append(*h.got, string(e.Token)) }
func (h *tokenRecorder) Sitemap(e *Entry) {
	if e.Token != nil {
		*h.got = append(*h.got, "sitemap has a token")
	}
}
