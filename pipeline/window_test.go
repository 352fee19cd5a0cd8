package pipeline

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// TestWindow: what was read can be read again from any offset among the
// last rewindSize bytes, not before; the input's error is sticky; a plain
// input passes through.
func TestWindow(t *testing.T) {
	t.Parallel()
	data := make([]byte, 3*windowSize+12345)
	for i := range data {
		data[i] = byte(i * 7)
	}
	var w window
	w.reset(bytes.NewReader(data))
	buf := make([]byte, compressedBufSize)
	var got []byte
	for len(got) < 2*windowSize {
		n, err := w.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.Equal(got, data[:len(got)]) || w.pos() != int64(len(got)) {
		t.Fatalf("read %d bytes, pos %d", len(got), w.pos())
	}
	back := w.pos() - rewindSize + 1
	if b := w.since(back); !bytes.Equal(b, data[back:w.pos()]) {
		t.Fatalf("since(%d): %d bytes", back, len(b))
	}
	if w.since(w.pos()-windowSize-1) != nil || w.rewind(w.pos()-windowSize-1) {
		t.Fatal("rewound past the window")
	}
	if !w.rewind(back) || w.pos() != back {
		t.Fatalf("rewind to %d: pos %d", back, w.pos())
	}
	rest, err := io.ReadAll(&w)
	if err != nil || !bytes.Equal(rest, data[back:]) {
		t.Fatalf("after the rewind: %d bytes, %v", len(rest), err)
	}
	if n, err := w.Read(buf); n != 0 || err != io.EOF || w.failed() != nil {
		t.Fatalf("at the end: %d, %v, failed %v", n, err, w.failed())
	}

	boom := errors.New("connection reset")
	w.reset(io.MultiReader(bytes.NewReader(data[:100]), iotestErr{boom}))
	w.keep = false
	all, err := io.ReadAll(&w)
	if !errors.Is(err, boom) || len(all) != 100 || w.failed() != boom {
		t.Fatalf("%d bytes, %v", len(all), err)
	}
	if _, err := w.Read(buf); err != boom {
		t.Fatalf("not sticky: %v", err)
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }
