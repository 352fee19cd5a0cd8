package schema

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SiteListDir is the folder, under a dataset's root, of the site lists of
// panels (robotstat panel): one <id>.txt per list, a host a line, sorted.
const SiteListDir = "_robotstat/panels"

// OptionPanelSites is the option (Options.Metadata key, and so a
// completion record's and every file's) under which a panel run names its
// site list. The reduce step builds the sites of a crawl read only by
// panel runs for their listed hosts alone: a redirect target on another
// host is a capture of the crawl, but not a site of the panel.
const OptionPanelSites = "panel_sites"

// SiteListID is the id of a site list: 16 hex digits of the SHA-256 of its
// hosts, sorted, a line each. The same hosts have the same id whatever
// their order.
func SiteListID(hosts []string) string {
	h := sha256.Sum256([]byte(siteListText(hosts)))
	return hex.EncodeToString(h[:8])
}

func siteListText(hosts []string) string {
	s := slices.Clone(hosts)
	slices.Sort(s)
	s = slices.Compact(s)
	return strings.Join(s, "\n") + "\n"
}

// WriteSiteList stores hosts under root (SiteListDir/<id>.txt), complete
// or not at all (a temporary file, synced, renamed), unless a list of the
// same id is there, and returns the id.
func WriteSiteList(root string, hosts []string) (string, error) {
	id := SiteListID(hosts)
	dir := filepath.Join(root, filepath.FromSlash(SiteListDir))
	final := filepath.Join(dir, id+".txt")
	if _, err := os.Stat(final); err == nil {
		return id, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("schema: site list folder: %w", err)
	}
	f, err := createAtomic(final, nil)
	if err != nil {
		return "", err
	}
	if _, err := f.Write([]byte(siteListText(hosts))); err != nil {
		f.remove()
		return "", fmt.Errorf("schema: writing %s: %w", final, err)
	}
	if err := f.sync(); err != nil {
		f.remove()
		return "", err
	}
	if err := f.rename(); err != nil {
		f.remove()
		return "", err
	}
	return id, syncDir(dir)
}

// ErrNoSiteList reports a panel run whose site list is not in the dataset.
var ErrNoSiteList = errors.New("schema: the panel's site list is missing")

// ReadSiteList reads the site list of id under root.
func ReadSiteList(root, id string) ([]string, error) {
	p := filepath.Join(root, filepath.FromSlash(SiteListDir), id+".txt")
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoSiteList, p)
	}
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	defer f.Close()
	var hosts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if h := strings.TrimSpace(sc.Text()); h != "" {
			hosts = append(hosts, h)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("schema: reading %s: %w", p, err)
	}
	if SiteListID(hosts) != id {
		return nil, fmt.Errorf("schema: %s does not hold the list its name says", p)
	}
	return hosts, nil
}

// PanelHosts returns, per crawl, the hosts that are the crawl's sites when
// only panel runs read it (Record.Options[OptionPanelSites]): the union of
// their site lists. A crawl that some other run read (its whole robotstxt
// subset, a WARC) is not in the map: all its hosts are sites. Runs a
// compaction absorbed count as they were.
func (ix *Index) PanelHosts() (map[string]map[string]bool, error) {
	lists := map[string][]string{} // crawl -> list ids
	whole := map[string]bool{}
	for _, r := range ix.Runs {
		if r.IsCompaction() {
			continue
		}
		list := r.Options[OptionPanelSites]
		for _, f := range r.Files {
			if f.Table != Captures {
				continue
			}
			if list == "" {
				whole[f.Crawl] = true
			} else if !slices.Contains(lists[f.Crawl], list) {
				lists[f.Crawl] = append(lists[f.Crawl], list)
			}
		}
	}
	out := map[string]map[string]bool{}
	for crawl, ids := range lists {
		if whole[crawl] {
			continue
		}
		set := map[string]bool{}
		for _, id := range ids {
			hosts, err := ReadSiteList(ix.Root, id)
			if err != nil {
				return nil, err
			}
			for _, h := range hosts {
				set[h] = true
			}
		}
		out[crawl] = set
	}
	return out, nil
}
