//go:build !(linux || darwin)

package sandbox

import "errors"

// raiseFileLimit cannot read the limit on open files on this system.
func raiseFileLimit(uint64) (uint64, error) {
	return 0, errors.New("no RLIMIT_NOFILE on this system")
}
