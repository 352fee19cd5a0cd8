package pipeline

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressEvery is how often the bar is redrawn: often enough to look
// alive, rarely enough to cost nothing.
const progressEvery = 200 * time.Millisecond

// startProgress draws bytes read against the known total (files are sized
// up front, URLs when their response says), captures/s and ETA, until the
// returned stop is called. It draws nothing unless Config.Progress is set.
func (r *runner) startProgress(list []input) (stop func()) {
	if r.cfg.Progress == nil {
		return func() {}
	}
	for _, in := range list {
		if isURL(in.name) || in.name == "-" {
			continue
		}
		if st, err := os.Stat(in.name); err == nil {
			r.totalBytes.Add(st.Size())
		}
	}
	total := r.totalBytes.Load()
	if total <= 0 {
		total = -1 // unknown: progressbar draws a spinner
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(r.cfg.Progress),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(progressEvery),
		progressbar.OptionSetWidth(24),
		progressbar.OptionShowDescriptionAtLineEnd(),
		// end the bar's line, so what is printed next starts on its own
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(r.cfg.Progress) }),
	)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		start := time.Now()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if m := r.totalBytes.Load(); m > 0 && m != bar.GetMax64() {
				bar.ChangeMax64(m)
			}
			bar.Set64(r.bytesRead.Load())
			caps := r.captures.Load()
			rate := float64(caps) / time.Since(start).Seconds()
			bar.Describe(strconv.FormatInt(caps, 10) + " captures, " + strconv.FormatFloat(rate, 'f', 0, 64) + "/s")
		}
	}()
	return func() {
		close(done)
		<-finished
		bar.Set64(r.bytesRead.Load())
		bar.Describe(strconv.FormatInt(r.captures.Load(), 10) + " captures")
		bar.Finish()
	}
}
