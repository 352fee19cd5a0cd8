module github.com/robotstat/robotstat/scripts/compare-temoto

go 1.26.0

require github.com/robotstat/robotstat v0.0.0

require github.com/temoto/robotstxt v1.1.2

replace github.com/robotstat/robotstat => ../..
