module fiatramp.ci/modproxy

go 1.23.0
