package stats

import "github.com/robotstat/robotstat/schema"

// Signals: one row per pair of a Content-Signal or Content-Usage line (the
// pairs ParseSignals finds, which directives.signals also holds), with the
// line, the group the line sits in and, for Content-Usage, its path.
//
// A Content-Usage value that starts with "/" begins with a path, which runs
// to the first white space (draft-ietf-aipref-attach-05 section 3.2);
// ParseSignals hands it over as the line's first bare value. The path
// scopes the line's other pairs; it is not a row of its own.

// signalRows appends the signals rows of the file.
func (a *Analyzer) signalRows(k *capture, dst *schema.Batch) {
	col := &a.col
	line, path, first := int32(-1), "", false
	for _, s := range col.signals {
		d := &col.dirs[s.dir]
		if s.line != line {
			line, path, first = s.line, "", true
		}
		isPath := first && d.canonical == "content-usage" && s.key == "" && len(s.value) > 0 && s.value[0] == '/'
		first = false
		if isPath {
			path = s.value
			continue
		}
		row := schema.SignalRow{Key: k.key, Directive: d.canonical, Line: s.line, Path: path, Name: s.key, Value: s.value}
		if s.group >= 0 {
			dst.Ints.Append(s.group)
			row.GroupIndex = dst.Ints.Last()
			row.StarGroup = int(s.group) < len(col.stars) && col.stars[s.group]
		}
		dst.SignalRows = append(dst.SignalRows, row)
	}
}
