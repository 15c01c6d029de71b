package webhook_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/webhook"
)

// Concurrent claims of one key: exactly one caller holds it at a time, and
// every key ends up handled exactly once.
func TestMemoryDeduperConcurrentClaims(t *testing.T) {
	d := &webhook.MemoryDeduper{}
	ctx := context.Background()
	var runs [20]atomic.Int32
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				k := i % len(runs)
				c, err := d.Begin(ctx, strconv.Itoa(k))
				require.NoError(t, err)
				if c.State != webhook.Claimed {
					continue
				}
				if (i+g)%3 == 0 { // a failed run: released, run again later
					require.NoError(t, d.Release(ctx, c))
					continue
				}
				runs[k].Add(1)
				require.NoError(t, d.Complete(ctx, c))
			}
		}()
	}
	wg.Wait()
	for k := range runs {
		assert.Equal(t, int32(1), runs[k].Load(), k)
	}
}
