package pipeline

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the inputs of one task of a cluster array job: unit number
// k of the expanded input list (command-line order; folders in lexical
// order; manifests in line order; see Unit) belongs to shard k mod Count.
// Every task given the same inputs computes the same list, so tasks
// 0..Count-1 read each input exactly once between them, and a unit is
// never split between tasks. The zero value (Count 0) selects
// everything. A Shard is a plain value.
type Shard struct {
	Index, Count int
}

// shardEnv lists, per scheduler, the variables --shard auto reads.
var shardEnv = [...]struct{ index, count string }{
	{"JOB_COMPLETION_INDEX", "JOB_COMPLETION_COUNT"},          // Kubernetes indexed Job (count: set it from .spec.completions)
	{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"},         // Slurm job array
	{"AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"}, // AWS Batch array job
}

// ParseShard parses "i/n" (0 <= i < n), "" (no sharding) or "auto", which
// reads the first scheduler whose index variable is set, through getenv (pass
// os.Getenv; the library never reads the environment itself). Kubernetes does
// not export the completion count, so the job template must set
// JOB_COMPLETION_COUNT; Slurm's SLURM_ARRAY_TASK_ID is taken relative to
// SLURM_ARRAY_TASK_MIN when that is set.
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	switch s {
	case "", "none":
		return Shard{}, nil
	case "auto":
		if getenv == nil {
			return Shard{}, fmt.Errorf("%w: auto needs an environment", ErrShard)
		}
		for _, v := range shardEnv {
			is := getenv(v.index)
			if is == "" {
				continue
			}
			ns := getenv(v.count)
			if ns == "" {
				return Shard{}, fmt.Errorf("%w: %s=%s is set but %s is not", ErrShard, v.index, is, v.count)
			}
			i, err1 := strconv.Atoi(is)
			n, err2 := strconv.Atoi(ns)
			if err1 != nil || err2 != nil {
				return Shard{}, fmt.Errorf("%w: %s=%q %s=%q: want integers", ErrShard, v.index, is, v.count, ns)
			}
			if v.index == "SLURM_ARRAY_TASK_ID" {
				if m, err := strconv.Atoi(getenv("SLURM_ARRAY_TASK_MIN")); err == nil {
					i -= m
				}
			}
			return checked(Shard{Index: i, Count: n})
		}
		return Shard{}, fmt.Errorf("%w: auto: none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX is set", ErrShard)
	}
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%w: %q: want i/n, e.g. 0/4, or auto", ErrShard, s)
	}
	return checked(Shard{Index: i, Count: n})
}

// checked validates a parsed shard, which must name a count (0/0 is not
// "no sharding" when written out).
func checked(s Shard) (Shard, error) {
	if s.Count < 1 {
		return Shard{}, fmt.Errorf("%w: %d/%d: want n >= 1", ErrShard, s.Index, s.Count)
	}
	if err := s.validate(); err != nil {
		return Shard{}, err
	}
	return s, nil
}

func (s Shard) validate() error {
	if s.Count == 0 && s.Index == 0 {
		return nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("%w: %d/%d: want 0 <= i < n", ErrShard, s.Index, s.Count)
	}
	return nil
}

// Select returns the inputs of this shard, in order. It does not copy when
// the shard selects everything.
func (s Shard) Select(inputs []string) []string { return selectShard(s, inputs) }

func selectShard[T any](s Shard, list []T) []T {
	if s.Count <= 1 {
		return list
	}
	out := make([]T, 0, len(list)/s.Count+1)
	for k := s.Index; k < len(list); k += s.Count {
		out = append(out, list[k])
	}
	return out
}

// selectUnits returns the inputs of the units of this shard (unit k of n
// goes to shard k mod n), in order.
func selectUnits(s Shard, list []input) []input {
	if s.Count <= 1 {
		return list
	}
	var out []input
	for _, in := range list {
		if in.unit.Index%s.Count == s.Index {
			out = append(out, in)
		}
	}
	return out
}

// String formats the shard as ParseShard reads it.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}
