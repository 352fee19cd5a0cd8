#!/usr/bin/env bash
# Runs a whole crawl on Kubernetes: the shared volume, the Indexed Job of
# analyze shards, and, once every index has succeeded, the sites Job. The
# commands are the README's ("Running a whole crawl on a cluster").
# A Job that ends Failed (an index failed its tries) never becomes complete:
# kubectl wait then times out; see kubectl describe job/robotstat-analyze.
set -euo pipefail
cd "$(dirname "$0")/../../.."
kubectl apply -f scripts/cluster/kubernetes/pvc.yaml
kubectl apply -f scripts/cluster/kubernetes/analyze-job.yaml
kubectl wait --for=condition=complete --timeout=24h job/robotstat-analyze
kubectl apply -f scripts/cluster/kubernetes/sites-job.yaml
