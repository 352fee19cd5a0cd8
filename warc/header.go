package warc

import (
	"bytes"

	"github.com/robotstat/robotstat/internal/ascii"
)

// Header is the part of a WARC record header that robotstat reads (ISO
// 28500 / WARC 1.1 section 5; WARC/0.17 and 0.18 name their fields the
// same way). Raw holds the header as read, from the version line to the
// last field line; each field's value is located in Raw by its offsets,
// trimmed of white space (and of the angle brackets around a WARC/0.17
// target URI), so that CopyTo moves a header with its fields in one copy.
//
// The accessors return nil when the field is absent, and a slice of Raw
// otherwise: valid as long as Raw is (a Reader's header until its next
// Next). A Header is a value: copying it shares Raw; CopyTo copies Raw.
type Header struct {
	Raw           []byte
	ContentLength int64 // Content-Length: the block's length

	at [numFields]span
}

// span locates a field value in Header.Raw: Raw[a:b]. The zero span is an
// absent field: a present one ends after the version line's first byte,
// so b > 0 (even when the value is empty).
type span struct{ a, b int32 }

// The fields a Header locates.
const (
	fVersion = iota
	fType
	fTargetURI
	fDate
	fRecordID
	fIPAddress
	fPayloadDigest
	fTruncated
	fIdentifiedType
	fContentType
	fPayloadLength
	numFields
)

// PayloadLengthField names the extension field robotstat scan writes on a
// response record whose block holds only part of its payload
// (WARC-Truncated): the payload's true length in bytes, as counted when
// it was fetched (up to its count limit). No standard field says this;
// ISO 28500 section 5 lets a record carry fields of its own.
const PayloadLengthField = "Robotstat-Payload-Length"

func (h *Header) field(f int) []byte {
	s := h.at[f]
	if s.b == 0 {
		return nil
	}
	return h.Raw[s.a:s.b:s.b]
}

// Version is the version line: "WARC/1.1".
func (h *Header) Version() []byte { return h.field(fVersion) }

// Type is WARC-Type: "response", "request", "warcinfo", ...
func (h *Header) Type() []byte { return h.field(fType) }

// TargetURI is WARC-Target-URI, without the angle brackets WARC/0.17
// drafts put around it.
func (h *Header) TargetURI() []byte { return h.field(fTargetURI) }

// Date is WARC-Date as written (WARC/0.17's 14 digits or ISO 8601).
func (h *Header) Date() []byte { return h.field(fDate) }

// RecordID is WARC-Record-ID as written, angle brackets included.
func (h *Header) RecordID() []byte { return h.field(fRecordID) }

// IPAddress is WARC-IP-Address.
func (h *Header) IPAddress() []byte { return h.field(fIPAddress) }

// PayloadDigest is WARC-Payload-Digest.
func (h *Header) PayloadDigest() []byte { return h.field(fPayloadDigest) }

// Truncated is WARC-Truncated: why the block is shorter than what was
// fetched ("length", "time", ...).
func (h *Header) Truncated() []byte { return h.field(fTruncated) }

// IdentifiedType is WARC-Identified-Payload-Type.
func (h *Header) IdentifiedType() []byte { return h.field(fIdentifiedType) }

// ContentType is Content-Type: the block's media type
// ("application/http; msgtype=response").
func (h *Header) ContentType() []byte { return h.field(fContentType) }

// PayloadLength is the PayloadLengthField extension field: the payload's
// true length where the block holds less of it.
func (h *Header) PayloadLength() []byte { return h.field(fPayloadLength) }

// CopyTo makes dst a copy of h that owns its bytes, reusing the memory of
// dst.Raw: it does not allocate once dst.Raw is as long as h.Raw.
func (h *Header) CopyTo(dst *Header) {
	raw := append(dst.Raw[:0], h.Raw...)
	*dst = *h
	dst.Raw = raw
}

// parse fills h from raw, the header's lines (version line first, no blank
// line). It returns false, with the offending line (nil when the field is
// missing), when Content-Length is missing, not a decimal, or given twice
// with different values.
func (h *Header) parse(raw []byte) (bad []byte, ok bool) {
	*h = Header{Raw: raw, ContentLength: -1}
	eol := lineEnd(raw, 0)
	h.set(fVersion, 0, eol)
	for p := eol + 1; p < len(raw); {
		eol = lineEnd(raw, p)
		line := raw[p:eol]
		a := p
		p = eol + 1
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			continue // folded or stray line: nothing robotstat reads is folded
		}
		name := ascii.Trim(line[:i], &ascii.LineSpace)
		va, vb := trimSpan(raw, a+i+1, eol)
		f := -1
		switch len(name) {
		case 9:
			if ascii.EqualFold(name, "WARC-Type") {
				f = fType
			} else if ascii.EqualFold(name, "WARC-Date") {
				f = fDate
			}
		case 12:
			if ascii.EqualFold(name, "Content-Type") {
				f = fContentType
			}
		case 14:
			if ascii.EqualFold(name, "Content-Length") {
				n, ok := ascii.ParseDecimal(raw[va:vb])
				if !ok || (h.ContentLength >= 0 && n != h.ContentLength) {
					// Two different lengths: which one frames the
					// record cannot be told, and taking the last
					// swallowed the records after it. RFC 9110 section
					// 8.6 lets a recipient accept repeated equal values
					// only, and so does this reader.
					return line, false
				}
				h.ContentLength = n
			} else if ascii.EqualFold(name, "WARC-Record-ID") {
				f = fRecordID
			} else if ascii.EqualFold(name, "WARC-Truncated") {
				f = fTruncated
			}
		case 15:
			if ascii.EqualFold(name, "WARC-Target-URI") {
				if vb-va >= 2 && raw[va] == '<' && raw[vb-1] == '>' {
					va, vb = trimSpan(raw, va+1, vb-1)
				}
				f = fTargetURI
			} else if ascii.EqualFold(name, "WARC-IP-Address") {
				f = fIPAddress
			}
		case 19:
			if ascii.EqualFold(name, "WARC-Payload-Digest") {
				f = fPayloadDigest
			}
		case 24:
			if ascii.EqualFold(name, PayloadLengthField) {
				f = fPayloadLength
			}
		case 28:
			if ascii.EqualFold(name, "WARC-Identified-Payload-Type") {
				f = fIdentifiedType
			}
		}
		if f >= 0 {
			h.at[f] = span{int32(va), int32(vb)}
		}
	}
	if h.ContentLength < 0 {
		return nil, false
	}
	return nil, true
}

// set locates field f at raw[a:b], trimmed.
func (h *Header) set(f, a, b int) {
	a, b = trimSpan(h.Raw, a, b)
	h.at[f] = span{int32(a), int32(b)}
}

// lineEnd returns the index of the line feed ending the line that starts
// at p, or len(b).
func lineEnd(b []byte, p int) int {
	if i := bytes.IndexByte(b[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(b)
}

// trimSpan narrows b[a:z] to exclude leading and trailing white space
// (ascii.LineSpace: the white space of header lines as archives store
// them).
func trimSpan(b []byte, a, z int) (int, int) {
	for a < z && ascii.LineSpace.Has(b[a]) {
		a++
	}
	for z > a && ascii.LineSpace.Has(b[z-1]) {
		z--
	}
	return a, z
}
