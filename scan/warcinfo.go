package scan

import (
	"github.com/robotstat/robotstat/warc"
	"hash/maphash"
	"strconv"
	"strings"
)

// warcinfo returns the first member of the file name: what wrote it, how,
// and for whom (ISO 28500 section 6.2 and annex C's recommended fields).
func (s *scanner) warcinfo(name string) []byte {
	c := s.cfg
	var f fields
	f.add("software", c.Software)
	f.add("format", "WARC File Format 1.1")
	f.add("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/")
	f.add("isPartOf", c.Crawl)
	f.add("description", "robots.txt of each host, fetched as RFC 9309 section 2.3 describes (https then http, up to "+
		strconv.Itoa(c.MaxRedirects)+" redirects, "+sizeText(c.BodyLimit)+" kept); see the scan package doc for the metadata records")
	f.add("robots", "only /robots.txt is fetched")
	f.add("http-header-user-agent", c.UserAgent)
	if op := contactURL(c.UserAgent); op != "" {
		f.add("operator", op)
	}
	f.add("options", c.Options)
	h := warc.RecordHeader{Type: typeWarcinfo, ID: warc.NewRecordID(), Date: s.fetcher.now(), Filename: name, ContentType: mediaFields}
	return warc.NewEncoder().Member(nil, &h, f.b)
}

// sizeText writes a byte count as the description says it: in KiB when it
// is a whole number of them (the default, 500 KiB), else in bytes.
func sizeText(n int64) string {
	if n > 0 && n%1024 == 0 {
		return strconv.FormatInt(n/1024, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// contactURL finds the contact URL in a User-Agent ("(+https://...)").
func contactURL(ua string) string {
	i := strings.Index(ua, "https://")
	if j := strings.Index(ua, "http://"); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return ""
	}
	u := ua[i:]
	if k := strings.IndexAny(u, " ;)"); k >= 0 {
		u = u[:k]
	}
	return u
}

func maphashSeed() maphash.Seed { return maphash.MakeSeed() }
