module github.com/robotstat/robotstat

go 1.26.0
