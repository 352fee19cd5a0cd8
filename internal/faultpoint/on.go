//go:build robotstat_faultpoints

package faultpoint

import (
	"os"
	"sync"
	"time"
)

var want = sync.OnceValue(func() string { return os.Getenv(Env) })

func at(point, detail string) {
	w := want()
	if w == "" || w != point && w != point+":"+detail {
		return
	}
	os.Stderr.WriteString("robotstat: faultpoint " + point + ":" + detail + "\n")
	for {
		time.Sleep(time.Hour) // until the test kills the process
	}
}
