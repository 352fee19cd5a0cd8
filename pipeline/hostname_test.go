package pipeline

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostFromFileName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, host string
	}{
		// Layouts of one file per host (avuim-2025: <host>-robots.txt;
		// texting_robots: <name>.robots.txt).
		{"avuim_robots_suffix", "avuim-2025/www.tagesschau.de-robots.txt", "www.tagesschau.de"},
		{"avuim_upper_case", "avuim-2025/www.BOERSE.de-robots.txt", "www.boerse.de"},
		{"dot_robots_suffix", "aviation-safety.net.robots.txt", "aviation-safety.net"},
		{"underscore_robots_suffix", "example.org_robots.txt", "example.org"},
		{"txt_suffix", "example.org.txt", "example.org"},
		{"bare_host", "in/example.com", "example.com"},
		{"reserved_tld", "hosts/g.example-robots.txt", "g.example"},
		{"idna_unicode", "bücher.de.txt", "xn--bcher-kva.de"},
		{"ipv4", "192.0.2.1-robots.txt", "192.0.2.1"},
		{"moldova_news_site", "point.md", "point.md"},
		// wget, httrack and scrapy mirrors: the folder names the host.
		{"mirror_layout", "mirror/example.org/robots.txt", "example.org"},
		{"mirror_layout_windows", `mirror\www.example.org\robots.txt`, "www.example.org"},
		{"mirror_layout_upper", "mirror/example.org/ROBOTS.TXT", "example.org"},
		// Not host names.
		{"robots_txt_alone", "robots.txt", ""},
		{"robots_txt_in_non_host_folder", "crawl/robots.txt", ""},
		{"single_label", "texting-robots/cnet.robots.txt", ""},
		{"notes_txt", "notes.txt", ""},
		{"requirements_txt", "requirements.txt", ""},
		{"favicon", "site/favicon.ico", ""},
		{"readme_md", "c/README.md", ""},
		{"license_md", "LICENSE.md", ""},
		{"git_object", ".git/objects/abc", ""},
		{"space", "my notes.txt", ""},
		{"version_number", "v1.2", ""},
		{"numeric", "10.0.0", ""},
		{"unknown_tld", "backup.old", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := hostFromFileName(tt.file)
			if ok != (tt.host != "") || h != tt.host {
				t.Errorf("hostFromFileName(%q) = %q, %v; want %q", tt.file, h, ok, tt.host)
			}
		})
	}
}

// mirrorTree writes the tree of issue 10's report: two crawl folders in the
// wget layout holding the same host, a .git folder, a README.md, and a
// file named by host.
func mirrorTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for rel, body := range map[string]string{
		"a/example.org/robots.txt":  "User-agent: *\nDisallow: /x\n",
		"b/example.org/robots.txt":  "User-agent: GPTBot\nDisallow: /\n",
		".git/objects/abc":          "x\n",
		".DS_Store":                 "\x00\x00\x00\x01Bud1",
		"c/README.md":               "hi\n",
		"c/example.com":             "User-agent: *\nDisallow: /x\n",
		"c/.hidden.example.net.txt": "User-agent: *\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFolderAndTarHostNames: issue 10 item 2. A mirror's robots.txt takes
// its host from its folder, hidden files and folders are not read, and a
// file whose name is no host name is a counted skip, not a site; a tar of
// the same tree reads the same.
func TestFolderAndTarHostNames(t *testing.T) {
	t.Parallel()
	dir := mirrorTree(t)
	check := func(t *testing.T, caps []got, sum Summary, skipped string) {
		t.Helper()
		var urls []string
		for _, c := range caps {
			urls = append(urls, c.URL+" "+c.Path)
		}
		want := []string{
			"https://example.com/robots.txt c/example.com",
			"https://example.org/robots.txt a/example.org/robots.txt",
			"https://example.org/robots.txt b/example.org/robots.txt",
		}
		if strings.Join(sortedCopy(urls), "\n") != strings.Join(want, "\n") {
			t.Errorf("captures:\n%s\nwant:\n%s", strings.Join(sortedCopy(urls), "\n"), strings.Join(want, "\n"))
		}
		if sum.NotHosts != 1 || strings.Join(sum.NotHostExamples, ",") != skipped {
			t.Errorf("not hosts %d %q, want 1 %q", sum.NotHosts, sum.NotHostExamples, skipped)
		}
	}
	t.Run("folder", func(t *testing.T) {
		caps, sum, err := collect(t, Config{Workers: 2}, dir)
		if err != nil {
			t.Fatal(err)
		}
		check(t, caps, sum, "c/README.md")
	})
	t.Run("tar", func(t *testing.T) {
		var tb bytes.Buffer
		tarFile(&tb, map[string]string{ // tarFile puts them under sites/
			"a/example.org/robots.txt": "User-agent: *\nDisallow: /x\n",
			"b/example.org/robots.txt": "User-agent: GPTBot\nDisallow: /\n",
			".git/objects/abc":         "x\n",
			".DS_Store":                "\x00\x00\x00\x01Bud1",
			"c/._example.com":          "\x00\x05\x16\x07", // AppleDouble beside the file
			"c/README.md":              "hi\n",
			"c/example.com":            "User-agent: *\nDisallow: /x\n",
		})
		p := filepath.Join(t.TempDir(), "mirror.tar.gz")
		os.WriteFile(p, gzipMember(tb.Bytes()), 0o644)
		caps, sum, err := collect(t, Config{}, p)
		if err != nil {
			t.Fatal(err)
		}
		var hosts []string
		for _, c := range caps {
			hosts = append(hosts, c.URL)
		}
		if got := strings.Join(sortedCopy(hosts), " "); got != "https://example.com/robots.txt https://example.org/robots.txt https://example.org/robots.txt" {
			t.Errorf("captures %s", got)
		}
		if sum.NotHosts != 1 || strings.Join(sum.NotHostExamples, ",") != "mirror.tar.gz:sites/c/README.md" {
			t.Errorf("not hosts %d %q", sum.NotHosts, sum.NotHostExamples)
		}
	})
	t.Run("manifest_line", func(t *testing.T) {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, "notes.txt"), []byte("User-agent: *\n"), 0o644)
		os.WriteFile(filepath.Join(d, "example.org.txt"), []byte("User-agent: *\n"), 0o644)
		good := filepath.Join(d, "good.paths")
		os.WriteFile(good, []byte("example.org.txt\n"), 0o644)
		caps, _, err := collect(t, Config{}, good)
		if err != nil || len(caps) != 1 || caps[0].URL != "https://example.org/robots.txt" || caps[0].Path != "example.org.txt" {
			t.Errorf("err %v, captures %+v", err, caps)
		}
		bad := filepath.Join(d, "bad.paths")
		os.WriteFile(bad, []byte("example.org.txt\nnotes.txt\n"), 0o644)
		if _, _, err := collect(t, Config{}, bad); !errors.Is(err, ErrNotHostName) || !strings.Contains(err.Error(), "notes.txt") {
			t.Errorf("err %v, want ErrNotHostName naming notes.txt", err)
		}
	})
	t.Run("file_named_alone", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "notes.txt")
		os.WriteFile(p, []byte("User-agent: *\n"), 0o644)
		_, sum, err := collect(t, Config{}, p)
		if !errors.Is(err, ErrNotHostName) || !strings.Contains(err.Error(), "notes.txt") || sum.Files != 0 {
			t.Errorf("err %v, files %d; want ErrNotHostName naming the file", err, sum.Files)
		}
	})
}
