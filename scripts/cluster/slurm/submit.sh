#!/usr/bin/env bash
# Runs a whole crawl on Slurm: the array of analyze shards, then the sites
# step once every task has exited 0. The commands are the README's
# ("Running a whole crawl on a cluster"). sbatch --parsable prints the job
# id, followed by ;cluster on a multi-cluster setup.
set -euo pipefail
cd "$(dirname "$0")/../../.."
jobid=$(sbatch --parsable scripts/cluster/slurm/analyze.sbatch | cut -d';' -f1)
sbatch --dependency=afterok:$jobid --kill-on-invalid-dep=yes scripts/cluster/slurm/sites.sbatch
