package cluster

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var slurmFiles = []string{"slurm/analyze.sbatch", "slurm/sites.sbatch"}

// sbatchScript is a batch script as sbatch and bash read it: the #SBATCH
// options (sbatch stops reading them at the first line that is not a
// comment or blank, sbatch(1)), the variables set from the environment
// with a default (out="${ROBOTSTAT_OUT:-/x}") and the robotstat command.
type sbatchScript struct {
	options map[string]string
	vars    map[string]envDefault
	raw     []string // the robotstat command's words, quotes removed
	argv    []string // the same, variables replaced by their defaults
}

type envDefault struct{ env, value string }

var (
	sbatchOption = regexp.MustCompile(`^#SBATCH\s+--?([a-z-]+)(?:[= ](\S+))?`)
	envAssign    = regexp.MustCompile(`^(\w+)="\$\{(\w+):-([^}]*)\}"$`)
	// contiguous is the --array form --shard auto can use: one range, ids
	// min..max, with an optional %limit on the tasks running at once.
	contiguous = regexp.MustCompile(`^(\d+)-(\d+)(?:%(\d+))?$`)
)

func parseSbatch(name string, data []byte) (*sbatchScript, error) {
	s := &sbatchScript{options: map[string]string{}, vars: map[string]envDefault{}}
	lines := strings.Split(string(data), "\n")
	if !strings.HasPrefix(lines[0], "#!") {
		return nil, fmt.Errorf("%s: does not start with #!: sbatch refuses a script without an interpreter line", name)
	}
	var errs []error
	commands := false
	var robotstat []string
	for n, l := range lines {
		l = strings.TrimSpace(l)
		if m := sbatchOption.FindStringSubmatch(l); m != nil {
			if commands {
				errs = append(errs, fmt.Errorf("%s:%d: #SBATCH after the first command: sbatch ignores it", name, n+1))
			}
			key := m[1]
			if key == "a" {
				key = "array"
			}
			s.options[key] = m[2]
			continue
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		commands = true
		if m := envAssign.FindStringSubmatch(l); m != nil {
			s.vars[m[1]] = envDefault{m[2], m[3]}
		}
		if f := strings.Fields(strings.TrimPrefix(l, "exec ")); f[0] == "robotstat" {
			if robotstat != nil {
				errs = append(errs, fmt.Errorf("%s:%d: a second robotstat command", name, n+1))
			}
			robotstat = f
		}
	}
	if robotstat == nil {
		return nil, errors.Join(append(errs, fmt.Errorf("%s: runs no robotstat command", name))...)
	}
	for _, tok := range robotstat {
		tok = strings.Trim(tok, `"`)
		s.raw = append(s.raw, tok)
		if v, ok := s.varOf(tok); ok {
			tok = v.value
		} else if strings.HasPrefix(tok, "$") {
			errs = append(errs, fmt.Errorf("%s: %s is set by no NAME=\"${ENV:-default}\" line", name, tok))
		}
		s.argv = append(s.argv, tok)
	}
	return s, errors.Join(errs...)
}

// varOf returns the variable a word of the command expands to.
func (s *sbatchScript) varOf(word string) (envDefault, bool) {
	name, ok := strings.CutPrefix(word, "$")
	v, set := s.vars[strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}")]
	return v, ok && set
}

// folder is the variable the command's output folder comes from: --out's
// value for analyze, the argument for sites.
func (s *sbatchScript) folder() envDefault {
	word := s.raw[len(s.raw)-1]
	for i, w := range s.raw[:len(s.raw)-1] {
		if w == "--out" {
			word = s.raw[i+1]
		}
	}
	v, _ := s.varOf(word)
	return v
}

// arrayRange reads a contiguous --array: its first and last task id and
// how many tasks run at once.
func arrayRange(spec string) (first, last, parallel int, err error) {
	m := contiguous.FindStringSubmatch(spec)
	if m == nil {
		return 0, 0, 0, fmt.Errorf("--array=%s is not one contiguous range A-B[%%limit]: with a step or a list some task ids lie past SLURM_ARRAY_TASK_COUNT and --shard auto fails there", spec)
	}
	first, _ = strconv.Atoi(m[1])
	last, _ = strconv.Atoi(m[2])
	parallel = last - first + 1
	if m[3] != "" {
		parallel, _ = strconv.Atoi(m[3])
	}
	if last < first || parallel < 1 {
		return 0, 0, 0, fmt.Errorf("--array=%s: an empty range", spec)
	}
	return first, last, parallel, nil
}

func parseSlurm(ts templates) (analyze, sites *sbatchScript, err error) {
	a, errA := parseSbatch(slurmFiles[0], ts[slurmFiles[0]])
	s, errS := parseSbatch(slurmFiles[1], ts[slurmFiles[1]])
	return a, s, errors.Join(errA, errS)
}

func checkSlurm(ts templates) error {
	a, s, err := parseSlurm(ts)
	if err != nil {
		return err
	}
	aName, sName := slurmFiles[0], slurmFiles[1]
	var errs []error
	spec, ok := a.options["array"]
	if !ok {
		errs = append(errs, fmt.Errorf("%s: no #SBATCH --array: it would run one task, without SLURM_ARRAY_TASK_ID", aName))
	} else if _, _, _, err := arrayRange(spec); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", aName, err))
	}
	if _, ok := s.options["array"]; ok {
		errs = append(errs, fmt.Errorf("%s: the sites step is an array: it must run once", sName))
	}
	out, err := checkAnalyze(aName, a.argv)
	errs = append(errs, err)
	dir, err := checkSites(sName, s.argv)
	errs = append(errs, err)
	if av, sv := a.folder(), s.folder(); av.env == "" {
		errs = append(errs, fmt.Errorf("%s: --out is not a variable set from the environment with a default", aName))
	} else if av != sv || out != dir {
		errs = append(errs, fmt.Errorf("%s writes ${%s:-%s} but %s reads ${%s:-%s}: not the same folder", aName, av.env, av.value, sName, sv.env, sv.value))
	}
	return errors.Join(errs...)
}

func TestSlurmTemplates(t *testing.T) {
	if err := checkSlurm(readTemplates(t, slurmFiles...)); err != nil {
		t.Fatal(err)
	}
}

func TestSlurmTemplatesRejectMistakes(t *testing.T) {
	a, s := slurmFiles[0], slurmFiles[1]
	rejects(t, readTemplates(t, slurmFiles...), checkSlurm, []mutation{
		{"array_with_step", a, "--array=0-63%16", "--array=0-63:2", "contiguous"},
		{"array_list", a, "--array=0-63%16", "--array=0,5,9", "contiguous"},
		{"no_array", a, "#SBATCH --array=0-63%16\n", "", "--array"},
		{"options_after_a_command", a, "#SBATCH --job-name=robotstat-analyze", "umask 002\n#SBATCH --job-name=robotstat-analyze", "sbatch ignores it"},
		{"no_interpreter_line", a, "#!/bin/bash\n", "", "#!"},
		{"fixed_shard", a, "exec robotstat analyze --shard auto", "exec robotstat analyze --shard 0/64", "--shard"},
		{"out_not_from_env", a, `--out "$out"`, `--out /shared/robotstat/out`, "not a variable"},
		{"sites_other_default", s, "/shared/robotstat/out}", "/shared/robotstat/out2}", "not the same folder"},
		{"sites_other_variable", s, "ROBOTSTAT_OUT", "OUT_DIR", "not the same folder"},
		{"sites_is_an_array", s, "#SBATCH --job-name=robotstat-sites", "#SBATCH --job-name=robotstat-sites\n#SBATCH --array=0-3", "must run once"},
		{"sites_runs_analyze", s, `exec robotstat sites "$out"`, `exec robotstat analyze "$out"`, "robotstat sites OUT"},
	})
}
