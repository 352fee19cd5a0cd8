package schema

import (
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

func TestPartitionDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, crawl, want string
		wantErr           bool
	}{
		{name: "common_crawl", crawl: "CC-MAIN-2024-33", want: "crawl=CC-MAIN-2024-33"},
		{name: "unknown_is_hive_default", crawl: "", want: "crawl=__HIVE_DEFAULT_PARTITION__"},
		{name: "literal_hive_default_escaped", crawl: "__HIVE_DEFAULT_PARTITION__", want: "crawl=%5F_HIVE_DEFAULT_PARTITION__"},
		{name: "dots_allowed_inside", crawl: "crawl.v1.2", want: "crawl=crawl.v1.2"},
		{name: "dot", crawl: ".", want: "crawl=%2E"},
		{name: "dotdot", crawl: "..", want: "crawl=%2E."},
		{name: "traversal", crawl: "../../etc", want: "crawl=%2E.%2F..%2Fetc"},
		{name: "slash", crawl: "a/b", want: "crawl=a%2Fb"},
		{name: "backslash", crawl: `a\b`, want: "crawl=a%5Cb"},
		{name: "space_and_equals", crawl: "my crawl=1", want: "crawl=my%20crawl%3D1"},
		{name: "percent", crawl: "100%", want: "crawl=100%25"},
		{name: "plus", crawl: "a+b", want: "crawl=a%2Bb"},
		{name: "nul", crawl: "a\x00b", want: "crawl=a%00b"},
		{name: "utf8", crawl: "kraul-ü", want: "crawl=kraul-%C3%BC"},
		{name: "too_long", crawl: strings.Repeat("/", 100), wantErr: true},
		{name: "long_but_fits", crawl: strings.Repeat("a", maxNameBytes-len("crawl=")), want: "crawl=" + strings.Repeat("a", maxNameBytes-len("crawl="))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := partitionDir(tt.crawl)
			if tt.wantErr {
				if !errors.Is(err, ErrUnsafeName) {
					t.Fatalf("partitionDir(%q) = %q, %v; want ErrUnsafeName", tt.crawl, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("partitionDir(%q) = %q, %v; want %q", tt.crawl, got, err, tt.want)
			}
			checkPartitionDir(t, tt.crawl, got)
		})
	}
}

// checkPartitionDir asserts the properties every partition directory must
// have: one path element, inside its parent, and decoding back to the crawl
// the way Hive readers decode it.
func checkPartitionDir(t *testing.T, crawl, dir string) {
	t.Helper()
	if strings.ContainsAny(dir, `/\`) || dir == "." || dir == ".." || strings.HasPrefix(dir, ".") {
		t.Fatalf("partitionDir(%q) = %q is not a plain path element", crawl, dir)
	}
	if !within("/out/captures", filepath.Join("/out/captures", dir, "part-x.parquet")) {
		t.Fatalf("partitionDir(%q) = %q leaves the table folder", crawl, dir)
	}
	value, ok := strings.CutPrefix(dir, "crawl=")
	if !ok {
		t.Fatalf("partitionDir(%q) = %q lacks crawl=", crawl, dir)
	}
	if crawl == "" {
		if value != DefaultPartition {
			t.Fatalf("unknown crawl went to %q", dir)
		}
		return
	}
	back, err := url.PathUnescape(value)
	if err != nil || back != crawl {
		t.Fatalf("partitionDir(%q) = %q decodes to %q, %v", crawl, dir, back, err)
	}
}

func FuzzPartitionDir(f *testing.F) {
	for _, s := range []string{"CC-MAIN-2024-33", "", "..", "../x", "a/b", "__HIVE_DEFAULT_PARTITION__", "ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, crawl string) {
		dir, err := partitionDir(crawl)
		if err != nil {
			if !errors.Is(err, ErrUnsafeName) {
				t.Fatalf("partitionDir(%q): unexpected error %v", crawl, err)
			}
			return
		}
		checkPartitionDir(t, crawl, dir)
	})
}

func TestValidRunID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, id string
		ok       bool
	}{
		{"hex_hash", "3f2a9c01d4e5b6a7", true},
		{"with_shard", "run-3f2a_0of4", true},
		{"empty", "", false},
		{"leading_dash", "-x", false},
		{"dot", ".", false},
		{"dotdot", "..", false},
		{"slash", "a/b", false},
		{"backslash", `a\b`, false},
		{"space", "a b", false},
		{"too_long", strings.Repeat("a", 129), false},
		{"max_length", strings.Repeat("a", 128), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validRunID(tt.id)
			if (err == nil) != tt.ok {
				t.Fatalf("validRunID(%q) = %v, want ok = %v", tt.id, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrUnsafeName) {
				t.Fatalf("validRunID(%q) = %v, want ErrUnsafeName", tt.id, err)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, root, path string
		want             bool
	}{
		{"child", "/out", "/out/captures/x.parquet", true},
		{"root_itself", "/out", "/out", false},
		{"parent", "/out", "/", false},
		{"sibling_prefix", "/out", "/out2/x", false},
		{"escape", "/out", "/out/../etc/passwd", false},
		{"dotdot_named_file", "/out", "/out/..x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := within(tt.root, tt.path); got != tt.want {
				t.Errorf("within(%q, %q) = %v, want %v", tt.root, tt.path, got, tt.want)
			}
		})
	}
}
