package pipeline

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/ranklist"
)

// TestReadSiteList: a Tranco list is ranked, a host list or a mix is not;
// entries that are not host names are skipped and named by line; a line
// that is neither rank,domain nor a bare name fails.
func TestReadSiteList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		list string
		www  bool
		want *SiteListFile
	}{
		{"tranco", "rank,domain\n1,Example.com\n2,b.example\n", false,
			&SiteListFile{Entries: 2, Hosts: []string{"b.example", "example.com"}, Ranked: true}},
		{"hosts_www", "# my panel\nexample.com\n\nwww.b.example\n", true,
			&SiteListFile{Entries: 2, Hosts: []string{"example.com", "www.b.example", "www.example.com"}}},
		{"mixed_is_not_ranked", "1,a.example\nb.example\n", false,
			&SiteListFile{Entries: 2, Hosts: []string{"a.example", "b.example"}}},
		{"skipped_named_by_line", "a.example\nhttps://c.example/\nb.example\n", false,
			&SiteListFile{Entries: 3, Hosts: []string{"a.example", "b.example"}, Skipped: []string{"line 2: "}}},
		{"empty", "", false, &SiteListFile{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadSiteList(strings.NewReader(tc.list), tc.www)
			if err != nil {
				t.Fatal(err)
			}
			// A skipped entry's why is weburl's; the line is ours.
			for i, s := range got.Skipped {
				if i < len(tc.want.Skipped) && strings.HasPrefix(s, tc.want.Skipped[i]) && strings.Contains(s, "c.example") {
					got.Skipped[i] = tc.want.Skipped[i]
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	_, err := ReadSiteList(strings.NewReader("1,a.example\nx,y,z\n"), false)
	var fe *ranklist.FormatError
	if !errors.As(err, &fe) || fe.Line != 2 {
		t.Errorf("a line that is not an entry: %v, want a FormatError at line 2", err)
	}
}
