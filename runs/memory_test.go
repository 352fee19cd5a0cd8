package runs

import "testing"

// TestMemoryLimit: the default grows with the workers; GOMEMLIMIT wins
// over the default, the flag over both; -1 is none.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string { return func(string) string { return v } }
	cases := []struct {
		name    string
		flag    int
		workers int
		getenv  func(string) string
		want    int64
	}{
		{"default_grows_with_workers", 0, 2, env(""), 288 << 20},
		{"default_one_worker", 0, 1, env(""), 256 << 20},
		{"gomemlimit_wins", 0, 2, env("1GiB"), 0},
		{"flag_wins_over_gomemlimit", 512, 2, env("1GiB"), 512 << 20},
		{"off", -1, 2, env(""), 0},
	}
	for _, c := range cases {
		if got := MemoryLimit(c.flag, c.workers, c.getenv); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
