package schema

import (
	"reflect"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
)

// parquet-go v0.32 writes a batch's optional fields that are not pointers
// (an int32 or string marked optional, whose zero value is NULL) through a
// bitmap scan that misreads some runs: when a value at offset p (1 to 63)
// of a 64-row word of the batch is present and only it and p-1 more follow
// it before the first NULL, it takes the rest of the word for present
// values. Rows that should be NULL come out as "" or 0: seen in the
// captures table (redirect_target and template of about 0.1% of rows of a
// 100k-capture run) and in sites.reason. A one-row batch never takes that
// branch, and pointer fields (a nil pointer is NULL) take another path, so
// the writers hand the row types that have such fields to parquet-go one
// row at a time (measured: +0.3 µs a row, a few tens of milliseconds per
// 100k captures), and the others in whole batches. TestOptionalNulls fails
// when the workaround is removed.

// writeRows writes rows through w, one row per call when the row type has
// an optional non-pointer field.
func writeRows[T Row](w *parquet.GenericWriter[T], rows []T) error {
	if !rowByRow[T]() {
		_, err := w.Write(rows)
		return err
	}
	for i := range rows {
		if _, err := w.Write(rows[i : i+1]); err != nil {
			return err
		}
	}
	return nil
}

var byRowCache sync.Map // reflect.Type -> bool

// rowByRow reports whether T has an optional field that is neither a
// pointer nor a slice, other than Key.Crawl (which is the same for every
// row of a batch: writers split batches by crawl, so the bug cannot bite).
func rowByRow[T Row]() bool {
	t := reflect.TypeFor[T]()
	if v, ok := byRowCache.Load(t); ok {
		return v.(bool)
	}
	v := hasOptionalValue(t)
	byRowCache.Store(t, v)
	return v
}

func hasOptionalValue(t reflect.Type) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type == reflect.TypeFor[Key]() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if hasOptionalValue(f.Type) {
				return true
			}
			continue
		}
		opts := strings.Split(f.Tag.Get("parquet"), ",")
		optional := false
		for _, o := range opts[min(1, len(opts)):] {
			if o == "optional" {
				optional = true
			}
		}
		if optional && f.Type.Kind() != reflect.Pointer && f.Type.Kind() != reflect.Slice {
			return true
		}
	}
	return false
}
