package sandbox

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
)

// checkRequestID checks that id is "req_" and a version 4 UUID in its
// canonical text. (The package has its own require, hence assert alone.)
func checkRequestID(t *testing.T, id string) {
	t.Helper()
	text, ok := strings.CutPrefix(id, "req_")
	assert.True(t, ok, id)
	u, err := uuid.Parse(text)
	if !assert.NoError(t, err, id) {
		return
	}
	assert.Equal(t, text, u.String(), "not the canonical text")
	assert.Equal(t, uuid.Version(4), u.Version(), id)
	assert.Equal(t, uuid.RFC4122, u.Variant(), id)
}

// The ids of one sandbox never repeat, even taken at once by many
// requests, and keep the UUID form; another sandbox's ids are not its.
func TestRequestIDsUnique(t *testing.T) {
	g := newRequestIDs()
	const workers, each = 8, 2000
	ids := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				ids[w] = append(ids[w], g.next())
			}
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, list := range ids {
		for _, id := range list {
			checkRequestID(t, id)
			if !assert.False(t, seen[id], "%s given twice", id) {
				return
			}
			seen[id] = true
		}
	}
	other := newRequestIDs()
	for range 100 {
		id := other.next()
		assert.False(t, seen[id], "%s given by two sandboxes", id)
	}
}

// The counter's high bits never reach the UUID's variant bits: at the end
// of the counter's range the ids are still version 4 UUIDs, and distinct.
func TestRequestIDsCounterRange(t *testing.T) {
	g := newRequestIDs()
	g.n.Store(1<<62 - 2)
	a, b := g.next(), g.next()
	checkRequestID(t, a)
	checkRequestID(t, b)
	assert.NotEqual(t, a, b)
	assert.Equal(t, a[:len("req_")+18], b[:len("req_")+18], "the base's high half changed")
}
