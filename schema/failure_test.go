package schema

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failingWriter passes the first budget bytes (shared by every file of a
// dataset) and then fails every write with err, as a full disk would.
type failingWriter struct {
	w      io.Writer
	budget *int64
	err    error
}

func (f failingWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > *f.budget {
		n := int(max(*f.budget, 0))
		*f.budget = 0
		if n > 0 {
			f.w.Write(p[:n])
		}
		return n, f.err
	}
	*f.budget -= int64(len(p))
	return f.w.Write(p)
}

// leftovers returns the files under root that a failed run must not leave:
// anything named *.parquet (even a hidden one) and any temporary file.
func leftovers(t *testing.T, root string) []string {
	t.Helper()
	var bad []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".parquet") || strings.HasSuffix(p, ".tmp")) {
			bad = append(bad, p)
		}
		return nil
	})
	return bad
}

// testRows returns n captures rows spread over two crawls, with enough
// distinct text to make real pages.
func testRows(n int) []CaptureRow {
	rows := make([]CaptureRow, n)
	for i := range rows {
		crawl := "CC-MAIN-2024-33"
		if i%2 == 1 {
			crawl = "CC-MAIN-2024-38"
		}
		host := strings.Repeat("x", i%50) + ".example"
		rows[i] = CaptureRow{Key: Key{CaptureID: CaptureID("", crawl, "t.warc.gz", int64(i)), Crawl: crawl, URL: "https://" + host + "/robots.txt", Host: host}, BodyBytes: int64(i)}
	}
	return rows
}

func TestWriteFailureLeavesNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		budget int64 // bytes that succeed before the failure
		rows   int
		opts   Options
		err    error
	}{
		{name: "disk_full_at_first_byte", budget: 0, rows: 10, err: syscall.ENOSPC},
		{name: "disk_full_at_footer", budget: 4, rows: 10, err: syscall.ENOSPC}, // the magic number fits, the commit does not
		{name: "disk_full_mid_file", budget: 256 << 10, rows: 20000, opts: Options{RowGroupRows: 1000}, err: syscall.ENOSPC},
		{name: "io_error_mid_file", budget: 64 << 10, rows: 20000, opts: Options{RowGroupRows: 500}, err: syscall.EIO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.opts.Dir, tt.opts.RunID = root, "r1"
			ds, err := Create(fixGen(tt.opts))
			if err != nil {
				t.Fatal(err)
			}
			budget := tt.budget
			ds.wrap = func(w io.Writer) io.Writer { return failingWriter{w, &budget, tt.err} }

			rows := testRows(tt.rows)
			var werr error
			for len(rows) > 0 && werr == nil {
				n := min(256, len(rows))
				werr = WriterOf[CaptureRow](ds).Write(rows[:n])
				rows = rows[n:]
			}
			cerr := ds.Commit(context.Background())
			if werr == nil && cerr == nil {
				t.Fatal("no error from Write or Commit")
			}
			err = werr
			if err == nil {
				err = cerr
			} else if !errors.Is(cerr, ErrFailed) {
				t.Errorf("Commit after a failed Write = %v, want ErrFailed", cerr)
			}
			t.Logf("write error: %v; commit error: %v", werr, cerr)
			if !errors.Is(err, tt.err) {
				t.Errorf("error %v does not wrap %v", err, tt.err)
			}
			if !strings.Contains(err.Error(), filepath.Join("captures", "crawl=CC-MAIN-2024-3")) || !strings.Contains(err.Error(), "part-r1.00000000.parquet") {
				t.Errorf("error %q does not name the file", err)
			}
			if err := ds.Abort(); err != nil {
				t.Errorf("Abort after a failed commit: %v", err)
			}
			if bad := leftovers(t, root); len(bad) > 0 {
				t.Fatalf("left behind: %v", bad)
			}
		})
	}
}

func TestEnvironmentFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(t *testing.T, root string) Options
		crawl   string  // of the row written; empty means testRows'
		wantErr []error // any of them
		inErr   string
	}{
		{
			name: "root_is_a_file",
			setup: func(t *testing.T, root string) Options {
				p := filepath.Join(root, "out")
				os.WriteFile(p, nil, 0o666)
				return Options{Dir: filepath.Join(p, "sub")}
			},
			wantErr: []error{syscall.ENOTDIR}, inErr: "out",
		},
		{
			name: "table_folder_is_a_file",
			setup: func(t *testing.T, root string) Options {
				os.WriteFile(filepath.Join(root, "captures"), nil, 0o666)
				return Options{Dir: root}
			},
			wantErr: []error{syscall.ENOTDIR}, inErr: filepath.Join("captures", "crawl=CC-MAIN-2024-33", "part-r1.00000000.parquet"),
		},
		{
			name: "rename_target_is_a_directory",
			setup: func(t *testing.T, root string) Options {
				// The groups file cannot be renamed into place: the captures
				// file, renamed before it, must be taken back out.
				os.MkdirAll(filepath.Join(root, "groups", "crawl=CC-MAIN-2024-33", "part-r1.00000000.parquet", "x"), 0o777)
				return Options{Dir: root}
			},
			// rename(2) of a file onto a non-empty directory: EEXIST on
			// Linux; the others are what other systems may answer.
			wantErr: []error{fs.ErrExist, syscall.ENOTEMPTY, syscall.EISDIR}, inErr: filepath.Join("groups", "crawl=CC-MAIN-2024-33", "part-r1.00000000.parquet"),
		},
		{
			name: "crawl_name_too_long",
			setup: func(t *testing.T, root string) Options {
				return Options{Dir: root}
			},
			crawl:   strings.Repeat("ü", 200),
			wantErr: []error{ErrUnsafeName}, inErr: "crawl name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			o := tt.setup(t, root)
			o.RunID = "r1"
			ds, err := Create(fixGen(o))
			if err == nil {
				defer ds.Abort()
				rows := testRows(2)[:1]
				if tt.crawl != "" {
					rows[0].Crawl = tt.crawl
				}
				err = WriterOf[CaptureRow](ds).Write(rows)
				if err == nil {
					err = WriterOf[GroupRow](ds).Write([]GroupRow{{Key: rows[0].Key}})
				}
				if err == nil {
					err = ds.Commit(context.Background())
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			t.Logf("error: %v", err)
			if !slices.ContainsFunc(tt.wantErr, func(want error) bool { return errors.Is(err, want) }) {
				t.Errorf("error %v does not wrap any of %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.inErr) {
				t.Errorf("error %q does not mention %q", err, tt.inErr)
			}
			var bad []string
			for _, p := range leftovers(t, root) {
				if !strings.Contains(p, filepath.Join("part-r1.00000000.parquet", "x")) {
					bad = append(bad, p)
				}
			}
			if len(bad) > 0 {
				t.Fatalf("left behind: %v", bad)
			}
		})
	}
}

func TestReadOnlyDirectory(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions; TestWriteFailureLeavesNothing injects the same failure")
	}
	root := t.TempDir()
	if err := os.Chmod(root, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(root, 0o755)
	ds, err := Create(Options{Dir: root, RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Abort()
	err = WriterOf[CaptureRow](ds).Write(testRows(1))
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "captures") {
		t.Fatalf("Write into a read-only directory = %v, want a permission error naming the file", err)
	}
}

func TestCommitCancelled(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ds, err := Create(Options{Dir: root, RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriterOf[CaptureRow](ds).Write(testRows(100)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := ds.Commit(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Commit with a done context = %v", err)
	}
	if bad := leftovers(t, root); len(bad) > 0 {
		t.Fatalf("left behind: %v", bad)
	}
}

func TestAbortRemovesTemporaryFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ds, err := Create(Options{Dir: root, RunID: "r1", Tables: AllTables()})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriterOf[CaptureRow](ds).Write(testRows(100)); err != nil {
		t.Fatal(err)
	}
	if err := WriterOf[RuleRow](ds).Write([]RuleRow{{Line: 1}}); err != nil {
		t.Fatal(err)
	}
	if len(leftovers(t, root)) != 3 {
		t.Fatalf("want 3 temporary files before Abort, have %v", leftovers(t, root))
	}
	if err := ds.Abort(); err != nil {
		t.Fatal(err)
	}
	if bad := leftovers(t, root); len(bad) > 0 {
		t.Fatalf("left behind: %v", bad)
	}
	if err := WriterOf[CaptureRow](ds).Write(testRows(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Abort = %v, want ErrClosed", err)
	}
}

// fixGen returns o with every commit's gen fixed, so that a test can name
// a file before it is written (a directory in its way, an expected path).
func fixGen(o Options) Options {
	o.gen = "00000000"
	return o
}
