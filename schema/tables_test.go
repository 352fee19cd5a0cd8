package schema

import (
	"reflect"
	"slices"
	"testing"
)

func TestParseTables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []TableName
		wantErr  bool
	}{
		{name: "default", in: "default", want: DefaultTables()},
		{name: "all", in: "all", want: AnalyzeTables()},
		{name: "default_plus_rules", in: "default,rules", want: []TableName{Captures, Groups, Agents, Directives, Signals, Verdicts, Errors, Rules}},
		{name: "reduce_table_refused", in: "captures,sites", wantErr: true},
		{name: "subset_reordered", in: " Bots , captures,bots", want: []TableName{Captures, Bots}},
		{name: "opt_in_only", in: "diagnostics,sitemaps", want: []TableName{Sitemaps, Diagnostics}},
		{name: "unknown", in: "captures,robots", wantErr: true},
		{name: "empty", in: " , ", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTables(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseTables(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseTables(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	t.Parallel()
	ok := Options{Dir: "out", RunID: "abc"}
	tests := []struct {
		name    string
		edit    func(*Options)
		wantErr bool
	}{
		{name: "minimal", edit: func(*Options) {}},
		{name: "no_dir", edit: func(o *Options) { o.Dir = "" }, wantErr: true},
		{name: "no_run_id", edit: func(o *Options) { o.RunID = "" }, wantErr: true},
		{name: "run_id_traversal", edit: func(o *Options) { o.RunID = "../x" }, wantErr: true},
		{name: "unknown_table", edit: func(o *Options) { o.Tables = []TableName{"robots"} }, wantErr: true},
		{name: "metadata_ok", edit: func(o *Options) { o.Metadata = map[string]string{"parse_limit": "512000"} }},
		{name: "metadata_empty_key", edit: func(o *Options) { o.Metadata = map[string]string{"": "x"} }, wantErr: true},
		{name: "metadata_key_with_equals", edit: func(o *Options) { o.Metadata = map[string]string{"a=b": "x"} }, wantErr: true},
		{name: "negative_rows", edit: func(o *Options) { o.RowGroupRows = -1 }, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ok
			tt.edit(&o)
			if err := o.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}

// TestOptInTables: the tables analyze writes only when asked are its
// tables that are not default ones (bots, rules, sitemaps, diagnostics).
func TestOptInTables(t *testing.T) {
	t.Parallel()
	want := []TableName{Bots, Rules, Sitemaps, Diagnostics}
	got := OptInTables()
	if len(got) != len(want) || len(got)+len(DefaultTables()) != len(AnalyzeTables()) {
		t.Fatalf("OptInTables() = %v, want %v", got, want)
	}
	for _, tb := range want {
		if !slices.Contains(got, tb) || slices.Contains(DefaultTables(), tb) {
			t.Errorf("%s: opt-in %v, default %v", tb, slices.Contains(got, tb), slices.Contains(DefaultTables(), tb))
		}
	}
}
