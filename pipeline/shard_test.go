package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/record"
)

// TestMain doubles as the shard helper process: with ROBOTSTAT_SHARD_HELPER
// set, the test binary runs one shard of a pipeline over the folder named
// there and prints the source of every capture, as a cluster task would.
func TestMain(m *testing.M) {
	if dir := os.Getenv("ROBOTSTAT_SHARD_HELPER"); dir != "" {
		os.Exit(shardHelper(dir))
	}
	os.Exit(m.Run())
}

func shardHelper(dir string) int {
	sh, err := ParseShard(os.Getenv("ROBOTSTAT_SHARD"), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var mu sync.Mutex
	seen := map[string]int{}
	_, err = Run(context.Background(), Config{Shard: sh}, []string{dir}, func(w int, c *record.Capture) error {
		mu.Lock()
		seen[filepath.Base(c.Source)]++
		mu.Unlock()
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for s, n := range seen {
		fmt.Printf("%s %d\n", s, n)
	}
	return 0
}

// TestShardProcesses runs three real processes over the same folder, as
// an array job would (one of them through --shard auto and Slurm's
// variables), and checks that together they read every input exactly once.
func TestShardProcesses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const files = 20
	for i := range files {
		name := filepath.Join(dir, fmt.Sprintf("part-%02d.warc.gz", i))
		data := gzipMembers(robotsResp(fmt.Sprintf("f%d.example", i), robotsBody), robotsResp(fmt.Sprintf("g%d.example", i), robotsBody))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	envs := [][]string{
		{"ROBOTSTAT_SHARD=0/3"},
		{"ROBOTSTAT_SHARD=auto", "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3"},
		{"ROBOTSTAT_SHARD=2/3"},
	}
	count := map[string]int{}
	for i, env := range envs {
		cmd := testkit.Self(t, append(env, "ROBOTSTAT_SHARD_HELPER="+dir))
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("shard %d: %v: %s", i, err, ee.Stderr)
			}
			t.Fatal(err)
		}
		lines := strings.Fields(string(out))
		if len(lines) == 0 {
			t.Errorf("shard %d read nothing", i)
		}
		for k := 0; k+1 < len(lines); k += 2 {
			n, _ := strconv.Atoi(lines[k+1])
			if n != 2 {
				t.Errorf("shard %d: %s gave %d captures, want 2", i, lines[k], n)
			}
			count[lines[k]]++
		}
	}
	var names []string
	for n, c := range count {
		names = append(names, n)
		if c != 1 {
			t.Errorf("%s read by %d shards", n, c)
		}
	}
	sort.Strings(names)
	if len(names) != files {
		t.Errorf("union has %d inputs, want %d: %v", len(names), files, names)
	}
}

func TestParseShard(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name, in string
		env      func(string) string
		want     Shard
		err      bool
	}{
		{"empty", "", nil, Shard{}, false},
		{"plain", "2/5", nil, Shard{2, 5}, false},
		{"index_out_of_range", "5/5", nil, Shard{}, true},
		{"negative", "-1/3", nil, Shard{}, true},
		{"garbage", "x", nil, Shard{}, true},
		{"zero_count", "0/0", nil, Shard{}, true},
		{"k8s_indexed_job", "auto", env("JOB_COMPLETION_INDEX", "3", "JOB_COMPLETION_COUNT", "8"), Shard{3, 8}, false},
		{"k8s_without_count", "auto", env("JOB_COMPLETION_INDEX", "3"), Shard{}, true},
		{"slurm", "auto", env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "5"), Shard{4, 5}, false},
		{"slurm_min_1", "auto", env("SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "5", "SLURM_ARRAY_TASK_MIN", "1"), Shard{4, 5}, false},
		{"aws_batch", "auto", env("AWS_BATCH_JOB_ARRAY_INDEX", "0", "AWS_BATCH_JOB_ARRAY_SIZE", "2"), Shard{0, 2}, false},
		{"auto_nothing_set", "auto", env(), Shard{}, true},
		{"auto_no_env_func", "auto", nil, Shard{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseShard(tc.in, tc.env)
			if (err != nil) != tc.err || got != tc.want {
				t.Fatalf("got %v, %v; want %v, err %v", got, err, tc.want, tc.err)
			}
			if err != nil && !errors.Is(err, ErrShard) {
				t.Errorf("error %v does not wrap ErrShard", err)
			}
		})
	}
}

func TestShardSelect(t *testing.T) {
	t.Parallel()
	in := []string{"a", "b", "c", "d", "e", "f", "g"}
	var all []string
	for i := range 3 {
		all = append(all, Shard{i, 3}.Select(in)...)
	}
	sort.Strings(all)
	if strings.Join(all, "") != "abcdefg" {
		t.Fatal(all)
	}
	if got := (Shard{}).Select(in); len(got) != len(in) {
		t.Fatal(got)
	}
}
