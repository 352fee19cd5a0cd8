package cluster

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

var kubeFiles = []string{"kubernetes/pvc.yaml", "kubernetes/analyze-job.yaml", "kubernetes/sites-job.yaml"}

// kube is the Kubernetes templates, decoded into the API's own types.
type kube struct {
	pvc            corev1.PersistentVolumeClaim
	analyze, sites batchv1.Job
}

// decodeKube decodes a manifest the way the API server does: YAML to JSON
// (a key given twice is an error), then case-sensitive JSON into the typed
// object, where a field the type does not have is an error (kubectl apply
// --validate=strict).
func decodeKube(name string, data []byte, v any) error {
	j, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	strict, err := sigsjson.UnmarshalStrict(j, v)
	if err == nil {
		err = errors.Join(strict...)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func parseKube(ts templates) (*kube, error) {
	var k kube
	return &k, errors.Join(
		decodeKube(kubeFiles[0], ts[kubeFiles[0]], &k.pvc),
		decodeKube(kubeFiles[1], ts[kubeFiles[1]], &k.analyze),
		decodeKube(kubeFiles[2], ts[kubeFiles[2]], &k.sites),
	)
}

// jobContainer returns a Job's only container and its command line.
func jobContainer(name string, j *batchv1.Job) (*corev1.Container, []string, error) {
	cs := j.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		return nil, nil, fmt.Errorf("%s: %d containers, want 1", name, len(cs))
	}
	return &cs[0], append(append([]string{}, cs[0].Command...), cs[0].Args...), nil
}

// claimPath says where dir lies: the claim of the persistent volume
// mounted over it and the path inside that volume.
func claimPath(name string, j *batchv1.Job, c *corev1.Container, dir string) (string, error) {
	var best *corev1.VolumeMount
	var rel string
	for i, m := range c.VolumeMounts {
		if r, ok := underMount(dir, m.MountPath); ok && (best == nil || len(m.MountPath) > len(best.MountPath)) {
			best, rel = &c.VolumeMounts[i], r
		}
	}
	if best == nil {
		return "", fmt.Errorf("%s: %s is on no volume mount of container %s: the shards' files would stay in the Pod", name, dir, c.Name)
	}
	if best.ReadOnly {
		return "", fmt.Errorf("%s: volume mount %s is read-only", name, best.Name)
	}
	for _, v := range j.Spec.Template.Spec.Volumes {
		if v.Name != best.Name {
			continue
		}
		if v.PersistentVolumeClaim == nil {
			return "", fmt.Errorf("%s: volume %s is not a persistentVolumeClaim, so other Pods do not see it", name, v.Name)
		}
		return v.PersistentVolumeClaim.ClaimName + ":" + path.Join("/", best.SubPath, rel), nil
	}
	return "", fmt.Errorf("%s: volume mount %s names no volume of the Pod", name, best.Name)
}

func checkKube(ts templates) error {
	k, err := parseKube(ts)
	if err != nil {
		return err
	}
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	pvcName, aName, sName := kubeFiles[0], kubeFiles[1], kubeFiles[2]
	if k.pvc.APIVersion != "v1" || k.pvc.Kind != "PersistentVolumeClaim" {
		fail("%s: %s %s, want v1 PersistentVolumeClaim", pvcName, k.pvc.APIVersion, k.pvc.Kind)
	}
	rwx := false
	for _, m := range k.pvc.Spec.AccessModes {
		rwx = rwx || m == corev1.ReadWriteMany
	}
	if !rwx {
		fail("%s: access modes %v lack ReadWriteMany: Pods on different nodes write the same folder at once", pvcName, k.pvc.Spec.AccessModes)
	}

	for _, j := range []struct {
		name string
		job  *batchv1.Job
	}{{aName, &k.analyze}, {sName, &k.sites}} {
		if j.job.APIVersion != "batch/v1" || j.job.Kind != "Job" {
			fail("%s: %s %s, want batch/v1 Job", j.name, j.job.APIVersion, j.job.Kind)
		}
		if p := j.job.Spec.Template.Spec.RestartPolicy; p != corev1.RestartPolicyNever {
			fail("%s: restartPolicy %q, want Never (a failed try becomes a new Pod; backoffLimitPerIndex and podFailurePolicy require it)", j.name, p)
		}
	}
	if k.analyze.Name == k.sites.Name {
		fail("%s and %s are both job/%s", aName, sName, k.analyze.Name)
	}

	// The shards: one Pod per index, each told the count.
	spec := k.analyze.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		fail("%s: completionMode is not Indexed: Pods get no JOB_COMPLETION_INDEX", aName)
	}
	completions := int32(0)
	if spec.Completions == nil || *spec.Completions < 1 || *spec.Completions > 100000 {
		fail("%s: completions must be set, 1 to 100000 (Indexed Jobs)", aName)
	} else {
		completions = *spec.Completions
	}
	if spec.Parallelism == nil || *spec.Parallelism < 1 || *spec.Parallelism > completions {
		fail("%s: parallelism must be 1 to completions (%d)", aName, completions)
	}
	if ac, argv, err := jobContainer(aName, &k.analyze); err != nil {
		errs = append(errs, err)
	} else {
		out, err := checkAnalyze(aName, argv)
		errs = append(errs, err)
		count := ""
		for _, e := range ac.Env {
			switch e.Name {
			case "JOB_COMPLETION_COUNT":
				count = e.Value
			case "JOB_COMPLETION_INDEX":
				fail("%s: sets JOB_COMPLETION_INDEX, which the Job controller sets per Pod", aName)
			}
		}
		if count != strconv.Itoa(int(completions)) {
			fail("%s: JOB_COMPLETION_COUNT is %q but completions is %d: --shard auto would split the inputs into the wrong number of shards", aName, count, completions)
		}
		if p := spec.PodFailurePolicy; p != nil {
			for _, r := range p.Rules {
				if r.OnExitCodes != nil && r.OnExitCodes.ContainerName != nil && *r.OnExitCodes.ContainerName != ac.Name {
					fail("%s: podFailurePolicy names container %q, the Pod's is %q", aName, *r.OnExitCodes.ContainerName, ac.Name)
				}
			}
		}
		aLoc, err := claimPath(aName, &k.analyze, ac, out)
		errs = append(errs, err)
		if err == nil && !strings.HasPrefix(aLoc, k.pvc.Name+":") {
			fail("%s: --out is on claim %s, not on %s's %s", aName, aLoc, pvcName, k.pvc.Name)
		}

		// The sites step: one Pod, reading what the shards wrote.
		ss := k.sites.Spec
		if (ss.CompletionMode != nil && *ss.CompletionMode == batchv1.IndexedCompletion) ||
			(ss.Completions != nil && *ss.Completions != 1) || (ss.Parallelism != nil && *ss.Parallelism != 1) {
			fail("%s: the sites step must be one Pod (completions and parallelism 1, not Indexed)", sName)
		}
		if sc, argv, err := jobContainer(sName, &k.sites); err != nil {
			errs = append(errs, err)
		} else if dir, err := checkSites(sName, argv); err != nil {
			errs = append(errs, err)
		} else if sLoc, err := claimPath(sName, &k.sites, sc, dir); err != nil {
			errs = append(errs, err)
		} else if aLoc != "" && sLoc != aLoc {
			fail("%s reads %s but the shards write %s: not the same folder", sName, sLoc, aLoc)
		}
	}
	return errors.Join(errs...)
}

func TestKubernetesTemplates(t *testing.T) {
	if err := checkKube(readTemplates(t, kubeFiles...)); err != nil {
		t.Fatal(err)
	}
}

func TestKubernetesTemplatesRejectMistakes(t *testing.T) {
	a, s, p := kubeFiles[1], kubeFiles[2], kubeFiles[0]
	rejects(t, readTemplates(t, kubeFiles...), checkKube, []mutation{
		{"not_indexed", a, "completionMode: Indexed", "completionMode: NonIndexed", "Indexed"},
		{"misspelled_field", a, "completionMode: Indexed", "completionmode: Indexed", "unknown field"},
		{"key_twice", a, "completions: 64\n", "completions: 64\n  completions: 32\n", "completions"},
		{"count_differs", a, `value: "64"`, `value: "32"`, "JOB_COMPLETION_COUNT"},
		{"index_set_by_hand", a, "name: JOB_COMPLETION_COUNT", "name: JOB_COMPLETION_INDEX", "JOB_COMPLETION_INDEX"},
		{"parallelism_over_completions", a, "parallelism: 16", "parallelism: 128", "parallelism"},
		{"fixed_shard", a, "- auto", "- 0/64", "--shard"},
		{"no_input", a, "- https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-33/robotstxt.paths.gz", "", "no input"},
		{"restart_on_failure", a, "restartPolicy: Never", "restartPolicy: OnFailure", "Never"},
		{"out_not_on_volume", a, "mountPath: /data", "mountPath: /mnt", "no volume mount"},
		{"out_on_other_claim", a, "claimName: robotstat-data", "claimName: scratch", "claim"},
		{"wrong_container_in_policy", a, "containerName: analyze", "containerName: main", "podFailurePolicy"},
		{"sites_other_out", s, "[robotstat, sites, /data/out]", "[robotstat, sites, /data/output]", "not the same folder"},
		{"sites_other_claim", s, "claimName: robotstat-data", "claimName: scratch", "not the same folder"},
		{"sites_runs_analyze", s, "[robotstat, sites, /data/out]", "[robotstat, analyze, /data/out]", "robotstat sites OUT"},
		{"sites_indexed", s, "backoffLimit: 2", "backoffLimit: 2\n  completionMode: Indexed\n  completions: 2", "one Pod"},
		{"claim_not_shared", p, `["ReadWriteMany"]`, `["ReadWriteOnce"]`, "ReadWriteMany"},
	})
}
