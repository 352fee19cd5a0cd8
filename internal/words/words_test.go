package words

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "inputs"}, {1, "input"}, {2, "inputs"}, {-1, "inputs"}} {
		if got := Plural(c.n, "input", "inputs"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{999, "999 B"},
		{1000, "1.0 kB"},
		{1049, "1.0 kB"},
		{999_949, "999.9 kB"},
		{1_000_000, "1.0 MB"},
		{25_360_000, "25.4 MB"},
		{1_000_000_000, "1.00 GB"},
		{2_345_678_901, "2.35 GB"},
	} {
		if got := Bytes(c.n); got != c.want {
			t.Errorf("Bytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
