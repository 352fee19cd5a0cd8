package scan

import (
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress draws hosts done against the hosts to do, hosts/s and ETA
// until the returned stop is called; nothing without Config.Progress.
func (s *scanner) progress(total int) (stop func()) {
	if s.cfg.Progress == nil {
		return func() {}
	}
	bar := progressbar.NewOptions64(int64(total),
		progressbar.OptionSetWriter(s.cfg.Progress),
		progressbar.OptionSetItsString("hosts"),
		progressbar.OptionShowIts(),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetDescription("scan"),
	)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				bar.Set64(s.hostsDone.Load())
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		bar.Set64(s.hostsDone.Load())
		bar.Finish()
		s.cfg.Progress.Write([]byte("\n"))
	}
}
