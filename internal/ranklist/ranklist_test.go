package ranklist

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestEach(t *testing.T) {
	in := "\uFEFFrank,domain\n# a comment\n\n1, google.com \n2,example.com\n3,stop.example\n4,never.example\n"
	var got []string
	err := Each(strings.NewReader(in), func(line int, rank int64, dom string) bool {
		got = append(got, strings.Join([]string{string(rune('0' + line)), string(rune('0' + rank)), dom}, " "))
		return dom != "stop.example"
	})
	if err != nil || strings.Join(got, "|") != "4 1 google.com|5 2 example.com|6 3 stop.example" {
		t.Errorf("got %q, %v", got, err)
	}
	for in, want := range map[string]string{
		"1,a.example\nno comma here\n": `line 2: "no comma here" is not rank,domain`,
		"1,a.example\nx,b.example\n":   `line 2: rank "x" is not a positive number`,
		"1,a.example\n0,b.example\n":   `line 2: rank "0" is not a positive number`,
	} {
		var fe *FormatError
		err := Each(strings.NewReader(in), func(int, int64, string) bool { return true })
		if !errors.As(err, &fe) || err.Error() != want {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
	long := "1," + strings.Repeat("a", 2<<20) + "\n"
	var re *ReadError
	if err := Each(strings.NewReader(long), func(int, int64, string) bool { return true }); !errors.As(err, &re) || re.Line != 1 {
		t.Errorf("a 2 MiB line: %v", err)
	}
}

// TestEachEntry: a list of bare hosts, or one that mixes them with ranked
// lines, reads with rank 0 for the bare ones; the header rule holds.
func TestEachEntry(t *testing.T) {
	in := "\uFEFFrank,domain\n1,example.com\nbare.example\n# note\n\n  other.example  \n3,third.example\n"
	var got []string
	if err := EachEntry(strings.NewReader(in), func(line int, rank int64, dom string) bool {
		got = append(got, strconv.Itoa(line)+":"+strconv.FormatInt(rank, 10)+":"+dom)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if want := "2:1:example.com 3:0:bare.example 6:0:other.example 7:3:third.example"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := Each(strings.NewReader("bare.example\n"), func(int, int64, string) bool { return true }); err == nil {
		t.Error("Each reads a bare line")
	}
}
