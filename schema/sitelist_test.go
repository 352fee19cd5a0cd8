package schema

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSiteList: a list is stored once under its id, read back sorted, and
// PanelHosts gives a crawl read only by panel runs the union of their
// lists, and nothing for a crawl another run read too.
func TestSiteList(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	id, err := WriteSiteList(root, []string{"b.example", "a.example", "b.example"})
	if err != nil {
		t.Fatal(err)
	}
	if id != SiteListID([]string{"a.example", "b.example"}) {
		t.Errorf("id %s depends on order or duplicates", id)
	}
	again, err := WriteSiteList(root, []string{"a.example", "b.example"})
	if err != nil || again != id {
		t.Fatalf("second write: %s, %v", again, err)
	}
	hosts, err := ReadSiteList(root, id)
	if err != nil || !slices.Equal(hosts, []string{"a.example", "b.example"}) {
		t.Fatalf("read back %q, %v", hosts, err)
	}
	other, _ := WriteSiteList(root, []string{"c.example"})
	p := filepath.Join(root, filepath.FromSlash(SiteListDir), other+".txt")
	if err := os.WriteFile(p, []byte("tampered.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSiteList(root, other); err == nil {
		t.Error("a list that is not what its id says is read")
	}
	if _, err := ReadSiteList(root, "0123456789abcdef"); !errors.Is(err, ErrNoSiteList) {
		t.Errorf("missing list: %v", err)
	}
	ix := &Index{Root: root, Runs: map[string]*Record{
		"p1":    {RunID: "p1", Options: map[string]string{OptionPanelSites: id}, Files: []RecordFile{{Table: Captures, Crawl: "C1"}, {Table: Groups, Crawl: "C1"}}},
		"p2":    {RunID: "p2", Options: map[string]string{OptionPanelSites: SiteListID([]string{"a.example"})}, Files: []RecordFile{{Table: Captures, Crawl: "C2"}}},
		"whole": {RunID: "whole", Options: map[string]string{}, Files: []RecordFile{{Table: Captures, Crawl: "C2"}}},
	}}
	if _, err := WriteSiteList(root, []string{"a.example"}); err != nil {
		t.Fatal(err)
	}
	got, err := ix.PanelHosts()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got["C1"]) != 2 || !got["C1"]["b.example"] {
		t.Errorf("panel hosts %v, want C1's list only (C2 was read whole too)", got)
	}
}
