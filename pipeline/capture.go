package pipeline

import "github.com/robotstat/robotstat/record"

// Capture is the type consumers receive; it lives in package record so that
// stats need not import pipeline.
//
// TODO(house): replace with record.Capture at every use once the
// reliability branch has landed; the alias only keeps that merge mechanical.
type Capture = record.Capture
