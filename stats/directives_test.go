package stats

import (
	"reflect"
	"testing"
)

func TestParseSignals(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"cloudflare", "search=yes,ai-train=no", []string{"search=yes", "ai-train=no"}},
		{"spaces", " search = yes ,  AI-Input=no ", []string{"search=yes", "ai-input=no"}},
		{"aipref_path_form", "/news/ train-ai=n", []string{"=/news/", "train-ai=n"}},
		{"bare", "y", []string{"=y"}},
		{"empty_items", ",,search=yes,", []string{"search=yes"}},
		{"empty_value", "search=", []string{"search="}},
		{"two_pairs_space_separated", "train-ai=n search=y", []string{"train-ai=n", "search=y"}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			ParseSignals([]byte(tc.in), func(k, v []byte) {
				got = append(got, string(appendDirectiveKey(nil, k))+"="+string(v))
			})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAppendDirectiveKey(t *testing.T) {
	for in, want := range map[string]string{"User-Agent": "user-agent", "user  agent": "user agent", "Crawl-Delay": "crawl-delay", "DISALLOW": "disallow"} {
		if got := string(appendDirectiveKey(nil, []byte(in))); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}
