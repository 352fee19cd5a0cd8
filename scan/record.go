package scan

import "strconv"

// WARC record types and media types this package writes (ISO 28500:2017
// sections 6 and 8).
const (
	typeWarcinfo = "warcinfo"
	typeRequest  = "request"
	typeResponse = "response"
	typeMetadata = "metadata"

	mediaRequest  = "application/http;msgtype=request"
	mediaResponse = "application/http;msgtype=response"
	mediaFields   = "application/warc-fields"
)

// fields builds an application/warc-fields block ("name: value" CRLF
// lines). Values are single lines: CR and LF in one are replaced by spaces.
type fields struct{ b []byte }

func (f *fields) add(name, value string) {
	if value == "" {
		return
	}
	f.b = append(f.b, name...)
	f.b = append(f.b, ": "...)
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c == '\r' || c == '\n' {
			c = ' '
		}
		f.b = append(f.b, c)
	}
	f.b = append(f.b, "\r\n"...)
}

func (f *fields) addInt(name string, v int64) { f.add(name, strconv.FormatInt(v, 10)) }
