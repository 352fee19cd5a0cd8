package pipeline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/robotstat/robotstat/ccindex"
	"github.com/robotstat/robotstat/wayback"
)

// format is what an input holds, decided by its name (the container,
// gzip or zstd or none, is decided later by content).
type format uint8

const (
	formatWARC     format = iota // .warc, .warc.gz, .warc.zst, "-", and URLs of unknown kind
	formatJSONL                  // .jsonl, .ndjson, .json (+ .gz/.zst)
	formatCSV                    // .csv (+ .gz/.zst)
	formatTar                    // .tar, .tgz, .tar.gz, .tar.zst
	formatHostFile               // any other file: one robots.txt named by host
	formatManifest               // .paths, .manifest (+ .gz): expanded before the run
	formatPanel                  // a crawl read through its URL index (Config.Panel): the crawl's cc-index-table.paths.gz
	formatWayback                // a site's months read from the Wayback Machine (Config.Panel, wayback:FROM..TO): its CDX query
)

// input is one entry of the expanded input list.
type input struct {
	name   string // as given or listed: a path or a URL
	path   string // relative to what the user named (record.Capture.Path)
	format format
	crawl  string     // the crawl it was listed by (a crawl name input), else ""
	unit   Unit       // the unit of work it belongs to
	state  *unitState // its unit's, once the run has selected it
	// wayback is what a formatWayback input reads.
	wayback *waybackInput
}

// isURL reports a remote input, read through the fetcher: http(s):// or
// s3://.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || isS3(s)
}

// formatOf names the format of an input from its file name.
func formatOf(name string) format {
	if name == "-" {
		return formatWARC
	}
	base := name
	if isURL(name) {
		if u, err := url.Parse(name); err == nil {
			base = u.Path
		}
	}
	base = strings.ToLower(path.Base(filepath.ToSlash(base)))
	for _, z := range []string{".gz", ".zst", ".zstd", ".bz2"} {
		if b, ok := strings.CutSuffix(base, z); ok {
			base = b
			break
		}
	}
	switch ext := path.Ext(base); ext {
	case ".warc":
		return formatWARC
	case ".jsonl", ".ndjson", ".json":
		return formatJSONL
	case ".csv":
		return formatCSV
	case ".tar", ".tgz":
		return formatTar
	case ".paths", ".manifest":
		return formatManifest
	}
	if isURL(name) {
		return formatWARC
	}
	return formatHostFile
}

// expand turns the command-line inputs into the ordered input list that
// sharding splits: files as given, folders walked in lexical order,
// manifests replaced by their lines. A missing file or an unreadable
// manifest is an environment error. Each input is given its unit (see
// Unit).
func (r *runner) expand(ctx context.Context, args []string) ([]input, error) {
	var out []input
	next := 0
	unit := func(name string) Unit {
		next++
		return Unit{Index: next - 1, Name: name}
	}
	segments := map[string]bool{} // met in the lists read, for checkSegments
	listed := false
	// An input listed twice (a file on the command line and in a manifest,
	// ./x and x, a symbolic or hard link to a file named too) is read
	// once: twice would count its captures twice. A file is known by its
	// device and inode (fileKey), links resolved; a URL by itself.
	seen := map[string]string{} // key -> the name it was first listed by
	dup := func(name string) bool {
		key := "name:" + name
		if !isURL(name) && name != "-" {
			key = fileKey(name)
			// A file named by host is a capture of that host: two
			// hosts' names of one file (a hard link in a folder
			// deduplicated on disk) are two captures, as tar's hard
			// links are.
			if formatOf(name) == formatHostFile {
				if host, ok := hostFromFileName(name); ok {
					key += " host:" + host
				}
			}
		}
		if first, ok := seen[key]; ok {
			r.duplicates.add(name + " (the same file as " + first + ")")
			return true
		}
		seen[key] = name
		return false
	}
	for _, a := range args {
		if r.cfg.Panel != nil && strings.HasPrefix(a, wayback.SourcePrefix) {
			ins, err := r.waybackInputs(a)
			if err != nil {
				return nil, err
			}
			for _, in := range ins {
				if !dup(in.name) {
					in.unit = unit(in.name)
					out = append(out, in)
				}
			}
			continue
		}
		if r.cfg.Panel != nil {
			if !IsCrawlInput(a) {
				return nil, fmt.Errorf("%w: panel: %s is not a crawl name (CC-MAIN-YYYY-WW)", ErrConfig, a)
			}
			name := panelList(r.cfg.ccBase(), a)
			if !dup(name) {
				u := unit(name)
				u.Crawl = a
				out = append(out, input{name: name, path: ccindex.PathsFile(a), format: formatPanel, crawl: a, unit: u})
			}
			continue
		}
		f := formatOf(a)
		crawl := ""
		manifest, base := a, r.cfg.ManifestBase
		if IsCrawlInput(a) {
			crawl, f = a, formatManifest
			base = r.cfg.ccBase()
			manifest = crawlManifest(base, a)
		}
		if f == formatManifest {
			listed = true
			lines, err := r.readManifest(ctx, manifest, base)
			if err != nil {
				if crawl != "" && (errors.Is(err, ErrNotFound) || errors.Is(err, fs.ErrNotExist)) {
					// Not a network fault: the base has no such list.
					return nil, fmt.Errorf("crawl %s: %w at %s: %s is not there (%w)", crawl, ErrNoCrawl, base, "crawl-data/"+crawl+"/robotstxt.paths.gz", err)
				}
				if crawl != "" {
					return nil, fmt.Errorf("crawl %s: %w", crawl, err)
				}
				return nil, err
			}
			for _, l := range r.selectListed(lines, segments) {
				lf := formatOf(l.name)
				if lf == formatManifest {
					return nil, fmt.Errorf("manifest %s lists another manifest %s: not supported", manifest, l.name)
				}
				if lf == formatHostFile {
					if _, ok := hostFromFileName(l.name); !ok {
						return nil, fmt.Errorf("manifest %s lists %s: %w", manifest, l.name, ErrNotHostName)
					}
				}
				if !dup(l.name) {
					u := unit(l.name)
					u.Crawl = crawl
					out = append(out, input{name: l.name, path: l.path, format: lf, crawl: crawl, unit: u})
				}
			}
			continue
		}
		if a == "-" || isURL(a) { // not on disk
			if !dup(a) {
				out = append(out, input{name: a, path: baseName(a), format: f, unit: unit(a)})
			}
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		if st.IsDir() && isOutputDir(a) {
			return nil, fmt.Errorf("input %s: %w", a, ErrOutputDir)
		}
		if out := outputDirAbove(a); out != "" {
			return nil, fmt.Errorf("input %s is inside %s, which %w", a, out, ErrOutputDir)
		}
		if !st.IsDir() {
			if f == formatHostFile {
				if _, ok := hostFromFileName(a); !ok {
					return nil, fmt.Errorf("input %s: %w", a, ErrNotHostName)
				}
			}
			if !dup(a) {
				out = append(out, input{name: a, path: baseName(a), format: f, unit: unit(a)})
			}
			continue
		}
		var files []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// Hidden files and folders (.git, .DS_Store) are not data;
			// the folder named itself is read whatever its name.
			if p != a && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			// Nor is a robotstat output folder (--out inside the input
			// folder): its records would be read as dumps, more of them
			// every run.
			if p != a && d.IsDir() && isOutputDir(p) {
				rel, _ := filepath.Rel(a, p)
				r.outputDirs.add(filepath.ToSlash(rel))
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("input folder: %w", err)
		}
		sort.Strings(files)
		var hosts *Unit // the folder's host files, one unit
		for _, p := range files {
			pf := formatOf(p)
			rel, err := filepath.Rel(a, p)
			if err != nil {
				return nil, fmt.Errorf("input folder: %w", err)
			}
			rel = filepath.ToSlash(rel)
			switch {
			case pf == formatManifest:
				continue // a listing lying in a data folder is not data
			case dup(p):
				continue
			case pf == formatHostFile:
				if _, ok := hostFromFileName(p); !ok {
					r.notHosts.add(rel)
					continue
				}
				if hosts == nil {
					u := unit(a)
					hosts = &u
				}
				out = append(out, input{name: p, path: rel, format: pf, unit: *hosts})
			default:
				out = append(out, input{name: p, path: rel, format: pf, unit: unit(p)})
			}
		}
	}
	if err := r.checkSegments(segments, listed); err != nil {
		return nil, err
	}
	return out, nil
}

// panelList is where a crawl's list of URL index files lives under base
// (a URL or a folder).
func panelList(base, crawl string) string {
	if isURL(base) {
		return strings.TrimSuffix(base, "/") + "/" + ccindex.PathsFile(crawl)
	}
	return filepath.Join(base, filepath.FromSlash(ccindex.PathsFile(crawl)))
}

// manifestLine is one line of a manifest: name resolved to a path or URL,
// path as record.Capture.Path (the line as written when it is relative).
type manifestLine struct{ name, path string }

// readManifest returns a manifest's lines resolved to paths or URLs: blank
// lines and # comments are skipped; relative lines take base
// (Config.ManifestBase, or Config.CCBase for a crawl), else the manifest's
// origin (a URL) or folder (a file).
func (r *runner) readManifest(ctx context.Context, name, base string) ([]manifestLine, error) {
	rc, _, err := r.open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var s stream
	defer s.close()
	var bad error
	s.report = func(off int64, err error, ex []byte) {
		if bad == nil {
			bad = err
		}
	}
	if err := s.reset(rc, nil); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", name, err)
	}
	if base == "" {
		if isURL(name) {
			if u, err := url.Parse(name); err == nil {
				base = u.Scheme + "://" + u.Host + "/"
			}
		} else {
			base = filepath.Dir(name) + string(filepath.Separator)
		}
	}
	var lines []manifestLine
	sc := bufio.NewScanner(&s)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := baseName(l)
		switch {
		case isURL(l):
		case isURL(base):
			p = strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(l)), "/")
			l = strings.TrimSuffix(base, "/") + "/" + strings.TrimPrefix(l, "/")
		case !filepath.IsAbs(l):
			p = strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(l)), "/")
			l = filepath.Join(base, l)
		}
		lines = append(lines, manifestLine{name: l, path: p})
	}
	if err := sc.Err(); err != nil && err != errBreak {
		return nil, fmt.Errorf("manifest %s: %w", name, err)
	}
	if bad != nil {
		return nil, fmt.Errorf("manifest %s: %w", name, bad)
	}
	return lines, nil
}

// open opens an input as stored. size is the length an http(s) response
// announced, else -1: progress sizes files up front (startProgress).
func (r *runner) open(ctx context.Context, name string) (io.ReadCloser, int64, error) {
	if name == "-" {
		if r.cfg.Stdin == nil {
			return nil, -1, fmt.Errorf("input -: %w", ErrNoStdin)
		}
		return io.NopCloser(r.cfg.Stdin), -1, nil
	}
	if isURL(name) {
		return r.fetch.open(ctx, name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, -1, fmt.Errorf("input: %w", err)
	}
	return f, -1, nil
}

// baseName is the last element of a path or of a URL's path (query and
// fragment dropped), "-" for stdin.
func baseName(name string) string {
	if isURL(name) {
		if u, err := url.Parse(name); err == nil {
			name = u.Path
		}
	}
	b := path.Base(filepath.ToSlash(name))
	if b == "/" || b == "." {
		return name
	}
	return b
}

// outputMarker is the folder a robotstat output folder holds (its
// completion records and lock, schema's _robotstat/): a folder that has it
// is a dataset, not input.
const outputMarker = "_robotstat"

// isOutputDir reports whether dir is a robotstat output folder.
func isOutputDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, outputMarker))
	return err == nil && st.IsDir()
}

// outputDirAbove returns the robotstat output folder whose own files hold
// path (a table's folder or partition, a Parquet file, its _robotstat/
// records named as an input), else "": they are not captures either. An
// input elsewhere below an output folder (data beside the tables of an
// --out .) is read.
func outputDirAbove(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if isOutputDir(dir) {
			rel, _ := filepath.Rel(dir, abs)
			parts := strings.Split(filepath.ToSlash(rel), "/")
			tableDir, _ := filepath.Glob(filepath.Join(dir, parts[0], "crawl=*"))
			if parts[0] == outputMarker || len(tableDir) > 0 || strings.HasSuffix(abs, ".parquet") {
				return dir
			}
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// fileKey names a local file by what it is, not by how it was named: its
// device and inode (two names of one file, through a symbolic link or a
// hard link, share them), else its absolute path with links resolved
// (a file that cannot be stat'ed fails later, when it is read).
func fileKey(name string) string {
	if st, err := os.Stat(name); err == nil {
		if id, ok := fileID(st); ok {
			return id
		}
	}
	if p, err := filepath.EvalSymlinks(name); err == nil {
		name = p
	}
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	return "path:" + name
}
