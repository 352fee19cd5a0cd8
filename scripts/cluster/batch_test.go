package cluster

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/batch"
	"github.com/aws/aws-sdk-go-v2/service/batch/types"
)

var batchFiles = []string{"aws-batch/job-definition.json", "aws-batch/submit-analyze.json", "aws-batch/submit-sites.json"}

// awsBatch is the AWS Batch templates, decoded into the SDK's request
// types: the job definition is RegisterJobDefinition's input, the two
// submissions SubmitJob's (aws batch ... --cli-input-json).
type awsBatch struct {
	def          batch.RegisterJobDefinitionInput
	array, sites batch.SubmitJobInput
}

func parseBatch(ts templates) (*awsBatch, error) {
	var b awsBatch
	return &b, errors.Join(
		decodeAPI(batchFiles[0], ts[batchFiles[0]], &b.def),
		decodeAPI(batchFiles[1], ts[batchFiles[1]], &b.array),
		decodeAPI(batchFiles[2], ts[batchFiles[2]], &b.sites),
	)
}

// substitute fills the Ref::name placeholders of a job definition's command
// from the submission's parameters, else the definition's defaults (AWS
// Batch "Parameter substitution").
func substitute(def *batch.RegisterJobDefinitionInput, sub *batch.SubmitJobInput, argv []string) ([]string, error) {
	out := make([]string, len(argv))
	for i, a := range argv {
		name, ok := strings.CutPrefix(a, "Ref::")
		if !ok {
			out[i] = a
			continue
		}
		v, ok := sub.Parameters[name]
		if !ok {
			v, ok = def.Parameters[name]
		}
		if !ok {
			return nil, fmt.Errorf("%s: no parameter %q, in the submission or as a default", a, name)
		}
		out[i] = v
	}
	return out, nil
}

// volumeOf says where dir lies: the EFS file system and path mounted over
// it. Only a file system every instance mounts is shared by the children.
func volumeOf(name string, cp *types.ContainerProperties, dir string) (string, error) {
	var best *types.MountPoint
	var rel string
	for i, m := range cp.MountPoints {
		if m.ContainerPath == nil {
			continue
		}
		if r, ok := underMount(dir, *m.ContainerPath); ok && (best == nil || len(*m.ContainerPath) > len(*best.ContainerPath)) {
			best, rel = &cp.MountPoints[i], r
		}
	}
	if best == nil || best.SourceVolume == nil {
		return "", fmt.Errorf("%s: %s is on no mountPoint: the children's files would stay in their containers", name, dir)
	}
	if best.ReadOnly != nil && *best.ReadOnly {
		return "", fmt.Errorf("%s: mountPoint %s is read-only", name, *best.ContainerPath)
	}
	for _, v := range cp.Volumes {
		if v.Name == nil || *v.Name != *best.SourceVolume {
			continue
		}
		if v.EfsVolumeConfiguration == nil || v.EfsVolumeConfiguration.FileSystemId == nil {
			return "", fmt.Errorf("%s: volume %s is not an EFS file system, so children on other instances do not see it", name, *v.Name)
		}
		root := "/"
		if r := v.EfsVolumeConfiguration.RootDirectory; r != nil {
			root = *r
		}
		return *v.EfsVolumeConfiguration.FileSystemId + ":" + strings.TrimSuffix(root, "/") + rel, nil
	}
	return "", fmt.Errorf("%s: mountPoint %s names no volume (sourceVolume %s)", name, *best.ContainerPath, *best.SourceVolume)
}

func checkBatch(ts templates) error {
	b, err := parseBatch(ts)
	if err != nil {
		return err
	}
	dName, aName, sName := batchFiles[0], batchFiles[1], batchFiles[2]
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	cp := b.def.ContainerProperties
	if b.def.Type != types.JobDefinitionTypeContainer || cp == nil {
		return fmt.Errorf("%s: want type container with containerProperties", dName)
	}
	if b.def.JobDefinitionName == nil {
		fail("%s: no jobDefinitionName", dName)
	}
	for _, e := range cp.Environment {
		if e.Name != nil && strings.HasPrefix(*e.Name, "AWS_BATCH_") {
			fail("%s: sets %s: AWS_BATCH_ is AWS Batch's own prefix (it sets the array index and size)", dName, *e.Name)
		}
	}
	for _, s := range []struct {
		name string
		sub  *batch.SubmitJobInput
	}{{aName, &b.array}, {sName, &b.sites}} {
		if b.def.JobDefinitionName != nil && (s.sub.JobDefinition == nil ||
			strings.Split(*s.sub.JobDefinition, ":")[0] != *b.def.JobDefinitionName) {
			fail("%s: jobDefinition is not %s's %q", s.name, dName, *b.def.JobDefinitionName)
		}
		if s.sub.JobName == nil || s.sub.JobQueue == nil {
			fail("%s: jobName and jobQueue are required", s.name)
		}
		for _, d := range s.sub.DependsOn {
			if d.Type != "" {
				fail("%s: a %s dependency: the sites job waits for the whole array, a plain dependency on its job id", s.name, d.Type)
			}
		}
	}

	// The shards: an array job running the definition's command.
	if p := b.array.ArrayProperties; p == nil || p.Size == nil || *p.Size < 2 || *p.Size > 10000 {
		fail("%s: arrayProperties.size must be 2 to 10000, the sizes AWS Batch accepts for an array job", aName)
	}
	if o := b.array.ContainerOverrides; o != nil && o.Command != nil {
		fail("%s: overrides the command; the shards run the job definition's", aName)
	}
	argv, err := substitute(&b.def, &b.array, cp.Command)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("%s: %w", dName, err))...)
	}
	out, err := checkAnalyze(dName, argv)
	errs = append(errs, err)
	aLoc, err := volumeOf(dName, cp, out)
	errs = append(errs, err)

	// The sites step: one job, the same definition, robotstat sites.
	if b.sites.ArrayProperties != nil {
		fail("%s: the sites job is an array job: it must run once", sName)
	}
	if o := b.sites.ContainerOverrides; o == nil || o.Command == nil {
		fail("%s: no containerOverrides.command: it would run the shards' command", sName)
	} else if dir, err := checkSites(sName, o.Command); err != nil {
		errs = append(errs, err)
	} else if sLoc, err := volumeOf(sName, cp, dir); err != nil {
		errs = append(errs, err)
	} else if aLoc != "" && sLoc != aLoc {
		fail("%s reads %s but the shards write %s: not the same folder", sName, sLoc, aLoc)
	}
	return errors.Join(errs...)
}

func TestBatchTemplates(t *testing.T) {
	if err := checkBatch(readTemplates(t, batchFiles...)); err != nil {
		t.Fatal(err)
	}
}

func TestBatchTemplatesRejectMistakes(t *testing.T) {
	d, a, s := batchFiles[0], batchFiles[1], batchFiles[2]
	rejects(t, readTemplates(t, batchFiles...), checkBatch, []mutation{
		{"unknown_member", d, `"mountPoints"`, `"mounts"`, "unknown field"},
		{"member_case", d, `"mountPoints"`, `"mountpoints"`, `the API calls it "mountPoints"`},
		{"nested_member_case", d, `"fileSystemId"`, `"fileSystemID"`, `"fileSystemId"`},
		{"fixed_shard", d, `"--shard", "auto"`, `"--shard", "0/64"`, "--shard"},
		{"placeholder_without_value", d, `"Ref::input"`, `"Ref::manifest"`, "no parameter"},
		{"out_not_mounted", d, `"containerPath": "/data"`, `"containerPath": "/mnt"`, "no mountPoint"},
		{"host_volume", d, `"efsVolumeConfiguration": {"fileSystemId": "fs-0123456789abcdef0", "transitEncryption": "ENABLED"}`, `"host": {"sourcePath": "/tmp"}`, "not an EFS"},
		{"protected_env", d, `"command":`, `"environment": [{"name": "AWS_BATCH_JOB_ARRAY_SIZE", "value": "64"}], "command":`, "AWS_BATCH_"},
		{"array_of_one", a, `"size": 64`, `"size": 1`, "arrayProperties.size"},
		{"not_an_array", a, `,
  "arrayProperties": {"size": 64}`, "", "arrayProperties.size"},
		{"other_definition", a, `"jobDefinition": "robotstat"`, `"jobDefinition": "robotstat-old"`, "jobDefinition"},
		{"sites_n_to_n", s, `"jobDefinition": "robotstat",`, `"jobDefinition": "robotstat", "dependsOn": [{"jobId": "x", "type": "N_TO_N"}],`, "N_TO_N"},
		{"sites_other_out", s, `"robotstat", "sites", "/data/out"`, `"robotstat", "sites", "/data/output"`, "not the same folder"},
		{"sites_is_an_array", s, `"jobDefinition": "robotstat",`, `"jobDefinition": "robotstat", "arrayProperties": {"size": 2},`, "must run once"},
		{"sites_without_command", s, `"command": ["robotstat", "sites", "/data/out"],`, "", "containerOverrides.command"},
	})
}
