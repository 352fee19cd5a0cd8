package cluster

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Each engine's submit.sh is run against stand-ins for kubectl, sbatch and
// aws that record their arguments and answer as the real ones do with the
// flags the scripts use (sbatch --parsable: "jobid;cluster"; aws ... --query
// jobId --output text: the id).

const (
	stubSlurmID = "4242"
	stubArrayID = "0b1c-array"
)

const stub = `#!/bin/sh
{ printf '%s' "${0##*/}"; for a in "$@"; do printf '\037%s' "$a"; done; printf '\n'; } >> "$STUB_LOG"
case "${0##*/} $*" in
sbatch*--parsable*) echo "` + stubSlurmID + `;cluster1" ;;
sbatch*) echo "Submitted batch job 4243" ;;
aws*submit-analyze.json*) echo "` + stubArrayID + `" ;;
aws*submit-job*) echo "0b1c-sites" ;;
esac
`

// runSubmit runs script as scripts/cluster/ENGINE/submit.sh of a scratch
// tree (it changes to the tree's root) and returns the commands it ran.
func runSubmit(t *testing.T, engine string, script []byte) ([][]string, error) {
	t.Helper()
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	dir := filepath.Join(root, "scripts", "cluster", engine)
	for _, d := range []string{bin, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"kubectl", "sbatch", "aws"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "submit.sh")
	if err := os.WriteFile(p, script, 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(root, "calls")
	cmd := exec.Command("bash", p)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "STUB_LOG="+log)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("submit.sh: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(log)
	var calls [][]string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l != "" {
			calls = append(calls, strings.Split(l, "\x1f"))
		}
	}
	return calls, nil
}

// find returns the index of the first call after from that has every one
// of words among its arguments, or -1.
func find(calls [][]string, from int, words ...string) int {
	for i := max(from, 0); i < len(calls); i++ {
		ok := true
		for _, w := range words {
			ok = ok && slices.Contains(calls[i], w)
		}
		if ok {
			return i
		}
	}
	return -1
}

// flagValue returns the value of --name=value or --name value in call.
func flagValue(call []string, name string) (string, bool) {
	for i, a := range call {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
		if a == name && i+1 < len(call) {
			return call[i+1], true
		}
	}
	return "", false
}

func checkKubeSubmit(t *testing.T, ts templates) error {
	calls, err := runSubmit(t, "kubernetes", ts["kubernetes/submit.sh"])
	if err != nil {
		return err
	}
	k, err := parseKube(readTemplates(t, kubeFiles...))
	if err != nil {
		return err
	}
	pvc := find(calls, 0, "apply", "scripts/cluster/kubernetes/pvc.yaml")
	analyze := find(calls, pvc, "apply", "scripts/cluster/kubernetes/analyze-job.yaml")
	wait := find(calls, analyze, "wait", "--for=condition=complete", "job/"+k.analyze.Name)
	sites := find(calls, 0, "apply", "scripts/cluster/kubernetes/sites-job.yaml")
	switch {
	case pvc < 0 || analyze < 0:
		return fmt.Errorf("kubernetes: the claim and then the analyze Job are not applied: %q", calls)
	case wait < 0:
		return fmt.Errorf("kubernetes: no kubectl wait --for=condition=complete job/%s after applying it: %q", k.analyze.Name, calls)
	case sites < 0:
		return fmt.Errorf("kubernetes: sites-job.yaml is never applied: %q", calls)
	case sites < wait:
		return fmt.Errorf("kubernetes: the sites Job is applied before kubectl wait job/%s returns: %q", k.analyze.Name, calls)
	}
	return nil
}

func checkSlurmSubmit(t *testing.T, ts templates) error {
	calls, err := runSubmit(t, "slurm", ts["slurm/submit.sh"])
	if err != nil {
		return err
	}
	array := find(calls, 0, "--parsable", "scripts/cluster/slurm/analyze.sbatch")
	sites := find(calls, array, "scripts/cluster/slurm/sites.sbatch")
	if array < 0 || sites < 0 {
		return fmt.Errorf("slurm: want sbatch --parsable analyze.sbatch, then sbatch sites.sbatch: %q", calls)
	}
	dep, _ := flagValue(calls[sites], "--dependency")
	if want := "afterok:" + stubSlurmID; dep != want {
		return fmt.Errorf("slurm: the sites step has --dependency=%s, want %s (every task of the array exited 0; the job id without sbatch's ;cluster)", dep, want)
	}
	return nil
}

func checkBatchSubmit(t *testing.T, ts templates) error {
	calls, err := runSubmit(t, "aws-batch", ts["aws-batch/submit.sh"])
	if err != nil {
		return err
	}
	def := find(calls, 0, "register-job-definition", "file://scripts/cluster/aws-batch/job-definition.json")
	array := find(calls, def, "submit-job", "file://scripts/cluster/aws-batch/submit-analyze.json")
	sites := find(calls, array, "submit-job", "file://scripts/cluster/aws-batch/submit-sites.json")
	if def < 0 || array < 0 || sites < 0 {
		return fmt.Errorf("aws-batch: want the job definition registered, then the array and the sites job submitted: %q", calls)
	}
	if q, _ := flagValue(calls[array], "--query"); q != "jobId" {
		return fmt.Errorf("aws-batch: the array's submit-job does not print its jobId (--query jobId --output text): %q", calls[array])
	}
	dep, ok := flagValue(calls[sites], "--depends-on")
	if want := "jobId=" + stubArrayID; !ok || dep != want {
		return fmt.Errorf("aws-batch: the sites job has --depends-on %q, want %q: a plain dependency on the array job, which holds it until every child has succeeded (type N_TO_N would pair children of two arrays)", dep, want)
	}
	return nil
}

func TestSubmitScripts(t *testing.T) {
	for _, c := range []struct {
		file  string
		check func(*testing.T, templates) error
	}{
		{"kubernetes/submit.sh", checkKubeSubmit},
		{"slurm/submit.sh", checkSlurmSubmit},
		{"aws-batch/submit.sh", checkBatchSubmit},
	} {
		if err := c.check(t, readTemplates(t, c.file)); err != nil {
			t.Error(err)
		}
	}
}

func TestSubmitScriptsRejectMistakes(t *testing.T) {
	k, s, b := "kubernetes/submit.sh", "slurm/submit.sh", "aws-batch/submit.sh"
	ts := readTemplates(t, k, s, b)
	check := func(file string, fn func(*testing.T, templates) error) func(templates) error {
		return func(ts templates) error { return fn(t, templates{file: ts[file]}) }
	}
	rejects(t, ts, check(k, checkKubeSubmit), []mutation{
		{"no_wait", k, "kubectl wait --for=condition=complete --timeout=24h job/robotstat-analyze\n", "", "kubectl wait"},
		{"waits_for_other_job", k, "--timeout=24h job/robotstat-analyze", "--timeout=24h job/robotstat", "kubectl wait"},
		{"waits_for_start", k, "--for=condition=complete", "--for=condition=ready", "kubectl wait"},
		{"sites_applied_first", k, "kubectl apply -f scripts/cluster/kubernetes/analyze-job.yaml\n", "kubectl apply -f scripts/cluster/kubernetes/analyze-job.yaml\nkubectl apply -f scripts/cluster/kubernetes/sites-job.yaml\n", "before kubectl wait"},
		{"sites_never_applied", k, "kubectl apply -f scripts/cluster/kubernetes/sites-job.yaml\n", "", "never applied"},
	})
	rejects(t, ts, check(s, checkSlurmSubmit), []mutation{
		{"afterany", s, "--dependency=afterok:$jobid", "--dependency=afterany:$jobid", "afterok"},
		{"no_dependency", s, "--dependency=afterok:$jobid ", "", "--dependency"},
		{"cluster_suffix_kept", s, " | cut -d';' -f1", "", "cluster"},
	})
	rejects(t, ts, check(b, checkBatchSubmit), []mutation{
		{"n_to_n", b, "--depends-on jobId=$array", "--depends-on jobId=$array,type=N_TO_N", "N_TO_N"},
		{"no_dependency", b, " --depends-on jobId=$array", "", "--depends-on"},
		{"no_job_id", b, " --query jobId --output text", "", "jobId"},
	})
}

// TestReadmeShowsSubmitCommands: the README's cluster section gives the
// commands each submit.sh runs, word for word.
func TestReadmeShowsSubmitCommands(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"kubernetes/submit.sh", "slurm/submit.sh", "aws-batch/submit.sh"} {
		b, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "set ") || strings.HasPrefix(l, "cd ") {
				continue
			}
			if !strings.Contains(string(readme), "\n"+l+"\n") {
				t.Errorf("README.md lacks %s's command\n%s", f, l)
			}
		}
	}
}
