package cluster

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/schema"
)

// The mechanics, with real processes: the templates' own commands, started
// the way each engine starts them (the index and count in the environment,
// up to the engine's parallelism at once, all into one folder), then the
// sites step, against a generated corpus. Every table must hold exactly the
// rows of one unsharded run, and the completion records must show that
// shard i read inputs i, i+n, i+2n, ... and nothing else.

// corpus is the test's input: a manifest and, in its order, the base names
// of the files it lists (what the captures' source column holds).
type corpus struct {
	manifest string
	inputs   []string
}

// tools builds robotstat and gencorpus from this checkout.
func tools(t *testing.T) (robotstat, gencorpus string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-buildvcs=false", "-o", dir+string(filepath.Separator), "./cmd/robotstat", "./scripts/gencorpus")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "robotstat"), filepath.Join(dir, "gencorpus")
}

// makeCorpus writes 15 Common-Crawl-shaped WARCs of 40 captures each
// (scripts/gencorpus, bodies from the repository's own testdata/avuim)
// and adds the sites fixture, whose redirects cross its two files (shards 0 and 1 read them),
// and the embedded sample: three crawls in all.
func makeCorpus(t *testing.T, gencorpus string) corpus {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(gencorpus, "-n", "600", "-per-file", "40", "-seed", "7",
		"-robots", filepath.Join("..", "..", "testdata", "avuim"), "-out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gencorpus: %v\n%s", err, out)
	}
	generated, _ := filepath.Glob(filepath.Join(dir, "robotstxt", "*.warc.gz"))
	fixture, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sites", "*.warc.gz"))
	sample := filepath.Join("..", "..", "internal", "sample", "robotstat-sample.warc.gz")
	if len(generated) != 15 || len(fixture) != 2 {
		t.Fatalf("%d generated files, %d fixture files", len(generated), len(fixture))
	}
	var c corpus
	var lines []string
	add := func(rel string) {
		lines = append(lines, rel)
		c.inputs = append(c.inputs, path.Base(rel))
	}
	copyIn := func(src string) string {
		b, err := os.ReadFile(src)
		if err == nil {
			err = os.MkdirAll(filepath.Join(dir, "other"), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "other", filepath.Base(src)), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return "other/" + filepath.Base(src)
	}
	for _, f := range fixture {
		add(copyIn(f))
	}
	for _, f := range generated {
		add("robotstxt/" + filepath.Base(f))
	}
	add(copyIn(sample))
	c.manifest = filepath.Join(dir, "inputs.paths")
	if err := os.WriteFile(c.manifest, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// baseEnv is the test's environment without anything --shard auto or the
// templates read, so that a test run inside a Kubernetes Pod or a Slurm
// job sees only the variables each case sets.
func baseEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "JOB_COMPLETION_") && !strings.HasPrefix(e, "SLURM_") &&
			!strings.HasPrefix(e, "AWS_BATCH_") && !strings.HasPrefix(e, "ROBOTSTAT_") {
			env = append(env, e)
		}
	}
	return env
}

// shardPlan is one way of running a crawl: n shard processes, at most
// parallel at once, into out, then the sites step.
type shardPlan struct {
	name     string
	n        int
	parallel int
	out      string
	shard    func(i int) *exec.Cmd
	sites    func() *exec.Cmd
}

// run starts the shards as the engine does, waits for every one, then runs
// the sites step.
func (p *shardPlan) run(t *testing.T) {
	t.Helper()
	sem := make(chan struct{}, min(p.parallel, 16))
	var wg sync.WaitGroup
	errs := make([]error, p.n)
	for i := range p.n {
		cmd := p.shard(i)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("shard %d/%d: %v\n%s", i, p.n, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if out, err := p.sites().CombinedOutput(); err != nil {
		t.Fatalf("sites step: %v\n%s", err, out)
	}
}

// command makes an exec.Cmd of argv (robotstat taken from bin) with env
// added to the base environment.
func command(bin string, argv []string, env ...string) *exec.Cmd {
	if argv[0] == "robotstat" {
		argv = append([]string{bin}, argv[1:]...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(baseEnv(), env...)
	return cmd
}

// local maps a template's command onto this machine: the http(s) input
// (the crawl's manifest) becomes the test's manifest, and a path on the
// shared storage becomes the same path under root, found by where (the
// storage's name and the path inside it).
func local(argv []string, manifest, root string, where func(string) (string, error)) ([]string, error) {
	out := slices.Clone(argv)
	for i, a := range out {
		switch {
		case strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://"):
			out[i] = manifest
		case i > 0 && strings.HasPrefix(a, "/"):
			loc, err := where(a)
			if err != nil {
				return nil, err
			}
			out[i] = filepath.Join(root, strings.ReplaceAll(loc, ":", string(filepath.Separator)))
		}
	}
	return out, nil
}

func explicitPlan(bin string, c corpus, root string, n int) *shardPlan {
	out := filepath.Join(root, "out")
	return &shardPlan{
		name: "shard_i_of_" + strconv.Itoa(n), n: n, parallel: n, out: out,
		shard: func(i int) *exec.Cmd {
			return command(bin, []string{"robotstat", "analyze", "--quiet", "--shard", fmt.Sprintf("%d/%d", i, n), "--out", out, c.manifest})
		},
		sites: func() *exec.Cmd { return command(bin, []string{"robotstat", "sites", out}) },
	}
}

func kubernetesPlan(t *testing.T, bin string, c corpus, root string) *shardPlan {
	k, err := parseKube(readTemplates(t, kubeFiles...))
	if err != nil {
		t.Fatal(err)
	}
	ac, aArgv, _ := jobContainer(kubeFiles[1], &k.analyze)
	sc, sArgv, _ := jobContainer(kubeFiles[2], &k.sites)
	aArgv, err = local(aArgv, c.manifest, root, func(p string) (string, error) { return claimPath(kubeFiles[1], &k.analyze, ac, p) })
	if err != nil {
		t.Fatal(err)
	}
	sArgv, err = local(sArgv, c.manifest, root, func(p string) (string, error) { return claimPath(kubeFiles[2], &k.sites, sc, p) })
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, e := range ac.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	return &shardPlan{
		name: "kubernetes_indexed_job", n: int(*k.analyze.Spec.Completions), parallel: int(*k.analyze.Spec.Parallelism),
		out: sArgv[len(sArgv)-1],
		shard: func(i int) *exec.Cmd {
			// The Job controller sets the index (JOB_COMPLETION_INDEX) in every Pod.
			return command(bin, aArgv, append(env, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))...)
		},
		sites: func() *exec.Cmd { return command(bin, sArgv) },
	}
}

// slurmPlan runs the sbatch scripts with bash, as Slurm's batch step does,
// for the array given (the script's own #SBATCH --array when empty, else
// as sbatch --array=SPEC would override it).
func slurmPlan(t *testing.T, bin string, c corpus, root, spec string) *shardPlan {
	a, _, err := parseSlurm(readTemplates(t, slurmFiles...))
	if err != nil {
		t.Fatal(err)
	}
	if spec == "" {
		spec = a.options["array"]
	}
	first, last, parallel, err := arrayRange(spec)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	env := []string{"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"), a.folder().env + "=" + out}
	for _, v := range a.vars {
		if strings.HasPrefix(v.value, "https://") || strings.HasPrefix(v.value, "http://") {
			env = append(env, v.env+"="+c.manifest)
		}
	}
	script := func(name string, more ...string) *exec.Cmd {
		cmd := exec.Command("bash", filepath.FromSlash(name))
		cmd.Env = append(append(baseEnv(), env...), more...)
		return cmd
	}
	return &shardPlan{
		name: "slurm_array_" + spec, n: last - first + 1, parallel: parallel, out: out,
		shard: func(i int) *exec.Cmd {
			// What Slurm sets in each task (job_array.html, "Job ID and
			// Environment Variables").
			return script(slurmFiles[0], "SLURM_JOB_ID="+strconv.Itoa(5000+i), "SLURM_ARRAY_JOB_ID=4242",
				"SLURM_ARRAY_TASK_ID="+strconv.Itoa(first+i), "SLURM_ARRAY_TASK_COUNT="+strconv.Itoa(last-first+1),
				"SLURM_ARRAY_TASK_MIN="+strconv.Itoa(first), "SLURM_ARRAY_TASK_MAX="+strconv.Itoa(last))
		},
		sites: func() *exec.Cmd { return script(slurmFiles[1], "SLURM_JOB_ID=4243") },
	}
}

func batchPlan(t *testing.T, bin string, c corpus, root string) *shardPlan {
	b, err := parseBatch(readTemplates(t, batchFiles...))
	if err != nil {
		t.Fatal(err)
	}
	cp := b.def.ContainerProperties
	where := func(p string) (string, error) { return volumeOf(batchFiles[0], cp, p) }
	aArgv, err := substitute(&b.def, &b.array, cp.Command)
	if err != nil {
		t.Fatal(err)
	}
	if aArgv, err = local(aArgv, c.manifest, root, where); err != nil {
		t.Fatal(err)
	}
	sArgv, err := local(b.sites.ContainerOverrides.Command, c.manifest, root, where)
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, e := range cp.Environment {
		env = append(env, *e.Name+"="+*e.Value)
	}
	size := int(*b.array.ArrayProperties.Size)
	return &shardPlan{
		name: "aws_batch_array_job", n: size, parallel: size, out: sArgv[len(sArgv)-1],
		shard: func(i int) *exec.Cmd {
			// What AWS Batch sets in each child (job_env_vars.html).
			return command(bin, aArgv, append(env, "AWS_BATCH_JOB_ID=0b1c-array:"+strconv.Itoa(i),
				"AWS_BATCH_JOB_ARRAY_INDEX="+strconv.Itoa(i), "AWS_BATCH_JOB_ARRAY_SIZE="+strconv.Itoa(size))...)
		},
		sites: func() *exec.Cmd { return command(bin, sArgv, "AWS_BATCH_JOB_ID=0b1c-sites") },
	}
}

// dataset is every table of an output folder, each row as JSON (all its
// columns), sorted, so that two folders compare as multisets of rows.
type dataset map[schema.TableName][]string

func tableRows[T schema.Row](t *testing.T, root string, table schema.TableName, into dataset) {
	t.Helper()
	files, err := schema.TableFiles(root, table)
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	var rows []string
	for _, f := range files {
		rs, err := parquet.ReadFile[T](f.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, string(b))
		}
	}
	slices.Sort(rows)
	into[table] = rows
}

func readDataset(t *testing.T, root string) dataset {
	d := dataset{}
	tableRows[schema.CaptureRow](t, root, schema.Captures, d)
	tableRows[schema.GroupRow](t, root, schema.Groups, d)
	tableRows[schema.AgentRow](t, root, schema.Agents, d)
	tableRows[schema.DirectiveRow](t, root, schema.Directives, d)
	tableRows[schema.VerdictsRow](t, root, schema.Verdicts, d)
	tableRows[schema.SignalRow](t, root, schema.Signals, d)
	tableRows[schema.ErrorRow](t, root, schema.Errors, d)
	tableRows[schema.SiteRow](t, root, schema.Sites, d)
	tableRows[schema.SiteBotRow](t, root, schema.SiteBots, d)
	tableRows[schema.SiteHistoryRow](t, root, schema.SiteHistory, d) // three crawls: built
	tableRows[schema.DomainRow](t, root, schema.Domains, d)
	for _, table := range append(schema.DefaultTables(), schema.ReduceTables()...) {
		if _, ok := d[table]; !ok {
			t.Fatalf("readDataset reads no %s, a table analyze or sites writes by default: add it", table)
		}
	}
	return d
}

func compareDatasets(t *testing.T, got, want dataset) {
	t.Helper()
	for _, table := range append(schema.DefaultTables(), schema.ReduceTables()...) {
		g, w := got[table], want[table]
		if slices.Equal(g, w) {
			continue
		}
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		cut := func(rows []string) string {
			if i >= len(rows) {
				return "(none)"
			}
			return rows[i][:min(len(rows[i]), 400)]
		}
		t.Errorf("%s: %d rows, the unsharded run %d; first difference at sorted row %d:\n got %s\nwant %s", table, len(g), len(w), i, cut(g), cut(w))
	}
}

// checkRecords reads the completion records: one per input (robotstat
// analyze commits input by input), each written by shard k mod n for input
// k (the shard its summary names) and done, the sources of its captures
// that input alone; nothing uncommitted and no temporary file left behind.
func checkRecords(t *testing.T, out string, inputs []string, n int) {
	t.Helper()
	ix, err := schema.ReadIndex(out)
	if err != nil {
		t.Fatal(err)
	}
	readBy := map[string][]string{} // input base name -> shards that committed it
	for _, r := range ix.Sorted() {
		if r.RunID == "sites" {
			continue // the sites step's record
		}
		var sum struct {
			Shard string `json:"shard"`
		}
		if err := json.Unmarshal(r.Summary, &sum); err != nil {
			t.Fatalf("run %s: summary %s: %v", r.RunID, r.Summary, err)
		}
		if sum.Shard == "" || r.State != schema.RecordDone {
			t.Errorf("run %s (%s): shard %q, state %s (an unsharded run, or a failed input)", r.RunID, r.Input, sum.Shard, r.State)
		}
		base := filepath.Base(r.Input)
		readBy[base] = append(readBy[base], sum.Shard)
		for _, f := range r.Files {
			if f.Table != schema.Captures {
				continue
			}
			rows, err := parquet.ReadFile[schema.CaptureRow](filepath.Join(out, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range rows {
				// source is the input's path below what was named (here the
				// manifest's folder); its last element is the file's name.
				if path.Base(row.Source) != base {
					t.Errorf("run %s of %s holds a capture of %s", r.RunID, base, row.Source)
				}
			}
		}
	}
	for k, in := range inputs {
		if want := fmt.Sprintf("%d/%d", k%n, n); !slices.Equal(readBy[in], []string{want}) {
			t.Errorf("input %d (%s) was committed by shards %v, want %s alone", k, in, readBy[in], want)
		}
		delete(readBy, in)
	}
	if len(readBy) > 0 {
		t.Errorf("records of inputs not in the manifest: %v", readBy)
	}
	for _, table := range schema.AllTables() {
		if _, uncommitted, err := ix.TableFiles(table); err == nil && uncommitted > 0 {
			t.Errorf("%s: %d files no completion record names", table, uncommitted)
		}
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
}

func TestShardedRunsEqualOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds robotstat and runs some 200 processes (about 20 s)")
	}
	start := time.Now()
	bin, gencorpus := tools(t)
	c := makeCorpus(t, gencorpus)
	whole := filepath.Join(t.TempDir(), "whole")
	if out, err := command(bin, []string{"robotstat", "analyze", "--quiet", "--out", whole, c.manifest}).CombinedOutput(); err != nil {
		t.Fatalf("unsharded run: %v\n%s", err, out)
	}
	want := readDataset(t, whole)
	if len(want[schema.Captures]) < 600 || len(want[schema.Sites]) < 500 {
		t.Fatalf("the unsharded run wrote %d captures and %d sites", len(want[schema.Captures]), len(want[schema.Sites]))
	}
	t.Logf("built the tools, the corpus (%d inputs) and the unsharded run in %v", len(c.inputs), time.Since(start).Round(time.Millisecond))

	plans := []func(root string) *shardPlan{
		func(root string) *shardPlan { return explicitPlan(bin, c, root, 3) },
		func(root string) *shardPlan { return explicitPlan(bin, c, root, 4) },
		func(root string) *shardPlan { return kubernetesPlan(t, bin, c, root) },
		func(root string) *shardPlan { return slurmPlan(t, bin, c, root, "") },
		func(root string) *shardPlan { return slurmPlan(t, bin, c, root, "1-3") },
		func(root string) *shardPlan { return batchPlan(t, bin, c, root) },
	}
	for _, mk := range plans {
		p := mk(t.TempDir())
		t.Run(p.name, func(t *testing.T) {
			start := time.Now()
			p.run(t)
			compareDatasets(t, readDataset(t, p.out), want)
			checkRecords(t, p.out, c.inputs, p.n)
			t.Logf("%d shards, %d at once: %v", p.n, min(p.parallel, 16), time.Since(start).Round(time.Millisecond))
		})
	}
}
