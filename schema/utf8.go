package schema

import (
	"reflect"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/robotstat/robotstat/internal/textesc"
)

// Every string a table holds is UTF-8, whatever the input held: Parquet's
// STRING type is UTF-8, and one value that is not made DuckDB refuse the
// whole file ("Invalid string encoding"; a folder name, a Location header
// or a WARC isPartOf was enough, issue 26.5). The writers check each row's
// strings as they take it, and a string that is not UTF-8 is written with
// its bad bytes as %XX (textesc.Data), a crawl name included, so that its
// partition folder and its column agree. The check is a pass over the
// bytes per string and allocates nothing for valid rows; escaping
// allocates, for the rare bad string only.
//
// The check finds a row type's strings by reflection once: string fields
// (embedded structs included), *string, []string and slices of structs
// of strings (DirectiveRow.Signals). A slice or pointer that needs
// escaping is replaced by a fixed copy, never changed in place: the
// caller's memory (a catalog shared by rows) stays as it was.

// stringPlan locates the strings of a row type.
type stringPlan struct {
	strs    []uintptr     // offsets of string fields
	ptrs    []uintptr     // offsets of *string fields
	lists   []uintptr     // offsets of []string fields
	structs []structSlice // slices of structs holding strings
}

type structSlice struct {
	off  uintptr
	typ  reflect.Type
	plan *stringPlan
}

// sliceHeader is a slice's layout, for reading its length without
// knowing its element type.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

var plans sync.Map // reflect.Type -> *stringPlan

func planOf(t reflect.Type) *stringPlan {
	if p, ok := plans.Load(t); ok {
		return p.(*stringPlan)
	}
	p := &stringPlan{}
	p.add(t, 0)
	plans.Store(t, p)
	return p
}

func (p *stringPlan) add(t reflect.Type, base uintptr) {
	for i := range t.NumField() {
		f := t.Field(i)
		off := base + f.Offset
		switch {
		case f.Type.Kind() == reflect.String:
			p.strs = append(p.strs, off)
		case f.Type.Kind() == reflect.Struct:
			p.add(f.Type, off)
		case f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.String:
			p.ptrs = append(p.ptrs, off)
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			p.lists = append(p.lists, off)
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			if sub := planOf(f.Type.Elem()); !sub.empty() {
				p.structs = append(p.structs, structSlice{off, f.Type.Elem(), sub})
			}
		}
	}
}

func (p *stringPlan) empty() bool {
	return len(p.strs)+len(p.ptrs)+len(p.lists)+len(p.structs) == 0
}

// cleanRows makes every string of rows UTF-8 (see above).
func cleanRows[T any](rows []T) {
	if len(rows) == 0 {
		return
	}
	p := planOf(reflect.TypeFor[T]())
	size := unsafe.Sizeof(rows[0])
	base := unsafe.Pointer(unsafe.SliceData(rows))
	for i := range rows {
		p.clean(unsafe.Add(base, uintptr(i)*size))
	}
}

// clean fixes the strings of the value at v, of p's type.
func (p *stringPlan) clean(v unsafe.Pointer) {
	for _, off := range p.strs {
		s := (*string)(unsafe.Add(v, off))
		if !utf8.ValidString(*s) {
			*s = textesc.Data(*s)
		}
	}
	for _, off := range p.ptrs {
		ps := (**string)(unsafe.Add(v, off))
		if *ps != nil && !utf8.ValidString(**ps) {
			fixed := textesc.Data(**ps)
			*ps = &fixed
		}
	}
	for _, off := range p.lists {
		l := (*[]string)(unsafe.Add(v, off))
		for i, s := range *l {
			if !utf8.ValidString(s) {
				fixed := append([]string(nil), *l...)
				for j := i; j < len(fixed); j++ {
					fixed[j] = textesc.Data(fixed[j])
				}
				*l = fixed
				break
			}
		}
	}
	for _, ss := range p.structs {
		if (*sliceHeader)(unsafe.Add(v, ss.off)).len == 0 {
			continue // the usual case, without reflection
		}
		h := reflect.NewAt(reflect.SliceOf(ss.typ), unsafe.Add(v, ss.off)).Elem()
		if ss.plan.valid(h) {
			continue
		}
		fixed := reflect.MakeSlice(h.Type(), h.Len(), h.Len())
		reflect.Copy(fixed, h)
		for i := range fixed.Len() {
			ss.plan.clean(fixed.Index(i).Addr().UnsafePointer())
		}
		h.Set(fixed)
	}
}

// valid reports that every string of the struct slice s is UTF-8.
func (p *stringPlan) valid(s reflect.Value) bool {
	for i := range s.Len() {
		e := s.Index(i).Addr().UnsafePointer()
		for _, off := range p.strs {
			if !utf8.ValidString(*(*string)(unsafe.Add(e, off))) {
				return false
			}
		}
		if len(p.ptrs)+len(p.lists)+len(p.structs) > 0 {
			return false // deeper than any row has: take the slow path
		}
	}
	return true
}
