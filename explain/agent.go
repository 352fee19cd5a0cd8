package explain

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/robotstat/robotstat/parse"
)

// ReadAgent returns the product token robotstat looks agent up by, as bots
// (a catalog) spell it where one of them is meant, and a note saying how
// agent was read when it is not a bare token ("" for a bare token and for
// "*").
//
//   - "*" and a bare product token ("GPTBot", "MJ12bot") are themselves.
//   - A token followed by a version or other text without white space,
//     parentheses, ";" or "," ("GPTBot/1.1", "MJ12bot/v1.4.8") is its
//     leading token, as parse.Robots.Lookup reads any agent.
//   - A whole User-Agent header ("Mozilla/5.0 (compatible; GPTBot/1.1;
//     +https://openai.com/gptbot)") names the crawler's token somewhere in it
//     (RFC 9309 §2.2.1: the product token "SHOULD be a substring" of the
//     User-Agent): it is read as the first token in it that is a bot of bots,
//     compared as tokens compare (so "Googlebot-Image/1.0" is
//     Googlebot-Image, not Googlebot). A header that names no bot of bots is
//     read as its leading token ("Mozilla"), and the note says to pass the
//     crawler's token.
//
// Only the catalog can say which word of a header is the crawler: "Mozilla",
// "compatible" and host names are words of it too, and some files have
// groups for "Mozilla".
func ReadAgent(agent string, bots []Bot) (token, note string) {
	if agent == "*" {
		return agent, ""
	}
	lead := string(parse.ProductToken([]byte(agent)))
	switch {
	case lead != "" && lead == agent:
		return agent, ""
	case !strings.ContainsAny(agent, " \t(),;"):
		if lead == "" {
			return "", fmt.Sprintf("agent %q names no product token (one starts with a letter, a digit, \"_\" or \"-\"); only the * groups can apply", agent)
		}
		return lead, fmt.Sprintf("agent %q is read as the product token %q (RFC 9309 §2.2.1)", agent, lead)
	}
	if b, ok := firstBot(agent, bots); ok {
		return b, fmt.Sprintf("agent %q is read as %q, the catalog bot it names (RFC 9309 §2.2.1: a crawler's product token is part of its User-Agent)", agent, b)
	}
	if lead == "" {
		return "", fmt.Sprintf("agent %q names no catalog bot and starts with no product token; only the * groups can apply (pass the crawler's token, e.g. GPTBot)", agent)
	}
	return lead, fmt.Sprintf("agent %q names no catalog bot; it is read as its first product token %q (pass the crawler's token, e.g. GPTBot)", agent, lead)
}

// firstBot returns the token, as bots spell it, of the first bot whose
// product token is a token of agent.
func firstBot(agent string, bots []Bot) (string, bool) {
	if len(bots) == 0 {
		return "", false
	}
	keys := make(map[string]string, len(bots))
	for _, b := range bots {
		k := lowerToken(b.Token)
		if _, dup := keys[k]; k != "" && !dup {
			keys[k] = b.Token
		}
	}
	for i := 0; i < len(agent); {
		tok := parse.ProductToken([]byte(agent[i:]))
		if len(tok) == 0 {
			_, n := utf8.DecodeRuneInString(agent[i:])
			i += n
			continue
		}
		if b, ok := keys[string(parse.AppendLowerToken(nil, tok))]; ok {
			return b, true
		}
		i += len(tok)
	}
	return "", false
}

// lowerToken is the product token s names, lower-cased as tokens compare.
func lowerToken(s string) string {
	return string(parse.AppendLowerToken(nil, parse.ProductToken([]byte(s))))
}
