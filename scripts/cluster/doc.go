// Package cluster holds robotstat's job templates for cluster schedulers
// and the tests that keep them working. robotstat schedules nothing itself:
// an array job of the engine runs one `robotstat analyze --shard auto`
// per task, every task writing its own files into one shared --out, and one
// `robotstat sites OUT` after the whole array (README.md beside this file).
//
//	kubernetes/   an Indexed Job, a Job for the sites step, the shared volume claim
//	slurm/        a job array script and the sites step (afterok on the array)
//	aws-batch/    a job definition, the array job and the dependent sites job
//	Dockerfile    the image the Kubernetes and AWS Batch templates run
//
// The tests parse every template with the engine's own API types where one
// exists (k8s.io/api for Kubernetes, the AWS SDK's Batch types), check that
// the pieces agree (the shard count, the --out of the shards and of the
// sites step, the shared volume), run each submit.sh against stand-ins for
// kubectl, sbatch and aws, and run the templates' commands as real
// processes, the way each engine starts them, against a generated corpus:
// the sharded output must equal one unsharded run's, row for row.
//
// It is a module of its own so that the Kubernetes and AWS types never
// become dependencies of robotstat. Run it with
//
//	cd scripts/cluster && go test ./...
package cluster
