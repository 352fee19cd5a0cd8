#!/usr/bin/env bash
# Runs a whole crawl on AWS Batch: registers the job definition, submits the
# array job of analyze shards, then the sites job with a plain dependency on
# the array's job id, which AWS Batch holds until every child has succeeded
# (an N_TO_N dependency would instead pair child i with child i of another
# array; the sites job is not an array). The commands are the README's
# ("Running a whole crawl on a cluster"); scripts/cluster/README.md says what
# to edit first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
aws batch register-job-definition --cli-input-json file://scripts/cluster/aws-batch/job-definition.json
array=$(aws batch submit-job --cli-input-json file://scripts/cluster/aws-batch/submit-analyze.json --query jobId --output text)
aws batch submit-job --cli-input-json file://scripts/cluster/aws-batch/submit-sites.json --depends-on jobId=$array
